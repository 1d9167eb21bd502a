import { describe, expect, it } from 'vitest';
import {
  EFFICIENCY_SETTINGS,
  efficiency,
  normaliseToInterval,
  runEfficiency,
} from '../../../src/quality/efficiency.js';

describe('Table 12 settings', () => {
  it('are the published intervals, thresholds and weights', () => {
    expect(
      EFFICIENCY_SETTINGS.map((s) => [
        s.quantity,
        s.interval.low,
        s.interval.high,
        s.upperThreshold,
        s.weight,
      ]),
    ).toEqual([
      ['promptTokens', 500, 2000, 8000, 0.3],
      ['planSteps', 3, 7, 20, 0.25],
      ['latencyMs', 500, 3000, 15000, 0.2],
      ['toolCalls', 1, 5, 15, 0.25],
    ]);
    expect(EFFICIENCY_SETTINGS.reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 12);
  });
});

describe('normaliseToInterval', () => {
  const tokens = { low: 500, high: 2000 };
  it('is 1 inside the interval and at its upper end', () => {
    expect(normaliseToInterval(500, tokens, 8000)).toBe(1);
    expect(normaliseToInterval(1200, tokens, 8000)).toBe(1);
    expect(normaliseToInterval(2000, tokens, 8000)).toBe(1);
  });
  it('decays linearly to 0 at the upper threshold: 5000 tokens → (8000 − 5000) / (8000 − 2000) = 0.5', () => {
    expect(normaliseToInterval(5000, tokens, 8000)).toBe(0.5);
    expect(normaliseToInterval(3500, tokens, 8000)).toBe(0.75);
    expect(normaliseToInterval(10, { low: 3, high: 7 }, 20)).toBeCloseTo(10 / 13, 12);
  });
  it('is 0 at and beyond the threshold, and 1 below the interval (no lower threshold in Table 12)', () => {
    expect(normaliseToInterval(8000, tokens, 8000)).toBe(0);
    expect(normaliseToInterval(1e9, tokens, 8000)).toBe(0);
    expect(normaliseToInterval(0, { low: 1, high: 5 }, 15)).toBe(1);
  });
  it('rejects values that are not measurements', () => {
    expect(() => normaliseToInterval(Number.NaN, tokens, 8000)).toThrow(RangeError);
    expect(() => normaliseToInterval(-1, tokens, 8000)).toThrow(RangeError);
    expect(() => normaliseToInterval(1, tokens, 2000)).toThrow(RangeError);
  });
});

describe('runEfficiency', () => {
  it('weights the four quantities: 0.3·0.5 + 0.25·10/13 + 0.2·1 + 0.25·0.7 = 0.71731', () => {
    const r = runEfficiency({ promptTokens: 5000, planSteps: 10, latencyMs: 2000, toolCalls: 8 });
    // tool calls 8 → (15 − 8) / (15 − 5) = 0.7
    expect(r.parts.map((p) => p.normalised)).toEqual([0.5, 10 / 13, 1, 0.7]);
    expect(r.score).toBeCloseTo(0.3 * 0.5 + 0.25 * (10 / 13) + 0.2 * 1 + 0.25 * 0.7, 12);
    expect(r.score).toBeCloseTo(0.71731, 5);
    expect(r.missing).toEqual([]);
  });

  it('shares a missing quantity’s weight over the others: (0.3·0.5 + 0.25·0.7) / 0.55 = 0.5909', () => {
    const r = runEfficiency({ promptTokens: 5000, toolCalls: 8 });
    expect(r.missing).toEqual(['planSteps', 'latencyMs']);
    expect(r.score).toBeCloseTo((0.3 * 0.5 + 0.25 * 0.7) / 0.55, 12);
  });

  it('has no score when the run measured nothing', () => {
    expect(runEfficiency({}).score).toBeNull();
  });
});

describe('efficiency dimension', () => {
  it('is the mean over runs, keeping each run as evidence', () => {
    const d = efficiency([
      { promptTokens: 1000, planSteps: 5, latencyMs: 1000, toolCalls: 3 },
      { promptTokens: 5000 },
    ]);
    expect(d.status).toBe('scored');
    expect(d.score).toBe(0.75); // (1 + 0.5) / 2
    expect((d.evidence.runs as unknown[]).length).toBe(2);
  });

  it('is not run (no number) without measurements', () => {
    const d = efficiency([]);
    expect(d).toMatchObject({ status: 'not_run', score: null, group: 'dynamic' });
    expect(d.reason).toMatch(/no run/);
  });
});
