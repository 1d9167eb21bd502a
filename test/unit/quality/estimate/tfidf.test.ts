import { describe, expect, it } from 'vitest';
import { RETRIEVAL_METHODS } from '../../../../src/quality/estimate/features.js';
import { countTerms, TfIdfIndex } from '../../../../src/quality/estimate/tfidf.js';

const doc = (...terms: string[]) => countTerms(terms);

describe('TfIdfIndex', () => {
  it('scores an identical document 1, a disjoint one 0, and a partial overlap in between', () => {
    const index = new TfIdfIndex([doc('pdf', 'merge'), doc('docker', 'prune'), doc('pdf', 'split')]);
    const sims = index.similarities(doc('pdf', 'merge'));
    expect(sims[0]).toBeCloseTo(1, 12);
    expect(sims[1]).toBe(0);
    expect(sims[2]).toBeGreaterThan(0);
    expect(sims[2]).toBeLessThan(1);
  });

  it('uses smoothed idf ln((1 + N) / (1 + df)) + 1 and sublinear tf 1 + ln tf', () => {
    const index = new TfIdfIndex([doc('a', 'b'), doc('a')]);
    expect(index.idf('a')).toBeCloseTo(Math.log(3 / 3) + 1, 12);
    expect(index.idf('b')).toBeCloseTo(Math.log(3 / 2) + 1, 12);
    expect(index.idf('never-seen')).toBeCloseTo(Math.log(3) + 1, 12);
    // Query {a: e} has weight (1 + ln e)·idf(a) = 2 on the single term a: unit vector (1). Doc 0: a weight 1,
    // b weight idf(b) → cosine 1 / √(1 + idf(b)²).
    const q = new Map([['a', Math.E]]);
    expect(index.similarities(q)[0]).toBeCloseTo(1 / Math.sqrt(1 + index.idf('b') ** 2), 12);
  });

  it('counts unseen query terms in the query norm, so a mostly unrelated query is not a close match', () => {
    const index = new TfIdfIndex([doc('pdf'), doc('docker')]);
    expect(index.similarities(doc('pdf', 'zebra', 'giraffe'))[0]).toBeLessThan(0.6);
    expect(index.similarities(doc())[0]).toBe(0);
  });
});

describe('retrieval features', () => {
  it('weights name terms over description terms over body terms', () => {
    const f = RETRIEVAL_METHODS['tfidf-knn'].features({
      name: 'invoice-parser',
      description: 'Parse invoices from PDF files',
      body: 'Read the invoice table.',
    });
    // "invoice": 3 (name) + 2 (description "invoices") + 1 (body) = 6.
    expect(f.get('invoic')).toBe(6);
    expect(f.get('pdf')).toBe(2);
    expect(f.get('tabl')).toBe(1);
  });

  it('counts character 3-5-grams of the name and description only, word boundaries marked', () => {
    const f = RETRIEVAL_METHODS['char-ngram-knn'].features({
      name: 'pdf',
      description: '',
      body: 'ignored words',
    });
    expect([...f.keys()].sort()).toEqual([' pd', ' pdf', ' pdf ', 'df ', 'pdf', 'pdf '].sort());
  });
});
