import { percent } from '../core/format.js';
import type { Colors } from '../report/index.js';
import type { DimensionResult, QualityProfile } from './types.js';

// Human-readable quality profile: one aligned row per dimension with a bar, the score, and a short "why" drawn
// from the evidence; dimensions not run show their reason instead of a number.

export type QualitySkillResult =
  | { path: string; name: string; quality: QualityProfile }
  | { path: string; error: { code: string; message: string } };

const BAR_CELLS = 20;
const NAME_WIDTH = 36;

export function bar(score: number): string {
  const filled = Math.round(score * BAR_CELLS);
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_CELLS - filled)}`;
}

function list(items: unknown, max = 5): string {
  if (!Array.isArray(items) || items.length === 0) return 'none';
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown}, …` : shown;
}

/** One line of the evidence a user acts on, per static dimension. */
export function explain(d: DimensionResult): string {
  const e = d.evidence;
  switch (d.id) {
    case 'structural-completeness': {
      const criteria = (e.criteria ?? []) as { id: string; met: boolean }[];
      const unmet = criteria.filter((c) => !c.met).map((c) => c.id);
      return unmet.length === 0 ? 'every structure criterion met' : `missing: ${unmet.join(', ')}`;
    }
    case 'conciseness': {
      const rep = e.repetition as { share: number } | undefined;
      const linked = Array.isArray(e.linkedFiles) ? e.linkedFiles.length : 0;
      return `~${Number(e.tokens).toLocaleString('en-US')} tokens, ${Math.round((rep?.share ?? 0) * 100)}% repeated, links ${linked} bundled file${linked === 1 ? '' : 's'}`;
    }
    case 'description-content-consistency':
      if (typeof e.reason === 'string') return e.reason;
      return `coverage ${percent(e.coverage as number)}, focus ${percent(e.focus as number)}; description terms not in body: ${list(e.notInBody)}`;
    default:
      return '';
  }
}

/** "needs --model (agent runs on …)" → "needs --model": the full reason is printed once below the skills. */
function shortReason(reason: string): string {
  const cut = reason.indexOf(' (');
  return cut > 0 ? reason.slice(0, cut) : reason;
}

function renderDimension(d: DimensionResult, c: Colors, shared: boolean): string {
  const name = d.name.padEnd(NAME_WIDTH);
  if (d.status !== 'scored' || d.score === null) {
    const reason = shared ? shortReason(d.reason ?? '') : (d.reason ?? '');
    return `  ${name} ${c.dim(`${'·'.repeat(BAR_CELLS)}  not run: ${reason}`)}`;
  }
  const colour = d.score >= 0.8 ? c.green : d.score >= 0.5 ? c.yellow : c.red;
  const why = explain(d);
  return `  ${name} ${colour(bar(d.score))}  ${c.bold(percent(d.score))}${why ? `  ${c.dim(why)}` : ''}`;
}

/**
 * With several skills, notes and not-run reasons that every profile shares are printed once at the end rather
 * than under each skill; a single skill keeps everything in place.
 */
export function renderQualityText(results: readonly QualitySkillResult[], c: Colors): string {
  const profiles = results.flatMap((r) => ('quality' in r ? [r.quality] : []));
  const everywhere = <T>(items: (q: QualityProfile) => T[]): Set<T> =>
    profiles.length < 2
      ? new Set()
      : new Set(items(profiles[0]!).filter((x) => profiles.every((q) => items(q).includes(x))));
  const sharedNotes = everywhere((q) => q.notes);
  const sharedReasons = everywhere((q) =>
    q.dimensions.filter((d) => d.status === 'not_run').map((d) => `${d.name}: ${d.reason ?? ''}`),
  );

  const out: string[] = [];
  for (const r of results) {
    if ('error' in r) {
      out.push(`${c.bold(r.path)}  ${c.red('ERROR')}  ${r.error.message}`, '');
      continue;
    }
    const q = r.quality;
    out.push(`${c.bold(r.name)}${c.dim(` (${r.path})`)}  overall ${c.bold(percent(q.overall))}`);
    for (const d of q.dimensions)
      out.push(renderDimension(d, c, sharedReasons.has(`${d.name}: ${d.reason ?? ''}`)));
    out.push(
      `  ${c.dim(`groups: static ${percent(q.groups.static)} · dynamic ${percent(q.groups.dynamic)} · rubric ${percent(q.groups.rubric)}`)}`,
    );
    for (const note of q.notes.filter((n) => !sharedNotes.has(n))) out.push(`  ${c.dim(`note: ${note}`)}`);
    out.push('');
  }
  if (sharedReasons.size > 0) {
    out.push(c.dim('Not run for every skill:'));
    for (const reason of sharedReasons) out.push(c.dim(`  ${reason}`));
  }
  for (const note of sharedNotes) out.push(c.dim(`note: ${note}`));
  if (sharedReasons.size > 0 || sharedNotes.size > 0) out.push('');
  const failed = results.filter((r) => 'error' in r).length;
  const total = results.length;
  out.push(
    `${total} skill${total === 1 ? '' : 's'}: ${total - failed} profiled${failed ? `, ${failed} failed to load` : ''}`,
  );
  return `${out.join('\n')}\n`;
}
