import { printable } from '../../core/format.js';
import type { Colors } from '../../report/index.js';
import type { CandidateRecord, OptimizeResult } from './optimize.js';

// The before/after table printed by `skillaudit optimize`: one row per dimension used, the overall, the two
// sections the static profile does not score, the safety status, then one line per round.

const NAME_WIDTH = 34;

const fixed = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(2));

function delta(before: number | null, after: number | null, c: Colors): string {
  if (before === null || after === null) return '';
  const d = after - before;
  if (Math.abs(d) < 0.005) return c.dim('  =');
  return d > 0 ? c.green(` +${d.toFixed(2)}`) : c.red(` ${d.toFixed(2)}`);
}

function roundLine(r: CandidateRecord): string {
  const what =
    r.outcome === 'rejected'
      ? `rejected: ${printable(r.reasons.join('; '))}`
      : `${r.outcome === 'improved' ? 'improved' : 'not better'}: overall ${fixed(r.scores?.overall)}`;
  return `  round ${r.round}: ${what}`;
}

export function renderOptimizeTable(result: OptimizeResult, c: Colors): string {
  const { original, best } = result;
  const row = (name: string, before: string, after: string, change = '') =>
    `  ${name.padEnd(NAME_WIDTH)} ${before.padStart(7)} ${after.padStart(7)}${change}`;
  const out = [
    c.bold(`${printable(original.skill.name)}: before → after`),
    row('dimension', 'before', 'after'),
  ];
  for (const d of original.scores.dimensions) {
    const after = best.scores.dimensions.find((x) => x.id === d.id)?.score ?? null;
    out.push(row(d.name, fixed(d.score), fixed(after), delta(d.score, after, c)));
  }
  out.push(
    row(
      'Overall (dimensions used)',
      fixed(original.scores.overall),
      fixed(best.scores.overall),
      delta(original.scores.overall, best.scores.overall, c),
    ),
  );
  out.push(
    row('Limits + examples sections (of 2)', String(original.scores.sections), String(best.scores.sections)),
  );
  out.push(row('Safety status', original.scan.status, best.scan.status));
  out.push(c.dim(`  not run (need agent runs or a judge): ${result.dimensionsNotRun.join(', ') || 'none'}`));
  for (const r of result.candidates) out.push(roundLine(r));
  const kept = result.bestRound > 0 ? `round ${result.bestRound}'s rewrite` : 'the original (no improvement)';
  out.push(`  kept: ${kept}; stopped: ${result.stopped.message}`);
  return `${out.join('\n')}\n`;
}
