import { describe, expect, it } from 'vitest';
import { evaluateHoldout, splitHoldout } from '../../../../src/quality/estimate/evaluate.js';
import { renderEvaluationText } from '../../../../src/quality/estimate/render-text.js';
import { KNOWN_TOPICS, syntheticReference } from '../../../support/synthetic-reference.js';

const reference = syntheticReference(KNOWN_TOPICS, 10);

describe('splitHoldout', () => {
  it('is deterministic for a seed, independent of input order, and keeps both sides non-empty', () => {
    const a = splitHoldout(reference, 0.2, 3);
    const b = splitHoldout([...reference].reverse(), 0.2, 3);
    expect(a.test.map((s) => s.skillId)).toEqual(b.test.map((s) => s.skillId));
    expect(a.test).toHaveLength(6);
    expect(a.train).toHaveLength(24);
    expect(new Set([...a.test, ...a.train].map((s) => s.skillId)).size).toBe(30);
    expect(splitHoldout(reference, 0.2, 4).test.map((s) => s.skillId)).not.toEqual(
      a.test.map((s) => s.skillId),
    );
    expect(splitHoldout(reference.slice(0, 2), 0.01, 1).test).toHaveLength(1);
    expect(splitHoldout(reference.slice(0, 2), 0.99, 1).train).toHaveLength(1);
  });
});

describe('evaluateHoldout', () => {
  it('reproduces topic scores exactly with TF-IDF kNN, where the category mean cannot', () => {
    // Every skill in one category: the category mean is the global mean, blind to topic.
    const oneCategory = reference.map((s) => ({ ...s, category: 'general' }));
    const e = evaluateHoldout(oneCategory, { holdout: 0.3, seed: 1, k: 5 });
    expect(e.test).toBe(9);
    expect(e.perDimension.map((d) => d.id)).toEqual([
      'structural-completeness',
      'efficiency',
      'task-abstraction-granularity',
    ]);
    for (const d of e.perDimension) {
      expect(d.n).toBe(9);
      expect(d.mae).toBe(0);
      expect(d.rmse).toBe(0);
      expect(d.fallbacks).toBe(0);
      expect(d.pearson).toBe(1);
    }
    const byMethod = new Map(e.methods.map((m) => [m.id, m]));
    expect(byMethod.get('tfidf-knn')?.mae).toBe(0);
    expect(byMethod.get('category-mean')?.mae).toBeGreaterThan(0.1);
    // A constant prediction has no correlation: null, never NaN.
    expect(byMethod.get('category-mean')?.pearson).toBeNull();
    expect(JSON.stringify(e)).not.toContain('NaN');
    expect(e.notes.join(' ')).toMatch(/Semantic retrieval .* not run/);
    expect(e.notes.join(' ')).toMatch(/Not evaluated .*Cross-model robustness/);
  });

  it('prints the per-dimension and per-method tables in plain words', () => {
    const text = renderEvaluationText(evaluateHoldout(reference, { holdout: 0.2, seed: 2, k: 5 }));
    expect(text).toMatch(
      /held-out skills, per dimension.*\nDimension +n +MAE +RMSE +Bias +Pearson r +Spearman ρ +fallbacks\n/,
    );
    expect(text).toMatch(/\nEfficiency +6 +0\.000 +0\.000 +0\.000 +1\.000 +1\.000 +0\n/);
    expect(text).toMatch(/Estimation methods compared.*\nMethod +dims +MAE/);
    for (const method of [
      'Category mean',
      'Character n-gram retrieval',
      'word-overlap retrieval \\(default\\)',
    ]) {
      expect(text).toMatch(new RegExp(`\\n${method} +3 `));
    }
  });
});
