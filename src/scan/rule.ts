import type { Framing } from '../core/markdown.js';
import type { PatternId, Severity, Skill, SkillFile } from '../core/types.js';

/** What a report says of a rule, static or runtime: its id, the pattern it reports, the words a user reads. */
export interface RuleInfo {
  /** Stable detector id, `<area>.<what>`, e.g. `code.env-harvest`, `md.instruction-override`. */
  id: string;
  pattern: PatternId;
  /** One sentence: what was found. */
  message: string;
  /** What it means and what to do; shown in SARIF help and reports. */
  help: string;
  /**
   * Severity when the rule says more than its pattern's default: hiding what the agent does from the user is
   * behaviour manipulation (P4, medium) whose harm is that of a hidden instruction (high). It applies to
   * findings at or above RULE_SEVERITY_FROM; a weaker reading keeps the pattern's severity.
   */
  severity?: Severity;
}

/**
 * A rule of the static scan is data, read from its folder (rules/<id>/rule.yaml, engine/rule-pack.ts): what
 * a report says of it, how framing scales it, and either a declarative match or the name of the detector
 * whose code finds it. The engine turns hits into findings with the pattern's severity.
 */
export interface Rule extends RuleInfo {
  /** Free labels for listing and selecting rules (family, kind of file). */
  tags: readonly string[];
  /**
   * Factor per framing of the text or block the hit sits in (an example, a step for the user, a description
   * of the risk): how much that framing says the agent will not act on it.
   */
  framing: Readonly<Record<Framing, number>>;
  /** Name of the detector (code) that finds it, when its match is not declarative. */
  detect?: string;
  /** Id of its twin reported inside scripts that a script writes out or pipes to an interpreter. */
  embedded?: string;
}

/** Confidence from which a rule's own severity replaces its pattern's (below it the reading is doubtful). */
export const RULE_SEVERITY_FROM = 0.5;

/** One match of a rule in one file. */
export interface Hit {
  rule: string;
  /** 1-based inclusive line range in `file`. */
  line: number;
  endLine: number;
  /** Exact text quoted from the file (trimmed, at most a few lines), or the decoded hidden text. */
  evidence: string;
  /** Existence confidence in [0, 1]: how sure the detector is that the risk is present as an instruction or code path that runs. */
  confidence: number;
  /** Why this confidence: the context that raised or lowered it. */
  rationale: string;
  /** Optional override of the rule message with specifics (e.g. the host or variable). */
  message?: string;
}

/** What a detector sees for one file. */
export interface FileContext {
  skill: Skill;
  file: SkillFile;
  /** The file's text (never null here: detectors only see text files). */
  text: string;
  /** True when SKILL.md (or a script it runs) invokes this file: code that the agent is told to run. */
  reachable: boolean;
  /** Hostnames the skill declares in its name, description or body (its documented APIs). */
  declaredHosts: ReadonlySet<string>;
}

export interface Detector {
  /** Short name for logs and benchmarks. */
  name: string;
  rules: readonly Rule[];
  /** Which files this detector reads. */
  appliesTo(file: SkillFile): boolean;
  /** Pure: returns hits, never throws on hostile input (the engine still guards each call). */
  detect(ctx: FileContext): Hit[] | Promise<Hit[]>;
}
