import { basename } from 'node:path';
import { type ConnectionOptions, Queue, QueueEvents } from 'bullmq';
import { withSource } from '../intake/index.js';
import { UserError } from '../util/errors.js';
import type { CategoryMap } from './categories.js';
import { type BatchConfig, configKey } from './config.js';
import { type BatchLine, failureKey, readFailure } from './records.js';
import { appendLines, type BatchCounts, startBatch } from './run-batch.js';
import {
  failureLine,
  finishedLine,
  recordFailure,
  recordSourceFailure,
  reuseLine,
  triage,
  type UnitContext,
} from './run-unit.js';

// The distributed batch, on BullMQ over Redis: the batch command puts one job per skill on the queue and any
// number of `skillaudit worker` processes, on any machines that share the batch folder, take them. Everything a
// queue must get right is BullMQ's: a job id of content hash + configuration (a skill is queued once however
// often the batch is rerun), a lock per running job and stalled-job recovery (a killed worker's job goes to
// another), attempts with exponential backoff, a rate limiter, and a graceful close that lets running jobs end.

export const QUEUE_NAME = 'skillaudit-batch';

/** What a job carries: everything a worker on another machine needs, and nothing secret. */
export interface AuditJobData {
  /** A source naming exactly one skill (and one commit, for git). */
  source: string;
  contentHash: string;
  /** The batch folder, as every worker sees it (a shared path). */
  dir: string;
  config: BatchConfig;
  configKey: string;
  category: string | null;
}

export interface QueueSettings {
  url: string;
  /** Attempts per job before it is failed (a crash or a lost lock counts as one too). */
  attempts?: number;
  /** First retry delay; doubled at each attempt. */
  backoffMs?: number;
}

