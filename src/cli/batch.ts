import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { BatchConfig, BatchCounts, CategoryMap } from '../batch/index.js';
import type { IndicatorList } from '../scan/index.js';
import { UserError } from '../util/errors.js';
import { type AgentFlags, addAgentOptions, agentList } from './agent-options.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { oneOf, positiveInt } from './output.js';
import { createProgress, type Progress } from './progress.js';
import { addIndicatorsOption, userIndicatorLists } from './rules.js';

// `skillaudit batch`: a whole corpus into one batch folder (run folders, batch.jsonl, summary.json/.md,
// dashboard.html), on this machine or through a Redis queue to `skillaudit worker`s; `batch summarize`
// recomputes the corpus figures from a batch folder.

interface BatchFlags extends AgentFlags {
  out: string;
  stages?: string;
  concurrency: number;
  retryFailed?: boolean;
  categories?: string;
  maxRuns?: number;
  runTimeout?: number;
  queue?: string;
  wait?: boolean;
  attempts: number;
  format: 'text' | 'json';
  quiet?: boolean;
  indicators?: string[];
}

const DEFAULT_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));

function batchConfig(
  flags: BatchFlags & Record<string, unknown>,
  parseStages: (t: string, m: boolean) => BatchConfig['stages'],
  indicators: IndicatorList[],
): BatchConfig {
  const model = modelFlags(flags);
  const hasModel = typeof model.model === 'string' || typeof process.env.SKILLAUDIT_MODEL === 'string';
  if (!hasModel && typeof flags.judgeModel === 'string')
    throw new UserError('USAGE', '--judge-model needs --model: the schemes and the agents use --model');
  const stages = parseStages(flags.stages ?? `scan,detonate,quality${hasModel ? ',utility' : ''}`, hasModel);
  return {
    stages,
    limits: limitsFromOptions(flags),
    ...(flags.maxRuns !== undefined ? { maxRuns: flags.maxRuns } : {}),
    ...(flags.runTimeout !== undefined ? { runTimeoutS: flags.runTimeout } : {}),
    ...(indicators.length ? { indicators } : {}),
    ...(stages.includes('utility')
      ? {
          model: {
            flags: model,
            agents: agentList(flags),
            scenarios: flags.scenarios,
            concurrency: 2,
            alpha: flags.alpha,
            ...(flags.agentTimeout !== undefined ? { agentTimeoutS: flags.agentTimeout } : {}),
            ...(flags.qualityRuns !== undefined ? { qualityRuns: flags.qualityRuns } : {}),
          },
        }
      : {}),
  };
}

/** Progress of the corpus: done / running / failed, rate and time left (sources, since a source may hold several skills). */
function reportCounts(progress: Progress, started: number) {
  return (counts: BatchCounts) => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? counts.sourcesDone / seconds : 0;
    const left = counts.sources - counts.sourcesDone;
    const eta = rate > 0 && left > 0 ? `, about ${Math.ceil(left / rate / 60)} min left` : '';
    progress.count(
      `batch: ${counts.done} audited, ${counts.reused} reused, ${counts.failed} failed, ${counts.running} running (${rate.toFixed(2)} sources/s${eta}); sources`,
      counts.sourcesDone,
      counts.sources,
    );
  };
}

/** Writes the batch folder's summary, Markdown and dashboard, and prints the summary (text or JSON). */
async function summarizeAndPrint(
  dir: string,
  categories: CategoryMap | undefined,
  format: 'text' | 'json',
  counts: BatchCounts | null,
): Promise<void> {
  const { batchText, writeBatchOutputs } = await import('../batch/index.js');
  const summary = await writeBatchOutputs(dir, categories ? { categories } : {});
  process.stdout.write(
    format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : batchText(dir, summary, counts),
  );
}

