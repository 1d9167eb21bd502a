import type { Framing } from './markdown.js';
import type { PatternId, Severity } from './types.js';

// A rule as every stage names it: the static scan's rules (read from rules/<id>/rule.yaml) and the runtime
// rules of detonation, reported in SARIF and the report.

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
