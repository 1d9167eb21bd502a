import { describe, expect, it } from 'vitest';
import { crossModelRobustness, intentPerturbationStability } from '../../../src/quality/robustness.js';

describe('cross-model robustness', () => {
  it('averages the worst model per scenario, leaving out single-model scenarios: (0.5 + 0.8) / 2 = 0.65', () => {
    const d = crossModelRobustness([
      { scenario: 'a', byModel: { 'anthropic/m1': 1, 'openai/m2': 0.5 } },
      { scenario: 'b', byModel: { 'anthropic/m1': 0.8, 'openai/m2': 0.9 } },
      { scenario: 'c', byModel: { 'anthropic/m1': 1 } },
    ]);
    expect(d.score).toBe(0.65);
    expect((d.evidence.scenarios as { scenario: string }[]).map((s) => s.scenario)).toEqual(['a', 'b']);
  });

  it('is not run with a single model, and rejects success outside [0, 1]', () => {
    expect(crossModelRobustness([{ scenario: 'a', byModel: { m: 1 } }])).toMatchObject({
      status: 'not_run',
      score: null,
    });
    expect(() => crossModelRobustness([{ scenario: 'a', byModel: { m: 1, n: 1.5 } }])).toThrow(RangeError);
  });
});

describe('intent-perturbation stability', () => {
  it('is 1 − mean |paraphrase − original| per scenario, averaged: (0.75 + 1) / 2 = 0.875', () => {
    const d = intentPerturbationStability([
      { scenario: 'a', original: 1, paraphrases: [1, 0.5] }, // 1 − (0 + 0.5) / 2 = 0.75
      { scenario: 'b', original: 0.5, paraphrases: [0.5] }, // 1
    ]);
    expect(d.score).toBe(0.875);
  });

  it('is not run without paraphrases', () => {
    expect(intentPerturbationStability([{ scenario: 'a', original: 1, paraphrases: [] }])).toMatchObject({
      status: 'not_run',
    });
  });
});