/** `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS) as BullMQ connection options. */
export function parseQueueUrl(url: string): ConnectionOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError('USAGE', `--queue ${url}: expected redis://host:port[/db]`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new UserError('USAGE', `--queue ${url}: expected a redis:// or rediss:// URL`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new UserError('USAGE', `--queue ${url}: the database must be a number`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    // Workers block on Redis; BullMQ requires commands to wait for a reconnect instead of failing.
    maxRetriesPerRequest: null,
  };
}

/** The batch queue. Connection errors are not fatal: ioredis reconnects and queued commands wait for it. */
function openQueue(url: string): Queue<AuditJobData> {
  const queue = new Queue<AuditJobData>(QUEUE_NAME, { connection: parseQueueUrl(url) });
  queue.on('error', () => {});
  return queue;
}

/** Job id: the content and the configuration (BullMQ refuses ':' in custom ids). */
export const jobId = (contentHash: string, key: string): string => `${contentHash}-${key}`;

export interface EnqueueOptions {
  corpus: readonly string[];
  out: string;
  config: BatchConfig;
  retryFailed: boolean;
  categories?: CategoryMap;
  queue: QueueSettings;
  onProgress?: (counts: BatchCounts, line?: BatchLine) => void;
}

export interface Enqueued {
  dir: string;
  counts: BatchCounts;
  /** Ids of the jobs this batch waits for. */
  jobs: string[];
  /** By job id: the skill's run folder name, and other places of the corpus holding the same content. */
  queued: Map<string, QueuedSkill>;
}

export interface QueuedSkill {
  runFolder: string;
  copies: { source: string; category: string | null }[];
}

/**
 * Puts every unfinished skill of the corpus on the queue. Each source is opened here (its skills are hashed,
 * so the job id names the content) and closed again before the next; finished and earlier-failed skills are
 * written to batch.jsonl at once instead of being queued.
 */
export async function enqueueBatch(options: EnqueueOptions): Promise<Enqueued> {
  const { sources, dir, ctx, counts, record } = await startBatch(options);
  const key = ctx.configKey;
  const queue = openQueue(options.queue.url);
  const jobs: string[] = [];
  const queued = new Map<string, QueuedSkill>();
  try {
    for (const source of sources) {
      const data: (AuditJobData & { runFolder: string })[] = [];
      try {
        await withSource(source, { limits: options.config.limits }, async (handle) => {
          const lines: BatchLine[] = [];
          for (const entry of handle.skills) {
            if (!entry.ok) {
              lines.push(
                await recordFailure(
                  ctx,
                  { source: `${source}#${entry.path}`, contentHash: null, name: null, category: null },
                  entry.error,
                ),
              );
              continue;
            }
            const next = triage(entry.skill, ctx);
            if (next.kind === 'done') lines.push(next.line);
            else
              data.push({
                source: next.plan.source,
                contentHash: next.plan.contentHash,
                dir,
                config: options.config,
                configKey: key,
                category: next.plan.category,
                runFolder: basename(next.runDir),
              });
          }
          record(lines);
        });
      } catch (error) {
        record([await recordSourceFailure(ctx, source, error)]);
      }
      for (const { runFolder, ...job } of data) {
        const id = jobId(job.contentHash, key);
        const earlier = queued.get(id);
        if (earlier) {
          earlier.copies.push({ source: job.source, category: job.category });
          continue;
        }
        const added = await queue.add('audit', job, {
          jobId: id,
          attempts: options.queue.attempts ?? 3,
          backoff: { type: 'exponential', delay: options.queue.backoffMs ?? 10_000 },
          // Finished jobs leave the queue: the run folder's marker is the record of a finished skill.
          removeOnComplete: true,
          removeOnFail: { age: 7 * 24 * 3600 },
        });
        // A job of the same id that failed before stays failed unless the user asks again.
        if (options.retryFailed && (await added.getState()) === 'failed') await added.retry('failed');
        jobs.push(id);
        queued.set(id, { runFolder, copies: [] });
      }
      counts.sourcesDone++;
    }
  } finally {
    await queue.close();
  }
  return { dir, counts, jobs, queued };
}

export interface WaitOptions {
  dir: string;
  config: BatchConfig;
  jobs: readonly string[];
  queue: QueueSettings;
  counts: BatchCounts;
  /** What enqueueBatch knows of each job (run folder, copies); without it run folders are looked up by hash. */
  queued?: ReadonlyMap<string, QueuedSkill>;
  /** How often the jobs that events said ended are looked at. */
  pollMs?: number;
  /** How often every pending job is looked at, for events missed (a Redis restart drops the connection). */
  reconcileMs?: number;
  onProgress?: (counts: BatchCounts, line?: BatchLine) => void;
}

/**
 * Follows the batch's jobs until each has ended, writing a line per skill to batch.jsonl. The queue is polled
 * (not only listened to) so that nothing is missed across a Redis restart: a job that is gone has completed
 * (its run folder says how), a failed job has used its attempts.
 */
export async function waitForBatch(options: WaitOptions): Promise<BatchCounts> {
  const queue = openQueue(options.queue.url);
  const key = configKey(options.config);
  const ctx: UnitContext = { dir: options.dir, config: options.config, configKey: key, retryFailed: false };
  const pending = new Set(options.jobs);
  const { counts } = options;
  const pollMs = options.pollMs ?? 1000;
  const record = (id: string, line: BatchLine) => {
    // Copies of the skill elsewhere in the corpus share its job and its outcome.
    const copies = (options.queued?.get(id)?.copies ?? []).map((copy) =>
      line.status === 'failed' ? { ...line, ...copy, timings: null } : reuseLine(line, copy),
    );
    appendLines(options.dir, [line, ...copies]);
    for (const l of [line, ...copies]) counts[l.status]++;
    options.onProgress?.(counts, line);
  };
  // Events say which jobs ended; every pending job is looked at only now and then (one pass over 2,000 jobs
  // takes about half a second), which catches whatever an event could not tell (a Redis restart, a job that
  // ended before this process listened).
  const events = new QueueEvents(QUEUE_NAME, { connection: parseQueueUrl(options.queue.url) });
  events.on('error', () => {});
  const ended = new Set<string>();
  const mark = ({ jobId }: { jobId: string }) => {
    if (pending.has(jobId)) ended.add(jobId);
  };
  events.on('completed', mark);
  events.on('failed', mark);
  const reconcileMs = options.reconcileMs ?? 10_000;
  let lastPass = Number.NEGATIVE_INFINITY;
  try {
    while (pending.size > 0) {
      const full = Date.now() - lastPass >= reconcileMs;
      if (full) lastPass = Date.now();
      const look = full ? [...pending] : [...ended];
      ended.clear();
      for (const id of look) {
        // An event may name a job this loop has already recorded (it arrived while the job was looked at).
        if (!pending.has(id)) continue;
        const job = await queue.getJob(id);
        const state = job ? await job.getState() : 'missing';
        if (state !== 'missing' && state !== 'failed' && state !== 'unknown') continue;
        pending.delete(id);
        const contentHash = id.slice(0, id.length - key.length - 1);
        if (state === 'failed' && job) {
          const earlier = readFailure(options.dir, failureKey(job.data.source, contentHash, key));
          record(
            id,
            earlier
              ? failureLine(earlier)
              : await recordFailure(
                  { ...ctx, attempt: job.attemptsMade },
                  { source: job.data.source, contentHash, name: null, category: job.data.category },
                  {
                    code: 'WORKER_LOST',
                    message: job.failedReason || 'the job failed without a recorded reason',
                  },
                ),
          );
          continue;
        }
        // Completed jobs leave the queue: the run folder's marker tells how the audit ended.
        record(
          id,
          finishedLine(options.dir, contentHash, key, options.queued?.get(id)?.runFolder) ??
            (await recordFailure(
              ctx,
              { source: job?.data.source ?? id, contentHash, name: null, category: null },
              {
                code: 'LOST',
                message: 'the job left the queue without a finished run folder (removed by hand?)',
              },
            )),
        );
      }
      counts.running = await queue.getActiveCount().catch(() => counts.running);
      options.onProgress?.(counts);
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
  }
  return counts;
}