export function registerBatch(program: Command): void {
  const batch = program
    .command('batch')
    .description(
      'Audit a whole corpus: one run folder per skill, corpus tables and a dashboard; on this machine or on workers through Redis',
    );
  const run = batch
    .command('run <corpus...>', { isDefault: true })
    .description(
      'Audit every skill of the corpus (folders of skills, list files of sources one per line, archives, git URLs) into --out; a rerun skips finished skills',
    )
    .requiredOption(
      '-o, --out <dir>',
      '(required) the batch folder: runs/, batch.jsonl, summary.json, summary.md, dashboard.html',
    )
    .option('--stages <list>', 'stages to run: scan,detonate,quality (default) and utility (needs --model)')
    .option('--concurrency <n>', 'skills audited at once on this machine', positiveInt, DEFAULT_CONCURRENCY)
    .option('--retry-failed', 'audit again the skills whose earlier attempt failed')
    .option(
      '--categories <file>',
      'skill → category mapping for the tables (JSON object, or lines "<name|source|hash>,<category>")',
    )
    .option('--max-runs <n>', 'sandbox runs per skill (default 24)', positiveInt)
    .option('--run-timeout <seconds>', 'wall-clock limit of each sandbox run (default 15)', positiveInt)
    .option(
      '--queue <redis-url>',
      'put the corpus on a Redis queue (redis://host:port[/db]) for `skillaudit worker`s instead of auditing here',
    )
    .option('--wait', 'with --queue: follow the jobs until every skill has ended, then write the summary')
    .option('--attempts <n>', 'with --queue: attempts per skill before it counts as failed', positiveInt, 3)
    .option(
      '-f, --format <format>',
      'what to print at the end: text or json (the summary)',
      oneOf(['text', 'json'] as const),
      'text',
    )
    .option('-q, --quiet', 'no progress output');
  addAgentOptions(run);
  addModelOptions(run);
  addLimitOptions(run);
  addIndicatorsOption(run);
  run.action(async (corpus: string[], flags: BatchFlags & Record<string, unknown>) => {
    const { parseStages, loadCategories, runBatch } = await import('../batch/index.js');
    if (flags.wait && !flags.queue)
      throw new UserError('USAGE', '--wait follows a queue: add --queue redis://…');
    const config = batchConfig(flags, parseStages, await userIndicatorLists(flags.indicators));
    const categories = flags.categories ? loadCategories(flags.categories) : undefined;
    const progress = createProgress(process.stderr, flags.quiet === true);
    const onProgress = reportCounts(progress, Date.now());
    let dir: string;
    let counts: BatchCounts;
    if (flags.queue) {
      const { enqueueBatch, waitForBatch } = await import('../batch/index.js');
      const queue = { url: flags.queue, attempts: flags.attempts };
      const enqueued = await enqueueBatch({
        corpus,
        out: flags.out,
        config,
        retryFailed: flags.retryFailed === true,
        ...(categories ? { categories } : {}),
        queue,
        onProgress,
      });
      dir = enqueued.dir;
      process.stderr.write(`skillaudit: ${enqueued.jobs.length} skill(s) queued on ${flags.queue}\n`);
      if (!flags.wait) {
        progress.end();
        process.stdout.write(
          `Queued ${enqueued.jobs.length} skill(s); ${enqueued.counts.reused} already done, ${enqueued.counts.failed} failed.\nRun \`skillaudit worker --queue ${flags.queue}\` on machines that share ${dir}, then \`skillaudit batch summarize ${dir}\`.\n`,
        );
        return;
      }
      counts = await waitForBatch({
        dir,
        config,
        jobs: enqueued.jobs,
        queued: enqueued.queued,
        queue,
        counts: enqueued.counts,
        onProgress,
      });
    } else {
      // The first Ctrl-C stops starting skills and lets the running audits end, so the summary and dashboard
      // of what finished are written; a second one stops the sandboxed runs at once.
      const { finishBeforeInterrupt } = await import('../util/interrupt.js');
      let interrupted = false;
      finishBeforeInterrupt();
      const stop = () => {
        if (interrupted) return;
        interrupted = true;
        process.stderr.write(
          `\nskillaudit: stopping: no new skill starts; the running audits finish, then the summary is written (Ctrl-C again stops at once). Re-run the same command to resume.\n`,
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      counts = await runBatch({
        corpus,
        out: flags.out,
        config,
        concurrency: flags.concurrency,
        retryFailed: flags.retryFailed === true,
        ...(categories ? { categories } : {}),
        onProgress,
        stopping: () => interrupted,
      });
      dir = resolve(flags.out);
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
      if (interrupted) {
        progress.end();
        await summarizeAndPrint(dir, categories, flags.format, counts);
        process.stderr.write(
          `skillaudit: interrupted; the summary covers what finished. Resume with: ${resumeCommand()}\n`,
        );
        process.exitCode = 130;
        return;
      }
    }
    progress.end();
    // The batch ran: skills that failed are in the summary and its errors table, not an exit code.
    await summarizeAndPrint(dir, categories, flags.format, counts);
  });

  batch
    .command('summarize <dir>')
    .description(
      'Recompute summary.json, summary.md and dashboard.html from a batch folder (its run folders alone)',
    )
    .option(
      '--categories <file>',
      'skill → category mapping for the tables (overrides what the batch recorded)',
    )
    .option(
      '-f, --format <format>',
      'what to print: text or json (the summary)',
      oneOf(['text', 'json'] as const),
      'text',
    )
    .action(async (dir: string, flags: { categories?: string; format: 'text' | 'json' }) => {
      const { loadCategories } = await import('../batch/index.js');
      const categories = flags.categories ? loadCategories(flags.categories) : undefined;
      await summarizeAndPrint(resolve(dir), categories, flags.format, null);
    });
}

/** The command line this process was started with, quoted for a shell: re-running it resumes the batch. */
function resumeCommand(): string {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);
  return ['skillaudit', ...process.argv.slice(2)].map(quote).join(' ');
}
