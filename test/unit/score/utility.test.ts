import { describe, expect, it } from 'vitest';
import {
  type ConditionResult,
  type PairResult,
  pairPrg,
  probeExploitability,
  relativeGain,
  utilityScores,
} from '../../../src/score/utility.js';

const run = (passed: number, seconds: number, inputTokens: number, cachedTokens = 0): ConditionResult => ({
  passed,
  seconds,
  inputTokens,
  cachedTokens,
});
const pair = (scenario: string, items: number, w: ConditionResult, wo: ConditionResult): PairResult => ({
  scenario,
  items,
  withSkill: w,
  noSkill: wo,
});

describe('utilityScores', () => {
  it('computes eqs. 1-7 on a worked example', () => {
    const pairs = [
      // s1: N=5, wi 4, wo 2 → PRG 0.4. t: wo 100, wi 60 → EG 0.4. q̃: wo 10000-2000=8000, wi 5000-1000=4000 → CG 0.5.
      pair('s1', 5, run(4, 60, 5000, 1000), run(2, 100, 10000, 2000)),
      // s2: N=4, wi 4, wo 4 → PRG 0 (ceiling). t: wo 50, wi 75 → EG -0.5. q̃: wo 3000, wi 6000 → CG -1.
      pair('s2', 4, run(4, 75, 6000), run(4, 50, 3000)),
      // s3: N=4, wi 2, wo 0 → PRG 0.5; not in the efficiency subset (no-skill passed nothing).
      pair('s3', 4, run(2, 10, 100), run(0, 20, 200)),
    ];
    const s = utilityScores(pairs);
    // PRG mean over 3 valid pairs = (0.4 + 0 + 0.5) / 3 = 0.3
    expect(s.prg).toBeCloseTo(0.3, 10);
    // EG over s1, s2 = (0.4 − 0.5) / 2 = −0.05; CG = (0.5 − 1) / 2 = −0.25
    expect(s.eg).toBeCloseTo(-0.05, 10);
    expect(s.cg).toBeCloseTo(-0.25, 10);
    // ECG per pair (α 0.5): s1 0.45, s2 −0.75 → mean −0.15
    expect(s.ecg).toBeCloseTo(-0.15, 10);
    // Δt = ((100−60) + (50−75)) / 2 = 7.5; Δq̃ = ((8000−4000) + (3000−6000)) / 2 = 500
    expect(s.deltaSeconds).toBeCloseTo(7.5, 10);
    expect(s.deltaTokens).toBeCloseTo(500, 10);
    expect(s.validPairs).toBe(3);
    expect(s.efficiencyPairs).toBe(2);
    expect(s.ceilingPairs).toBe(1);
    expect(s.pairs.find((p) => p.scenario === 's2')?.ceiling).toBe(true);
    expect(s.pairs.find((p) => p.scenario === 's3')?.eg).toBeNull();
  });

  it('weights ECG by alpha', () => {
    // EG 0.4, CG 0.5; α 0.8 → 0.32 + 0.1 = 0.42
    const s = utilityScores([pair('s1', 5, run(4, 60, 5000, 1000), run(2, 100, 10000, 2000))], 0.8);
    expect(s.ecg).toBeCloseTo(0.42, 10);
    expect(() => utilityScores([], 1.5)).toThrow(RangeError);
  });

  it('excludes invalid pairs instead of counting them as zero', () => {
    const good = pair('a', 2, run(2, 10, 100), run(1, 10, 100)); // PRG 0.5
    const bad: PairResult = { ...pair('b', 2, run(0, 10, 100), run(2, 10, 100)), invalid: 'judge timeout' };
    const s = utilityScores([good, bad]);
    expect(s.prg).toBe(0.5);
    expect(s.validPairs).toBe(1);
    expect(s.invalidPairs).toEqual([{ scenario: 'b', reason: 'judge timeout' }]);
  });

  it('returns nulls when every pair is invalid', () => {
    const s = utilityScores([{ ...pair('a', 3, run(3, 1, 1), run(0, 1, 1)), invalid: 'judge failed' }]);
    expect(s).toMatchObject({
      prg: null,
      eg: null,
      cg: null,
      ecg: null,
      deltaSeconds: null,
      deltaTokens: null,
    });
    expect(s.validPairs).toBe(0);
  });

  it('clips large relative losses to -1 and handles a zero baseline', () => {
    // t_wo 10, t_wi 35 → (10−35)/10 = −2.5 → clipped −1
    expect(relativeGain(10, 35)).toBe(-1);
    expect(relativeGain(10, 0)).toBe(1);
    expect(relativeGain(0, 0)).toBe(0);
    expect(relativeGain(0, 5)).toBe(-1);
    // q̃_wo = 0 because the whole prompt was cached; the with-skill run paid 400 fresh tokens → CG −1
    const s = utilityScores([pair('z', 2, run(1, 0, 500, 100), run(1, 0, 700, 700))]);
    expect(s.cg).toBe(-1);
    expect(s.eg).toBe(0);
  });

  it('rejects an empty checklist', () => {
    expect(() => pairPrg(pair('x', 0, run(0, 1, 1), run(0, 1, 1)))).toThrow(RangeError);
  });
});

describe('probeExploitability', () => {
  it('maps verdicts into Table A3 ranges', () => {
    expect(probeExploitability('confirmed')).toBe(0.93);
    expect(probeExploitability('confirmed', 1)).toBe(1);
    expect(probeExploitability('suspected', 0)).toBe(0.51);
    expect(probeExploitability('agent_refused', 1)).toBe(0.5);
    expect(probeExploitability('path_exists_not_triggered', 0)).toBe(0.2);
    expect(probeExploitability('likely_false_positive', 1)).toBe(0.19);
    expect(probeExploitability('no_probe')).toBe(0.6);
    expect(probeExploitability('confirmed', 7)).toBe(1);
  });
});
