import { describe, expect, it } from 'vitest';
import { CategoryMeans, Estimator, type ReferenceSkill } from '../../../../src/quality/estimate/estimator.js';
import { RETRIEVAL_METHODS } from '../../../../src/quality/estimate/features.js';
import {
  KNOWN_TOPICS,
  seeded,
  syntheticReference,
  syntheticText,
} from '../../../support/synthetic-reference.js';

const tfidf = RETRIEVAL_METHODS['tfidf-knn'];
const reference = syntheticReference(KNOWN_TOPICS, 8);

function skill(
  path: string,
  category: string,
  text: string,
  scores: ReferenceSkill['scores'],
): ReferenceSkill {
  return { skillId: path, path, name: path, description: text, body: '', category, scores };
}

describe('Estimator on a synthetic reference set with a known answer', () => {
  it('estimates a new skill of topic T with T’s scores, from neighbours of T only', () => {
    const estimator = new Estimator(reference, tfidf);
    const rand = seeded(99);
    for (const topic of KNOWN_TOPICS) {
      const est = estimator.estimate(syntheticText(topic, 1000, rand), topic.category);
      expect(est.neighbours).toHaveLength(5);
      expect(est.neighbours.every((n) => n.skill.path.startsWith(`${topic.name}/`))).toBe(true);
      for (const [id, score] of Object.entries(topic.scores)) {
        const d = est.dimensions.find((x) => x.id === id)!;
        expect(d.source).toBe('neighbours');
        expect(d.score).toBeCloseTo(score, 12);
      }
    }
  });

  it('also estimates T’s scores when the new skill’s category is unknown to the reference set', () => {
    const estimator = new Estimator(reference, tfidf, { k: 3 });
    const topic = KNOWN_TOPICS[1]!;
    const est = estimator.estimate(syntheticText(topic, 2000, seeded(3)), 'general');
    expect(est.neighbours).toHaveLength(3);
    expect(est.dimensions.find((d) => d.id === 'efficiency')?.score).toBeCloseTo(
      topic.scores.efficiency!,
      12,
    );
  });

  it('does not estimate a dimension no reference skill has, and says why', () => {
    const est = new Estimator(reference, tfidf).estimate(
      syntheticText(KNOWN_TOPICS[0]!, 1, seeded(1)),
      'documents',
    );
    const d = est.dimensions.find((x) => x.id === 'cross-model-robustness')!;
    expect(d).toMatchObject({ status: 'not_estimated', score: null, source: null });
    expect(d.reason).toMatch(/no reference skill/);
  });

  it('falls back to the category mean, then the global mean, when no reference skill shares a term', () => {
    const estimator = new Estimator(reference, tfidf);
    const unrelated = { name: 'zebra-giraffe', description: 'savanna safari', body: '' };
    const inCategory = estimator.estimate(unrelated, 'devops');
    expect(inCategory.neighbours).toEqual([]);
    expect(inCategory.confidence).toBe(0);
    expect(inCategory.confidenceLabel).toBe('low');
    const sc = inCategory.dimensions.find((d) => d.id === 'structural-completeness')!;
    expect(sc).toMatchObject({ status: 'estimated', source: 'category-mean' });
    expect(sc.score).toBeCloseTo(0.5, 12);
    const global = estimator
      .estimate(unrelated, 'unknown-category')
      .dimensions.find((d) => d.id === 'structural-completeness')!;
    expect(global.source).toBe('global-mean');
    expect(global.score).toBeCloseTo((0.9 + 0.5 + 0.2) / 3, 12);
  });

  it('takes the similarity-weighted mean, a same-category neighbour weighted by the category boost', () => {
    // Two references equally similar to the query (each shares one of its two terms), of different categories.
    const refs = [
      skill('a', 'data', 'alpha', { efficiency: 1 }),
      skill('b', 'devops', 'beta', { efficiency: 0 }),
    ];
    const estimator = new Estimator(refs, tfidf, { categoryBoost: 1.5 });
    const est = estimator.estimate({ name: '', description: 'alpha beta', body: '' }, 'data');
    expect(est.neighbours.map((n) => n.skill.path)).toEqual(['a', 'b']);
    const [a, b] = est.neighbours;
    expect(a!.similarity).toBeCloseTo(b!.similarity, 12);
    expect(a!.weight).toBeCloseTo(1.5 * a!.similarity, 12);
    // (1.5 · 1 + 1 · 0) / (1.5 + 1) = 0.6
    expect(est.dimensions.find((d) => d.id === 'efficiency')?.score).toBeCloseTo(0.6, 12);
    const noBoost = new Estimator(refs, tfidf, { categoryBoost: 1 });
    expect(
      noBoost
        .estimate({ name: '', description: 'alpha beta', body: '' }, 'data')
        .dimensions.find((d) => d.id === 'efficiency')?.score,
    ).toBeCloseTo(0.5, 12);
  });

  it('gives no boost to two skills that merely share the default category', () => {
    const refs = [
      skill('a', 'general', 'alpha', { efficiency: 1 }),
      skill('b', 'data', 'beta', { efficiency: 0 }),
    ];
    const est = new Estimator(refs, tfidf).estimate(
      { name: '', description: 'alpha beta', body: '' },
      'general',
    );
    expect(est.neighbours[0]!.weight).toBeCloseTo(est.neighbours[0]!.similarity, 12);
    expect(est.dimensions.find((d) => d.id === 'efficiency')?.score).toBeCloseTo(0.5, 12);
  });

  it('uses, per dimension, the k nearest neighbours that have a score for it', () => {
    const refs = [
      skill('near', 'x', 'alpha beta gamma', {}),
      skill('far', 'x', 'alpha', { efficiency: 0.3 }),
    ];
    const est = new Estimator(refs, tfidf, { k: 1 }).estimate(
      { name: '', description: 'alpha beta gamma', body: '' },
      'x',
    );
    expect(est.neighbours.map((n) => n.skill.path)).toEqual(['near']);
    const eff = est.dimensions.find((d) => d.id === 'efficiency')!;
    expect(eff).toMatchObject({ source: 'neighbours', neighbours: ['far'] });
    expect(eff.score).toBeCloseTo(0.3, 12);
  });

  it('leaves the skill itself out of its neighbours when it is in the reference set', () => {
    const target = reference[0]!;
    const est = new Estimator(reference, tfidf).estimate(target, target.category, target.skillId);
    expect(est.neighbours.some((n) => n.skill.skillId === target.skillId)).toBe(false);
    expect(est.neighbours).toHaveLength(5);
  });
});

describe('CategoryMeans', () => {
  it('averages each dimension per category and overall', () => {
    const means = new CategoryMeans([
      skill('1', 'a', '', { efficiency: 0.2 }),
      skill('2', 'a', '', { efficiency: 0.4 }),
      skill('3', 'b', '', { efficiency: 0.9 }),
    ]);
    expect(means.predict('efficiency', 'a')?.score).toBeCloseTo(0.3, 12);
    expect(means.predict('efficiency', 'a')?.source).toBe('category-mean');
    expect(means.predict('efficiency', 'c')).toEqual({ score: 0.5, source: 'global-mean' });
    expect(means.predict('conciseness', 'a')).toBeNull();
  });
});
