import type { Decision, Reason } from '../core/decision.js';
import type { SafetyStatus } from '../core/types.js';
import { type LogisticModel, predict } from './logistic.js';
import { safetyRating } from './rating.js';
import {
  type DecisionFinding,
  decisiveIndicator,
  featureLabel,
  isSafetyFinding,
  STATUS_RANK,
  skillFeatures,
} from './verdict-features.js';
import trained from './verdict-model.json' with { type: 'json' };

// The status (pass / caution / risky) is a decision learned from labelled real skills (docs/verdicts.md):
// a logistic model over the skill's findings (verdict-features.ts) gives the probability that the skill is
// malicious or risky to install, and two thresholds cut it into the three statuses. The weights and
// thresholds are data (verdict-model.json), written by `npm run train:verdict` with the training data's
// provenance. A safety finding confirmed at runtime makes the skill risky whatever the model says.

export interface VerdictModel {
  version: 1;
  features: string[];
  bias: number;
  weights: Record<string, number>;
  thresholds: { caution: number; risky: number };
  training: Record<string, unknown>;
}

export const VERDICT_MODEL: VerdictModel = trained as VerdictModel;

/** The model in the weight-vector form `predict` takes, in the order of its feature list. */
export function logisticOf(model: VerdictModel): LogisticModel {
  return { bias: model.bias, weights: model.features.map((id) => model.weights[id] ?? 0) };
}

export function statusFor(probability: number, thresholds: { caution: number; risky: number }): SafetyStatus {
  if (probability >= thresholds.risky) return 'risky';
  if (probability >= thresholds.caution) return 'caution';
  return 'pass';
}

/** The finding behind a reason, as the decision names it. */
function findingRef(f: DecisionFinding): NonNullable<Reason['finding']> {
  return {
    pattern: f.pattern,
    confidence: f.confidence,
    ...(f.rule ? { rule: f.rule } : {}),
    ...(f.file ? { file: f.file } : {}),
    ...(f.line ? { line: f.line } : {}),
  };
}

/** The model's probability for a skill with no finding at all: where the rating's pass band starts (100). */
function noFindingProbability(model: VerdictModel): number {
  return predict(
    logisticOf(model),
    model.features.map(() => 0),
  );
}

/**
 * A report's rating: its decision's, or for a report written before the rating existed, computed as `decide`
 * computes it.
 */
export function ratingOf(
  safety: {
    status: SafetyStatus;
    decision: Pick<Decision, 'probability' | 'thresholds' | 'confirmed'> & { rating?: number };
  },
  model: VerdictModel = VERDICT_MODEL,
): number {
  const { decision } = safety;
  return (
    decision.rating ??
    safetyRating(
      safety.status,
      decision.probability,
      decision.thresholds,
      decision.confirmed > 0,
      noFindingProbability(model),
    )
  );
}

/** Pass, caution or risky for a skill's active findings (suppressed ones already left out), with its reasons. */
export function decide(active: readonly DecisionFinding[], model: VerdictModel = VERDICT_MODEL): Decision {
  const logistic = logisticOf(model);
  const { values, strongest } = skillFeatures(active, model.features);
  const raw = predict(logistic, values);
  const probability = Math.round(raw * 10_000) / 10_000;
  const because: Reason[] = [];
  values.forEach((value, j) => {
    const contribution = value * logistic.weights[j]!;
    if (contribution <= 0) return;
    const id = model.features[j]!;
    const f = strongest[j];
    because.push({
      feature: id,
      label: featureLabel(id),
      contribution: Math.round(contribution * 100) / 100,
      ...(f ? { finding: findingRef(f) } : {}),
    });
  });
  because.sort((a, b) => b.contribution - a.contribution);
  const confirmed = active.filter((f) => isSafetyFinding(f) && f.verdict === 'confirmed').length;
  const { status, decisive } = flooredStatus(
    confirmed > 0 ? 'risky' : statusFor(raw, model.thresholds),
    active,
  );
  if (decisive) {
    const { def, finding } = decisive;
    because.unshift({ feature: def.id, label: def.label, contribution: 0, finding: findingRef(finding) });
  }
  return {
    status,
    probability,
    thresholds: model.thresholds,
    rating: safetyRating(status, raw, model.thresholds, confirmed > 0, noFindingProbability(model)),
    because,
    confirmed,
    ...(decisive ? { decisive: decisive.def.id } : {}),
  };
}

/**
 * The status raised to the floor of the strongest decisive indicator among the findings, with that indicator
 * when it raised it (null when the status already stood at or above its floor).
 */
export function flooredStatus(
  status: SafetyStatus,
  findings: readonly DecisionFinding[],
): { status: SafetyStatus; decisive: ReturnType<typeof decisiveIndicator> } {
  const decisive = decisiveIndicator(findings);
  if (!decisive || STATUS_RANK[decisive.def.floor] <= STATUS_RANK[status]) return { status, decisive: null };
  return { status: decisive.def.floor, decisive };
}

/** One line a person reads: why the skill got its status. */
export function explain(decision: Decision, top = 3): string {
  const parts: string[] = [];
  if (decision.confirmed > 0) parts.push(`${decision.confirmed} safety finding(s) confirmed at runtime`);
  for (const r of decision.because.slice(0, top)) {
    const where = r.finding?.file ? ` (${r.finding.file}${r.finding.line ? `:${r.finding.line}` : ''})` : '';
    parts.push(`${r.label}${where}`);
  }
  if (!parts.length) return 'no finding that weighs towards risk';
  return parts.join('; ');
}

/**
 * The status with its reasons, as the text reports and the verdict's first reason say it. No number: the rating
 * beside the status is the one headline figure, and a probability here would read as a second one.
 */
export function statusReason(decision: Decision): string {
  return `${decision.status} because: ${explain(decision)}`;
}
