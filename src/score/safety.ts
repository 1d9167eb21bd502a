import type { Decision } from '../core/decision.js';
import type { SafetyStatus, Severity } from '../core/types.js';
import { decide } from './verdict.js';
import type { DecisionFinding } from './verdict-features.js';

// Seed 000 eq. 8: the safety score shown with every status.
export const SEVERITY_PENALTY: Record<Severity, number> = { high: 15, medium: 10, low: 5 };
export const NO_PROBE_EXPLOITABILITY = 0.6;

export interface ScoredFinding {
  severity: Severity;
  /** Existence confidence from the static scanner, in [0, 1]. */
  confidence: number;
  /** Exploitability from a dynamic verdict (Table A3); defaults to the no_probe prior. */
  exploitConfidence?: number;
  /** With `file`, groups repeated hits of one pattern in one file into one risk (see `safetyScore`). */
  pattern?: string;
  file?: string;
}

function penalty(f: ScoredFinding): number {
  return SEVERITY_PENALTY[f.severity] * f.confidence * (f.exploitConfidence ?? NO_PROBE_EXPLOITABILITY);
}

/**
 * Eq. 8 over distinct risks: hits of the same pattern in the same file (twelve unpinned `npx` lines, say) are
 * one risk, weighted by its strongest hit, so that a line repeated many times does not outweigh a stealer.
 * Findings without pattern and file each count on their own.
 */
export function safetyScore(findings: readonly ScoredFinding[]): number {
  const strongest = new Map<string, number>();
  let total = 0;
  for (const [i, f] of findings.entries()) {
    const key = f.pattern && f.file ? `${f.pattern}\0${f.file}` : `#${i}`;
    strongest.set(key, Math.max(strongest.get(key) ?? 0, penalty(f)));
  }
  for (const p of strongest.values()) total += p;
  // Round to 2 decimals so that reports are stable across platforms' float formatting.
  return Math.round(Math.max(10, 100 - total) * 100) / 100;
}

/**
 * The score stays eq. 8; the status does not come from it. "Risky below 80" called 99 of 100 benign marketplace
 * skills caution or worse (robustness and spec findings add up) and let one certain stealer stay at caution
 * (a high finding costs at most 9 points without a probe). The status is the learned decision (verdict.ts).
 */
export function assessSafety(active: readonly (ScoredFinding & DecisionFinding)[]): {
  score: number;
  status: SafetyStatus;
  decision: Decision;
} {
  const score = safetyScore(active);
  const decision = decide(active);
  return { score, status: decision.status, decision };
}
