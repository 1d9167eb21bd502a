import type { SafetyStatus, Severity } from '../types.js';

// Seed 000 eq. 8 and the Pass / Caution / Risky thresholds (SkillTester convention).
export const SEVERITY_PENALTY: Record<Severity, number> = { high: 15, medium: 10, low: 5 };
export const NO_PROBE_EXPLOITABILITY = 0.6;
export const RISKY_BELOW = 80;

export interface ScoredFinding {
  severity: Severity;
  /** Existence confidence from the static scanner, in [0, 1]. */
  confidence: number;
  /** Exploitability from a dynamic verdict (Table A3); defaults to the no_probe prior. */
  exploitConfidence?: number;
}

export function safetyScore(findings: readonly ScoredFinding[]): number {
  let penalty = 0;
  for (const f of findings) {
    penalty += SEVERITY_PENALTY[f.severity] * f.confidence * (f.exploitConfidence ?? NO_PROBE_EXPLOITABILITY);
  }
  // Round to 2 decimals so that reports are stable across platforms' float formatting.
  return Math.round(Math.max(10, 100 - penalty) * 100) / 100;
}

export function safetyStatus(score: number): SafetyStatus {
  if (score >= 100) return 'pass';
  if (score >= RISKY_BELOW) return 'caution';
  return 'risky';
}
