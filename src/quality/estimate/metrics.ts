// Agreement between predicted and true scores, as seed 001 reports it (Tables 5 and 6): MAE, RMSE, bias (mean
// of prediction − truth, so a positive bias means the estimate is too generous), Pearson's r and Spearman's ρ.
// A correlation is undefined when either side is constant or has fewer than two values: it is null, never NaN.

export interface AgreementMetrics {
  n: number;
  mae: number | null;
  rmse: number | null;
  bias: number | null;
  pearson: number | null;
  spearman: number | null;
}

/** Four decimals, as every score in a report. */
export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 2) return null;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    const dx = x - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  });
  // The mean of equal floats can leave a residue of 1e-17 that is not real variation; scores live in [0, 1].
  const tiny = 1e-12 * xs.length;
  if (sxx <= tiny || syy <= tiny) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** 1-based ranks, ties given the mean of the ranks they span (the usual Spearman convention). */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const ranks = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.x === order[start]!.x) end++;
    const rank = (start + end) / 2 + 1;
    for (let j = start; j <= end; j++) ranks[order[j]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}

export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  return pearson(averageRanks(xs), averageRanks(ys));
}

export interface ScorePair {
  predicted: number;
  truth: number;
}

export function agreement(pairs: readonly ScorePair[]): AgreementMetrics {
  const n = pairs.length;
  if (n === 0) return { n, mae: null, rmse: null, bias: null, pearson: null, spearman: null };
  const predicted = pairs.map((p) => p.predicted);
  const truth = pairs.map((p) => p.truth);
  const errors = pairs.map((p) => p.predicted - p.truth);
  return {
    n,
    mae: mean(errors.map(Math.abs)),
    rmse: Math.sqrt(mean(errors.map((e) => e * e))),
    bias: mean(errors),
    pearson: pearson(predicted, truth),
    spearman: spearman(predicted, truth),
  };
}
