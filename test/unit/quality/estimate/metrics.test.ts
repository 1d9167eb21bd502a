import { describe, expect, it } from 'vitest';
import { agreement, averageRanks, pearson, spearman } from '../../../../src/quality/estimate/metrics.js';

const pairs = (p: number[], t: number[]) => p.map((predicted, i) => ({ predicted, truth: t[i]! }));

describe('agreement metrics', () => {
  it('match hand-computed values for a known prediction/truth pair', () => {
    // errors 0.1, -0.1, 0 → MAE 0.2/3, RMSE √(0.02/3), bias 0.
    // deviations p: -0.2, 0, 0.2; t: -0.3, 0.1, 0.2 → Sxy 0.10, Sxx 0.08, Syy 0.14 → r = 0.1/√0.0112.
    const m = agreement(pairs([0.5, 0.7, 0.9], [0.4, 0.8, 0.9]));
    expect(m.n).toBe(3);
    expect(m.mae).toBeCloseTo(0.2 / 3, 12);
    expect(m.rmse).toBeCloseTo(Math.sqrt(0.02 / 3), 12);
    expect(m.bias).toBeCloseTo(0, 12);
    expect(m.pearson).toBeCloseTo(0.1 / Math.sqrt(0.0112), 12);
    expect(m.spearman).toBe(1);
  });

  it('signs the bias as prediction minus truth and reads a reversed order as ρ = −1', () => {
    const m = agreement(pairs([0.9, 0.6, 0.3], [0.2, 0.4, 0.6]));
    // errors 0.7, 0.2, −0.3
    expect(m.bias).toBeCloseTo(0.6 / 3, 12);
    expect(m.mae).toBeCloseTo(1.2 / 3, 12);
    expect(m.pearson).toBeCloseTo(-1, 12);
    expect(m.spearman).toBeCloseTo(-1, 12);
  });

  it('gives tied values the mean of their ranks', () => {
    expect(averageRanks([0.3, 0.1, 0.3, 0.2])).toEqual([3.5, 1, 3.5, 2]);
    // ranks x: 1, 2.5, 2.5, 4; y: 1, 2, 3, 4 → Pearson of the ranks: Sxy 4.5, Sxx 4.5, Syy 5.
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(4.5 * 5), 12);
  });

  it('leaves correlations null (never NaN) on constant vectors and on fewer than two values', () => {
    const constant = agreement(pairs([0.5, 0.5, 0.5], [0.1, 0.6, 0.9]));
    expect(constant.pearson).toBeNull();
    expect(constant.spearman).toBeNull();
    expect(constant.mae).toBeCloseTo((0.4 + 0.1 + 0.4) / 3, 12);
    expect(pearson([0.1 + 0.2, 0.3, 0.30000000000000004], [1, 2, 3])).toBeNull();
    expect(pearson([1], [2])).toBeNull();
    const none = agreement([]);
    expect(none).toEqual({ n: 0, mae: null, rmse: null, bias: null, pearson: null, spearman: null });
    expect(JSON.stringify(constant)).not.toContain('NaN');
  });
});
