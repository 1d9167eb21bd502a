import type { Finding, SafetyStatus } from '../core/types.js';
import { fitLogistic, type LogisticModel, predict } from './logistic.js';
import { flooredStatus, statusFor } from './verdict.js';
import { FEATURE_IDS, skillFeatures } from './verdict-features.js';

// Fitting and measuring the verdict model on labelled skills (pure: the CLI and the training script do the I/O).
// A skill is positive when it is labelled malicious or risky; the status `risky` is the positive prediction.
// Figures on the data a model was fitted on are optimistic, so every fit here can be measured
// leave-one-source-out: fit on all sources but one, score the one left out.

export type VerdictLabel = 'malicious' | 'risky' | 'benign';

export interface LabelledSkill {
  id: string;
  /** Where the skill comes from (a repository): the unit left out in cross-source evaluation. */
  source: string;
  label: VerdictLabel;
  /** in-the-wild or fixture, when the labels say. */
  kind?: string;
  findings: Finding[];
}

export interface Thresholds {
  caution: number;
  risky: number;
}

/** How thresholds are chosen on the training data. */
export interface ThresholdTargets {
  /** Highest share of benign training skills that may be called risky. */
  riskyFpr: number;
  /** Lowest share of benign training skills that must pass. */
  benignPass: number;
}

export const DEFAULT_TARGETS: ThresholdTargets = { riskyFpr: 0.035, benignPass: 0.85 };
export const DEFAULT_L2 = 0.003;

const isPositive = (s: { label: VerdictLabel }) => s.label !== 'benign';

/**
 * Sample weights: each (source, label) group weighs the square root of its size, so a generated benchmark of
 * forty templated samples counts for more than one skill but not forty; then both classes weigh the same.
 */
export function sampleWeights(samples: readonly Pick<LabelledSkill, 'source' | 'label'>[]): number[] {
  const groups = new Map<string, number>();
  for (const s of samples)
    groups.set(`${s.source}\0${s.label}`, (groups.get(`${s.source}\0${s.label}`) ?? 0) + 1);
  const raw = samples.map((s) => 1 / Math.sqrt(groups.get(`${s.source}\0${s.label}`)!));
  const total = (pos: boolean) => samples.reduce((a, s, i) => a + (isPositive(s) === pos ? raw[i]! : 0), 0);
  const [tp, tn] = [total(true), total(false)];
  const mean = (tp + tn) / 2;
  return samples.map((s, i) => raw[i]! * (isPositive(s) ? (tp ? mean / tp : 0) : tn ? mean / tn : 0));
}

/** A cut that leaves at most `allowed` of the values (sorted high to low) at or above it, rounded up to 4 decimals. */
function cutAbove(sortedDesc: readonly number[], allowed: number): number {
  const next = sortedDesc[allowed];
  return next === undefined ? 0 : Math.ceil((next + 1e-9) * 10_000) / 10_000;
}

