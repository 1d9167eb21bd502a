import { percent, printable } from '../../core/format.js';
import { DIMENSIONS } from '../dimensions.js';
import type { DimensionId } from '../types.js';
import type { EstimatedDimension, EstimatedSkill, EstimateResult } from './estimate-json.js';
import type { HoldoutEvaluation, MethodSummary } from './evaluate.js';
import type { AgreementMetrics } from './metrics.js';

// Plain aligned tables for `estimate` and `reference eval`. Skill names and paths are the skills' own text:
// escaped so that nothing in them can move the cursor or recolour the terminal. Scores print as percentages,
// as in every report; similarities and agreement statistics stay fractions (they are not scores).

/** Seed 001's abbreviations, used where a row lists several scores. */
export const DIMENSION_ABBREVIATIONS: Readonly<Record<DimensionId, string>> = {
  'structural-completeness': 'SC',
  conciseness: 'CO',
  'description-content-consistency': 'DCC',
  'cross-model-robustness': 'CMR',
  'intent-perturbation-stability': 'IPS',
  'capability-boundary-handling': 'CBH',
  efficiency: 'EFF',
  'behavior-chain-semantic-consistency': 'BCSC',
  'task-abstraction-granularity': 'TAG',
};

function num(x: number | null, digits = 3): string {
  return x === null ? 'n/a' : x.toFixed(digits);
}

/** Columns aligned right (numbers) except those listed in `left` (text). */
function table(header: string[], rows: string[][], left: readonly number[] = [0]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function sourceText(d: EstimatedDimension): string {
  const e = d.estimate;
  // The only reason is "no reference skill has a score": the notes below the skills say it once.
  if (e.status === 'not_estimated') return 'not estimated (no reference scores)';
  if (e.source === 'neighbours')
    return `${e.neighbours.length} neighbour${e.neighbours.length === 1 ? '' : 's'}`;
  return `${e.source} (${e.reason ?? ''})`;
}

function renderSkill(r: EstimateResult): string[] {
  if ('error' in r) return [`${printable(r.path)}: ${printable(r.error.message)}`, ''];
  const s: EstimatedSkill = r;
  const out = [
    `${printable(s.name)}  (${printable(s.path)}; category ${printable(s.category.name)}, from ${s.category.source})`,
    `  confidence ${num(s.confidence, 2)} (${s.confidenceLabel}): mean similarity of ${s.neighbours.length} neighbour${s.neighbours.length === 1 ? '' : 's'}`,
  ];
  const rows = s.dimensions.map((d) => [
    `  ${d.name}`,
    percent(d.measured),
    percent(d.estimate.score),
    sourceText(d),
  ]);
  out.push(...table(['  dimension', 'measured', 'estimate', 'from'], rows, [0, 3]));
  if (s.neighbours.length > 0) {
    out.push('  neighbours (evidence):');
    for (const n of s.neighbours) {
      const scores = DIMENSIONS.filter((d) => n.scores[d.id] !== undefined)
        .map((d) => `${DIMENSION_ABBREVIATIONS[d.id]} ${percent(n.scores[d.id]!)}`)
        .join(' ');
      const same = n.sameCategory ? ', same category' : '';
      out.push(
        `    ${n.similarity.toFixed(3)}  ${printable(n.name)} (${printable(n.path)}; ${printable(n.category)}${same})  ${scores}`,
      );
    }
  }
  out.push(...s.notes.map((n) => `  note: ${n}`), '');
  return out;
}

export function renderEstimateText(skills: readonly EstimateResult[], notes: readonly string[]): string {
  const used = DIMENSIONS.filter((d) =>
    skills.some((r) => 'neighbours' in r && r.neighbours.some((n) => n.scores[d.id] !== undefined)),
  );
  const key = used.map((d) => `${DIMENSION_ABBREVIATIONS[d.id]} ${d.name.toLowerCase()}`).join(', ');
  const lines = [
    ...skills.flatMap(renderSkill),
    ...(key ? [`key: ${key}`] : []),
    ...notes.map((n) => `note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

const METRIC_HEADER = ['MAE', 'RMSE', 'Bias', 'Pearson r', 'Spearman ρ'];

function metricCells(m: Omit<AgreementMetrics, 'n'>): string[] {
  return [num(m.mae), num(m.rmse), num(m.bias), num(m.pearson), num(m.spearman)];
}

export function renderEvaluationText(e: HoldoutEvaluation): string {
  const out = [
    `Held out ${e.test} of ${e.train + e.test} skills (${Math.round(e.holdout * 100)} %, shuffle seed ${e.seed}); each estimate from the ${e.k} most similar skills`,
    '',
    'How close the estimate comes to the measured scores of held-out skills, per dimension (word-overlap retrieval)',
    ...table(
      ['Dimension', 'n', ...METRIC_HEADER, 'fallbacks'],
      e.perDimension.map((d) => [d.name, String(d.n), ...metricCells(d), String(d.fallbacks)]),
    ),
    '',
    'Estimation methods compared on the held-out skills, averaged over dimensions',
    ...table(
      ['Method', 'dims', ...METRIC_HEADER],
      e.methods.map((m: MethodSummary) => [m.name, String(m.dimensions), ...metricCells(m)]),
    ),
    '',
    ...e.notes.map((n) => `note: ${n}`),
  ];
  return `${out.join('\n')}\n`;
}
