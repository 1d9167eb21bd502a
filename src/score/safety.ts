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
 * Eq. 8 alone cannot call one certain stealer risky: a high finding costs at most 15 x 1 x 0.6 = 9 points
 * without a probe, so a single-line credential theft or `exec(b64decode(...))` would stay at caution. A
 * high-severity finding the scanner is near-certain of therefore decides the status by itself, unless a
 * dynamic verdict found the path not triggered or a likely false positive (exploitability below 0.5;
 * "agent refused" keeps it: the package-level risk remains, Table A3). The score itself stays eq. 8.
 */
export const DECISIVE_CONFIDENCE = 0.85;
const DECISIVE_EXPLOITABILITY = 0.5;

export function isDecisive(f: ScoredFinding): boolean {
  return (
    f.severity === 'high' &&
    f.confidence >= DECISIVE_CONFIDENCE &&
    (f.exploitConfidence ?? NO_PROBE_EXPLOITABILITY) >= DECISIVE_EXPLOITABILITY
  );
}

/** Pass at 100, risky below 80 or with a decisive finding, caution otherwise; `active` excludes suppressed findings. */
export function safetyStatus(score: number, active: readonly ScoredFinding[] = []): SafetyStatus {
  if (score >= 100) return 'pass';
  if (score < RISKY_BELOW || active.some(isDecisive)) return 'risky';
  return 'caution';
}

/** Score and status of the findings that count (suppressed ones already left out). */
export function assessSafety(active: readonly ScoredFinding[]): { score: number; status: SafetyStatus } {
  const score = safetyScore(active);
  return { score, status: safetyStatus(score, active) };
}
