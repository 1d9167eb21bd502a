import { notRunDimension, scoredDimension } from './dimensions.js';
import type { DimensionResult } from './types.js';

// Efficiency, seed 001 Table 12: each run quantity is normalised against its operating interval (1.0 inside it,
// linear decay to 0 at the upper threshold) and the normalised values are combined with the table's weights.

export interface OperatingInterval {
  low: number;
  high: number;
}

export type EfficiencyQuantity = 'promptTokens' | 'planSteps' | 'latencyMs' | 'toolCalls';

export interface EfficiencySetting {
  quantity: EfficiencyQuantity;
  label: string;
  interval: OperatingInterval;
  upperThreshold: number;
  weight: number;
}

export const EFFICIENCY_SETTINGS: readonly EfficiencySetting[] = [
  {
    quantity: 'promptTokens',
    label: 'Prompt tokens',
    interval: { low: 500, high: 2000 },
    upperThreshold: 8000,
    weight: 0.3,
  },
  {
    quantity: 'planSteps',
    label: 'Plan steps',
    interval: { low: 3, high: 7 },
    upperThreshold: 20,
    weight: 0.25,
  },
  {
    quantity: 'latencyMs',
    label: 'Response latency (ms)',
    interval: { low: 500, high: 3000 },
    upperThreshold: 15000,
    weight: 0.2,
  },
  {
    quantity: 'toolCalls',
    label: 'Tools or commands',
    interval: { low: 1, high: 5 },
    upperThreshold: 15,
    weight: 0.25,
  },
];

/**
 * 1.0 inside the operating interval, linear decay to 0 at the upper threshold, 0 beyond it. Values below the
 * interval also score 1.0: Table 12 sets no lower threshold, and penalising a frugal run would reward padding.
 */
export function normaliseToInterval(
  value: number,
  interval: OperatingInterval,
  upperThreshold: number,
): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`efficiency quantity must be a finite number ≥ 0, got ${value}`);
  if (!(upperThreshold > interval.high)) throw new RangeError('upper threshold must exceed the interval');
  if (value <= interval.high) return 1;
  if (value >= upperThreshold) return 0;
  return (upperThreshold - value) / (upperThreshold - interval.high);
}

/** What one agent run measured; a quantity the harness did not report is left out. */
export type EfficiencyObservation = Partial<Record<EfficiencyQuantity, number>>;

export interface RunEfficiency {
  /** Null when the run reported none of the quantities. */
  score: number | null;
  parts: { quantity: EfficiencyQuantity; value: number; normalised: number; weight: number }[];
  /** Quantities not reported; their weight is shared out over the others in proportion. */
  missing: EfficiencyQuantity[];
}

export function runEfficiency(observation: EfficiencyObservation): RunEfficiency {
  const parts: RunEfficiency['parts'] = [];
  const missing: EfficiencyQuantity[] = [];
  for (const s of EFFICIENCY_SETTINGS) {
    const value = observation[s.quantity];
    if (value === undefined) missing.push(s.quantity);
    else
      parts.push({
        quantity: s.quantity,
        value,
        normalised: normaliseToInterval(value, s.interval, s.upperThreshold),
        weight: s.weight,
      });
  }
  const weight = parts.reduce((sum, p) => sum + p.weight, 0);
  const score = weight === 0 ? null : parts.reduce((sum, p) => sum + p.weight * p.normalised, 0) / weight;
  return { score, parts, missing };
}

/** The dimension over a skill's runs: the mean of the runs' efficiency scores. */
export function efficiency(observations: readonly EfficiencyObservation[]): DimensionResult {
  const runs = observations.map(runEfficiency);
  const scored = runs.filter((r): r is RunEfficiency & { score: number } => r.score !== null);
  if (scored.length === 0)
    return notRunDimension('efficiency', 'no run reported tokens, steps, latency or tool calls');
  const mean = scored.reduce((sum, r) => sum + r.score, 0) / scored.length;
  return scoredDimension('efficiency', mean, {
    formula: 'mean over runs of Σ weight·normalised / Σ weight (seed 001 Table 12)',
    settings: EFFICIENCY_SETTINGS,
    runs,
  });
}