/** Thresholds from the training probabilities of benign skills (see ThresholdTargets). */
export function chooseThresholds(
  benignProbabilities: readonly number[],
  targets: ThresholdTargets,
): Thresholds {
  const desc = [...benignProbabilities].sort((a, b) => b - a);
  const risky = Math.min(1, cutAbove(desc, Math.floor(targets.riskyFpr * desc.length)));
  const caution = Math.min(risky, cutAbove(desc, Math.floor((1 - targets.benignPass) * desc.length)));
  return { caution, risky };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

export interface FittedVerdict {
  features: string[];
  model: LogisticModel;
  thresholds: Thresholds;
}

export interface FitVerdictOptions {
  l2?: number;
  targets?: ThresholdTargets;
}

/** A labelled skill as the model sees it: its feature values in the order of FEATURE_IDS. */
export interface FeatureRow {
  id: string;
  source: string;
  label: VerdictLabel;
  values: number[];
}

export function featureRows(samples: readonly LabelledSkill[]): FeatureRow[] {
  return samples.map((s) => ({
    id: s.id,
    source: s.source,
    label: s.label,
    values: skillFeatures(s.findings, FEATURE_IDS).values,
  }));
}

/** The fit from feature rows alone (a frozen snapshot of them reproduces a model exactly). */
export function fitRows(rows: readonly FeatureRow[], options: FitVerdictOptions = {}): FittedVerdict {
  const xs = rows.map((r) => r.values);
  const ys = rows.map((r) => (isPositive(r) ? 1 : 0));
  const model = fitLogistic(xs, ys, { l2: options.l2 ?? DEFAULT_L2, sampleWeights: sampleWeights(rows) });
  const benign = rows.flatMap((r, i) => (isPositive(r) ? [] : [predict(model, xs[i]!)]));
  return {
    features: [...FEATURE_IDS],
    model,
    thresholds: chooseThresholds(benign, options.targets ?? DEFAULT_TARGETS),
  };
}

export function fitVerdict(
  samples: readonly LabelledSkill[],
  options: FitVerdictOptions = {},
): FittedVerdict {
  return fitRows(featureRows(samples), options);
}

export interface Prediction {
  id: string;
  source: string;
  label: VerdictLabel;
  kind?: string;
  probability: number;
  status: SafetyStatus;
}

/** A labelled skill's call: its probability (rounded for display) and status. */
export function prediction(s: LabelledSkill, probability: number, status: SafetyStatus): Prediction {
  return {
    id: s.id,
    source: s.source,
    label: s.label,
    ...(s.kind ? { kind: s.kind } : {}),
    probability: round4(probability),
    status,
  };
}

/** Each skill's call by a fitted model, with the decisive indicators' floors, as `decide` makes it. */
export function predictAll(fitted: FittedVerdict, samples: readonly LabelledSkill[]): Prediction[] {
  return samples.map((s) => {
    const raw = predict(fitted.model, skillFeatures(s.findings, fitted.features).values);
    return prediction(s, raw, flooredStatus(statusFor(raw, fitted.thresholds), s.findings).status);
  });
}

export interface Metrics {
  skills: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Null where undefined (no positive prediction, no positive, no negative). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
  fpr: number | null;
  /** pass / caution / risky counts per label. */
  byLabel: Record<VerdictLabel, Record<SafetyStatus, number>>;
}

const ratio = (a: number, b: number) => (b > 0 ? round4(a / b) : null);

export function metrics(predictions: readonly Pick<Prediction, 'label' | 'status'>[]): Metrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const empty = () => ({ pass: 0, caution: 0, risky: 0 });
  const byLabel = { malicious: empty(), risky: empty(), benign: empty() };
  for (const p of predictions) {
    byLabel[p.label][p.status]++;
    const pos = p.label !== 'benign';
    const flagged = p.status === 'risky';
    if (pos && flagged) tp++;
    else if (pos) fn++;
    else if (flagged) fp++;
    else tn++;
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 =
    precision !== null && recall !== null && precision + recall > 0
      ? round4((2 * precision * recall) / (precision + recall))
      : null;
  return {
    skills: predictions.length,
    tp,
    fp,
    fn,
    tn,
    precision,
    recall,
    f1,
    fpr: ratio(fp, fp + tn),
    byLabel,
  };
}

/** Share of a source's skills whose risky-or-not call is right: the figure the worst source is picked by. */
export function accuracy(m: Metrics): number {
  return m.skills ? round4((m.tp + m.tn) / m.skills) : 0;
}

export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export interface CrossSource {
  /** Every skill scored by the model fitted without its source. */
  predictions: Prediction[];
  pooled: Metrics;
  perSource: { source: string; metrics: Metrics; accuracy: number; thresholds: Thresholds }[];
  /** Mean over sources of the right-call share. */
  meanAccuracy: number;
  /** The source with the lowest right-call share among those with at least `minSkills` skills. */
  worst: { source: string; accuracy: number; skills: number } | null;
}

/** Leave-one-source-out: for each source, fit on the others and score it. */
export function crossSource(
  samples: readonly LabelledSkill[],
  options: FitVerdictOptions & { minSkills?: number } = {},
): CrossSource {
  const bySource = groupBy(samples, (s) => s.source);
  const predictions: Prediction[] = [];
  const perSource: CrossSource['perSource'] = [];
  for (const [source, held] of [...bySource].sort(([a], [b]) => a.localeCompare(b))) {
    const fitted = fitVerdict(
      samples.filter((s) => s.source !== source),
      options,
    );
    const p = predictAll(fitted, held);
    predictions.push(...p);
    const m = metrics(p);
    perSource.push({ source, metrics: m, accuracy: accuracy(m), thresholds: fitted.thresholds });
  }
  const counted = perSource.filter((s) => s.metrics.skills >= (options.minSkills ?? 5));
  const worst = counted.reduce<CrossSource['perSource'][number] | null>(
    (w, s) => (!w || s.accuracy < w.accuracy ? s : w),
    null,
  );
  return {
    predictions,
    pooled: metrics(predictions),
    perSource,
    meanAccuracy: perSource.length
      ? round4(perSource.reduce((a, s) => a + s.accuracy, 0) / perSource.length)
      : 0,
    worst: worst ? { source: worst.source, accuracy: worst.accuracy, skills: worst.metrics.skills } : null,
  };
}

/** The weights in the checked-in form (feature id → weight). */
export function namedWeights(fitted: FittedVerdict): Record<string, number> {
  return Object.fromEntries(fitted.features.map((id, j) => [id, round4(fitted.model.weights[j] ?? 0)]));
}
