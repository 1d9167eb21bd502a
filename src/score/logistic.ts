// A small logistic regression for the verdict model: fitted by projected gradient descent with an L2 penalty
// and per-sample weights. Weights are kept non-negative (the bias is free): every feature is evidence of risk,
// so more of it must never make a skill look safer, and a model with that shape is easy to explain.

export interface LogisticModel {
  bias: number;
  weights: number[];
}

export interface FitOptions {
  /** L2 penalty on the weights (not the bias), per unit of total sample weight. */
  l2?: number;
  iterations?: number;
  /** Per-sample weights; 1 each by default. */
  sampleWeights?: readonly number[];
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

export function predict(model: LogisticModel, x: readonly number[]): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++) z += model.weights[j]! * (x[j] ?? 0);
  return sigmoid(z);
}

/** Weighted log-loss plus the L2 penalty, per unit of sample weight. */
function objective(
  model: LogisticModel,
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  ws: readonly number[],
  total: number,
  l2: number,
): number {
  let loss = 0;
  for (let i = 0; i < xs.length; i++) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, predict(model, xs[i]!)));
    loss -= ws[i]! * (ys[i]! ? Math.log(p) : Math.log(1 - p));
  }
  let penalty = 0;
  for (const w of model.weights) penalty += w * w;
  return loss / total + (l2 / 2) * penalty;
}

/**
 * Fits y ∈ {0, 1} from x (features in [0, 1]). Deterministic: same data, same model. Gradient steps with a
 * backtracking line search, each followed by clipping the weights at zero.
 */
export function fitLogistic(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  options: FitOptions = {},
): LogisticModel {
  const n = xs.length;
  const d = xs[0]?.length ?? 0;
  const ws = options.sampleWeights ?? xs.map(() => 1);
  const total = ws.reduce((a, b) => a + b, 0) || 1;
  const l2 = options.l2 ?? 0.01;
  let model: LogisticModel = { bias: 0, weights: new Array<number>(d).fill(0) };
  let current = objective(model, xs, ys, ws, total, l2);
  let step = 1;
  for (let it = 0; it < (options.iterations ?? 3000); it++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const r = (ws[i]! * (predict(model, xs[i]!) - ys[i]!)) / total;
      gb += r;
      const x = xs[i]!;
      for (let j = 0; j < d; j++) gw[j]! += r * (x[j] ?? 0);
    }
    for (let j = 0; j < d; j++) gw[j]! += l2 * model.weights[j]!;
    // Backtracking: halve the step until the projected step lowers the objective.
    let improved = false;
    for (let tries = 0; tries < 30; tries++) {
      const next: LogisticModel = {
        bias: model.bias - step * gb,
        weights: model.weights.map((w, j) => Math.max(0, w - step * gw[j]!)),
      };
      const value = objective(next, xs, ys, ws, total, l2);
      if (value <= current) {
        const gain = current - value;
        model = next;
        current = value;
        improved = true;
        step *= 1.5;
        if (gain < 1e-10) return model;
        break;
      }
      step /= 2;
    }
    if (!improved) return model;
  }
  return model;
}
