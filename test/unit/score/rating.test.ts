import { describe, expect, it } from 'vitest';
import type { SafetyStatus } from '../../../src/core/types.js';
import { decide, ratingOf } from '../../../src/score/index.js';
import { RATING_BANDS, safetyRating } from '../../../src/score/rating.js';

const THRESHOLDS = { caution: 0.4, risky: 0.77 };
const STATUSES: SafetyStatus[] = ['pass', 'caution', 'risky'];

describe('safety rating', () => {
  it('never leaves the band of the status beside it, whatever the probability', () => {
    for (const status of STATUSES) {
      for (let p = 0; p <= 1.0001; p += 0.01) {
        for (const confirmed of [false, true]) {
          const r = safetyRating(status, p, THRESHOLDS, confirmed, 0.25);
          expect(r).toBeGreaterThanOrEqual(RATING_BANDS[status][0]);
          expect(r).toBeLessThanOrEqual(RATING_BANDS[status][1]);
          expect(Number.isInteger(r)).toBe(true);
        }
      }
    }
  });

  it('falls as the probability rises within a band, and the bands do not overlap', () => {
    expect(safetyRating('pass', 0.25, THRESHOLDS, false, 0.25)).toBe(100);
    expect(safetyRating('pass', 0.39, THRESHOLDS, false, 0.25)).toBeLessThan(
      safetyRating('pass', 0.3, THRESHOLDS, false, 0.25),
    );
    expect(safetyRating('caution', 0.76, THRESHOLDS)).toBeLessThan(safetyRating('caution', 0.45, THRESHOLDS));
    expect(safetyRating('risky', 0.99, THRESHOLDS)).toBeLessThan(safetyRating('risky', 0.8, THRESHOLDS));
    expect(RATING_BANDS.pass[0]).toBeGreaterThan(RATING_BANDS.caution[1]);
    expect(RATING_BANDS.caution[0]).toBeGreaterThan(RATING_BANDS.risky[1]);
  });

  it('a status raised past the model sits at the top of its band; a runtime confirmation at the bottom', () => {
    expect(safetyRating('risky', 0.1, THRESHOLDS)).toBe(RATING_BANDS.risky[1]);
    expect(safetyRating('caution', 0.1, THRESHOLDS)).toBe(RATING_BANDS.caution[1]);
    expect(safetyRating('risky', 0.1, THRESHOLDS, true)).toBe(RATING_BANDS.risky[0]);
  });

  it('the decision carries it: 100 for a skill without findings, in band for a risky one', () => {
    expect(decide([]).rating).toBe(100);
    const risky = decide([
      { pattern: 'E2', severity: 'high', confidence: 0.9, rule: 'code.env-harvest', verdict: 'confirmed' },
    ]);
    expect(risky.status).toBe('risky');
    expect(risky.rating).toBe(0);
  });

  it('a report written before the rating existed gets the same number from its decision', () => {
    const decision = { probability: 0.9, thresholds: THRESHOLDS, confirmed: 0 };
    expect(ratingOf({ status: 'risky', decision })).toBe(safetyRating('risky', 0.9, THRESHOLDS));
    expect(ratingOf({ status: 'risky', decision: { ...decision, rating: 7 } })).toBe(7);
    // A pass without findings, decided before ratings existed, reads 100 as `decide` would make it.
    const { rating: _omitted, ...old } = decide([]);
    expect(ratingOf({ status: 'pass', decision: old })).toBe(100);
  });
});
