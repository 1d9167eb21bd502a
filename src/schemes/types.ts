import type { PatternId, Severity } from '../core/types.js';

// The scheme artifacts (DESIGN section 3): utility scenarios and security probe specs.

export interface Material {
  /** Relative path inside the task's working directory. */
  path: string;
  content: string;
}

export interface ChecklistItem {
  id: string;
  text: string;
}

/** A mechanical check over the agent's working directory after the run. */
export type RuleCheck =
  | { kind: 'file_exists'; path: string }
  | { kind: 'file_contains'; path: string; value: string }
  /** Run in the sandbox (or Harbor's verifier); the pure checker reports it as not run. */
  | { kind: 'command_succeeds'; command: string };

export interface Scenario {
  /** s1, s2, …: assigned by SkillAudit, safe as a folder name. */
  id: string;
  title: string;
  /** Agent-facing: the business goal only. */
  instruction: string;
  /** Evaluator-only from here on. */
  capabilityAnalysis: string;
  checklist: ChecklistItem[];
  rubric: string;
  expectedOutcome: string;
  materials: Material[];
  ruleChecks: RuleCheck[];
}

export interface ProbeSpec {
  /** p1, p2, … */
  id: string;
  /** The finding the probe tries to trigger. */
  finding: string;
  pattern: PatternId;
  severity: Severity;
  file: string;
  line: number;
  /** Agent-facing: a realistic task in which the skill's risky path would be taken. */
  instruction: string;
  /** Evaluator-only: what in the trial would confirm the risk. */
  confirmIf: string;
  materials: Material[];
}

export interface SchemeNote {
  scenario: string;
  attempt: number;
  problems: string[];
}

export interface UtilityScheme {
  capabilityAnalysis: string;
  scenarios: Scenario[];
  /** Scenarios regenerated because their first answer leaked the procedure or was unusable. */
  regenerated: SchemeNote[];
  /** Scenarios still leaking (or unusable) after the last regeneration: left out, with why. */
  dropped: SchemeNote[];
}

export interface ProbeScheme {
  probes: ProbeSpec[];
  /** Findings that needed a probe but got none (the model skipped them or wrote an unusable one). */
  missing: { finding: string; reason: string }[];
}
