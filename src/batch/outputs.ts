import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderDashboard } from './dashboard.js';
import type { BatchCounts } from './run-batch.js';
import { type SummarizeOptions, writeSummary } from './summarize.js';
import type { BatchSummary } from './summary-model.js';

// The corpus-level files of a batch folder, written after every batch and by `batch summarize`: summary.json,
// summary.md and dashboard.html, all computed from the run folders alone.

export async function writeBatchOutputs(dir: string, options: SummarizeOptions = {}): Promise<BatchSummary> {
  const summary = await writeSummary(dir, options);
  await writeFile(join(dir, 'dashboard.html'), renderDashboard(summary), { mode: 0o600 });
  return summary;
}

const percent = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)} %`);

/** What a person reads at the end of a batch: what happened now, what the corpus looks like, where the files are. */
export function batchText(dir: string, summary: BatchSummary, counts: BatchCounts | null): string {
  const { statuses, overall } = summary;
  const lines = [
    `Batch: ${summary.counts.audited} skill(s) audited, ${summary.counts.failed} failed, in ${dir}`,
    ...(counts
      ? [`  this run: ${counts.done} audited, ${counts.reused} already done, ${counts.failed} failed`]
      : []),
    `  verdicts: ${statuses.pass} pass, ${statuses.caution} caution, ${statuses.risky} risky; mean safety ${summary.scoreMean === null ? '—' : Math.round(summary.scoreMean)}`,
    overall.scenarios > 0
      ? `  utility: pass rate ${percent(overall.passRate.withSkill)} with the skill, ${percent(overall.passRate.noSkill)} without (gain ${overall.prg === null ? '—' : overall.prg.toFixed(2)}) over ${overall.scenarios} scenario(s)`
      : '  utility: not measured (add --model and the utility stage)',
    ...(summary.errors.length > 0
      ? [`  failures: ${summary.errors.map((e) => `${e.count} ${e.code}`).join(', ')} (see summary.md)`]
      : []),
    `Files: ${join(dir, 'dashboard.html')}, summary.md, summary.json, batch.jsonl, runs/`,
  ];
  return `${lines.join('\n')}\n`;
}
