import type { DetonationCoverage } from '../core/coverage-types.js';
import type { Decision } from '../core/decision.js';
import type { Diagnostic, Finding, Provenance, SafetyStatus, VerdictKind } from '../core/types.js';

// The audit report model (DESIGN section 3 `Report`, seed 000 eq. 9). Every renderer (text, JSON, Markdown,
// HTML) reads this one model; docs/report.schema.json is its published JSON Schema, versioned by `version`.

export interface ReportSkill {
  id: string;
  name: string;
  description: string;
  path: string;
  provenance: Provenance;
  files: { path: string; size: number; kind: string; language: string | null; sha256: string | null }[];
  diagnostics: Diagnostic[];
}

export interface RuntimeEvidenceRef {
  /** e.g. network, canary, process, file, dns. */
  kind: string;
  /** One line a developer reads: "POST https://x.example/collect carried OPENAI_API_KEY canary". */
  summary: string;
  /** Relative path of the artifact in the run folder that holds the full record. */
  artifact?: string;
}

export interface ReportFinding extends Finding {
  verdict: VerdictKind;
  exploitConfidence: number;
  runtimeEvidence: RuntimeEvidenceRef[];
}

export interface RuntimeSummary {
  scriptsRun: { command: string; exitCode: number | null; timedOut: boolean; wallMs: number }[];
  network: { destination: string; protocol: string; blocked: boolean; bytes?: number; canaries?: string[] }[];
  canaryHits: { canary: string; where: string }[];
  /** A tool using its own credential for its own endpoint (npm's token to its registry): expected, not a hit. */
  expectedCredentialUse?: string[];
  filesChanged: { path: string; change: 'created' | 'modified' | 'deleted' | 'mode' }[];
  processes: { argv: string[] }[];
  sandbox: { backend: string; limitsApplied: string[] };
  /** What the runs reached, said outright (src/detonate/coverage.ts); its headline leads the section. */
  coverage?: DetonationCoverage;
}

export interface ScenarioResult {
  id: string;
  instruction: string;
  checklist: { item: string; withSkill: boolean | null; noSkill: boolean | null; evidence?: string }[];
  withSkill: TrialSummary;
  noSkill: TrialSummary;
  prg: number | null;
  valid: boolean;
  invalidReason?: string;
}

export interface TrialSummary {
  agent: string;
  passed: number;
  total: number;
  timeMs: number;
  tokens: { input: number; cached: number; output: number };
  skillLoaded: boolean | null;
  trajectory: string;
}

export interface UtilitySummary {
  prg: number | null;
  eg: number | null;
  cg: number | null;
  ecg: number | null;
  deltaT: number | null;
  deltaQ: number | null;
  ceiling: boolean;
  scenarios: ScenarioResult[];
}

export interface QualitySummary {
  overall: number | null;
  groups: { static: number | null; dynamic: number | null; rubric: number | null };
  dimensions: {
    id: string;
    name: string;
    group: string;
    status: string;
    score: number | null;
    reason?: string;
    /** Run-folder files the score was computed from (trials, judgements, schemes), for dynamic and rubric ones. */
    artifacts?: string[];
  }[];
}

export interface Report {
  version: 2;
  generatedAt: string;
  tool: { name: 'skillaudit'; version: string };
  skill: ReportSkill;
  /** The verdict in the words of verdict-words.ts: status, advice and the reasons behind the status. */
  verdict: { status: SafetyStatus; advice: string; reasons: string[] };
  safety: {
    score: number;
    status: SafetyStatus;
    decision: Decision;
    findings: ReportFinding[];
    notes: string[];
  };
  runtime: RuntimeSummary | null;
  utility: UtilitySummary | null;
  quality: QualitySummary | null;
  notRun: { stage: string; reason: string }[];
  configuration: Record<string, unknown>;
}
