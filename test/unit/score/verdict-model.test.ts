import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_FILE, scannerDigest } from '../../../scripts/verdict-provenance.js';
import { VERDICT_MODEL } from '../../../src/score/verdict.js';
import { type FeatureRow, fitRows } from '../../../src/score/verdict-eval.js';

// The checked-in verdict model is what `npm run train:verdict` wrote for the scanner in this tree: refitting
// the frozen feature rows it was trained on gives the same weights and thresholds, and the scanner's digest
// (src/scan, rules/, src/score) is the one recorded. A change to the scanner or the rules that moves findings
// must come with a refit: the weights were learned on the findings of the scanner they were fitted with.

const snapshot = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as {
  features: string[];
  rows: FeatureRow[];
};
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

describe('the checked-in verdict model', () => {
  it('was trained on the scanner in this tree (run `npm run train:verdict` after changing src/scan, rules/ or src/score)', () => {
    expect(VERDICT_MODEL.training.scannerDigest).toBe(scannerDigest());
  });

  it('is reproduced exactly by refitting its frozen feature snapshot', () => {
    expect(snapshot.features).toEqual(VERDICT_MODEL.features);
    const fitted = fitRows(snapshot.rows);
    expect(round4(fitted.model.bias)).toBe(VERDICT_MODEL.bias);
    const weights = Object.fromEntries(
      fitted.features.map((id, j) => [id, round4(fitted.model.weights[j]!)]),
    );
    expect(weights).toEqual(VERDICT_MODEL.weights);
    expect(fitted.thresholds).toEqual(VERDICT_MODEL.thresholds);
  });

  it('was fitted on the development corpus only, not on the team-written set it is measured against', () => {
    const data = VERDICT_MODEL.training.data as { corpus: string }[];
    expect(data.map((d) => d.corpus)).toEqual(['../shared/corpus']);
    expect(new Set(snapshot.rows.map((r) => r.source)).size).toBeGreaterThan(20);
  });
});
