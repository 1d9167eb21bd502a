import type { SafetyStatus } from './types.js';

// What the pass / caution / risky decision says (src/score/verdict.ts makes it): types only, in core so that the report's
// browser app can name them without the decision's code and the rule data it reads.

export interface Reason {
  feature: string;
  label: string;
  /** The feature's value (a confidence) times its weight: what it added to the log-odds. */
  contribution: number;
  finding?: { pattern: string; rule?: string; file?: string; line?: number; confidence: number };
}

export interface Decision {
  status: SafetyStatus;
  /** The model's probability that the skill is malicious or risky to install, in [0, 1]. */
  probability: number;
  thresholds: { caution: number; risky: number };
  /**
   * The headline number, 0-100 (higher is safer), in bands that are the statuses' (pass 70-100, caution 40-69,
   * risky 0-39): what every output shows beside the status (src/score/rating.ts).
   */
  rating: number;
  /** Features that pushed towards risk, strongest first (empty for a skill with no safety finding). */
  because: Reason[];
  /** Safety findings confirmed at runtime: each makes the skill risky by itself. */
  confirmed: number;
  /**
   * The decisive indicator that set the status on its own (a password-protected archive to run, code from a
   * paste site, a part of the skill left unread), when one did; its reason comes first in `because`.
   */
  decisive?: string;
}
