import type { SafetyStatus } from '../core/types.js';

// The headline number a user reads beside the verdict. The seed's eq. 8 score (safety.ts) weighs findings by
// severity and can read 90 beside Risky (one decisive lure) or 40 beside Pass (many low findings in a benign
// skill), so it is kept as a detail. The rating is the decision's own probability drawn in bands that are the
// statuses': it can never contradict the word beside it.

/** The rating's band for each status, [lowest, highest]; higher is safer, and the bands do not overlap. */
export const RATING_BANDS: Readonly<Record<SafetyStatus, readonly [number, number]>> = {
  pass: [70, 100],
  caution: [40, 69],
  risky: [0, 39],
};

/**
 * The safety rating, 0-100: within the status's band it falls as the probability of risk rises between the
 * band's thresholds. In the pass band the scale starts at `baseline`, the model's probability for a skill with no
 * finding at all, so such a skill reads 100. A status a decisive indicator raised sits at the top of its band (the
 * model alone did not reach it); a runtime confirmation at the bottom (the strongest evidence there is).
 */
export function safetyRating(
  status: SafetyStatus,
  probability: number,
  thresholds: { caution: number; risky: number },
  confirmed = false,
  baseline = 0,
): number {
  const [low, high] = RATING_BANDS[status];
  if (confirmed && status === 'risky') return low;
  const [from, to] =
    status === 'pass'
      ? [Math.min(baseline, thresholds.caution), thresholds.caution]
      : status === 'caution'
        ? [thresholds.caution, thresholds.risky]
        : [thresholds.risky, 1];
  const t = to > from ? Math.min(1, Math.max(0, (probability - from) / (to - from))) : 0;
  return Math.round(high - t * (high - low));
}
