import { appendFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { type AuditJobData, parseQueueUrl, QUEUE_NAME } from './queue.js';
import type { BatchLine } from './records.js';
import { auditUnit } from './run-unit.js';

// `skillaudit worker`: takes audit jobs from the queue and runs each exactly as the one-machine batch does,
// into the batch folder the job names (shared between machines). A job that fails is retried by BullMQ with
// backoff; a worker that dies mid-job loses its lock and BullMQ hands the job to another worker, which
// resumes in the same run folder. Each worker keeps a log of the jobs it ended under
// `<batch>/workers/<host>-<pid>.jsonl` (one file per process: no two machines append to one file).

export interface WorkerOptions {
  url: string;
  concurrency: number;
  /** How long a job stays claimed by a worker that stopped answering (BullMQ's lock), ms. */
  lockMs?: number;
  /** At most this many jobs started per minute by this worker (BullMQ's rate limiter). */
  perMinute?: number;
  log?: (line: string) => void;
}

export interface RunningWorker {
  /** Stops taking jobs; resolves once the running ones have ended (`force`: at once, they will be retried). */
  close(force?: boolean): Promise<void>;
  /** Resolves when the worker is connected and taking jobs. */
  ready: Promise<void>;
}

function logJob(data: AuditJobData, entry: Record<string, unknown>): void {
  const folder = join(data.dir, 'workers');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  appendFileSync(join(folder, `${hostname()}-${process.pid}.jsonl`), `${JSON.stringify(entry)}\n`, {
    mode: 0o600,
  });
}

async function processJob(job: Job<AuditJobData>, log: (line: string) => void): Promise<BatchLine[]> {
  const data = job.data;
  if (!data || typeof data.source !== 'string' || typeof data.dir !== 'string')
    throw new UnrecoverableError('the job carries no source or batch folder');
  const attempt = job.attemptsMade + 1;
  const started = new Date().toISOString();
  log(`job ${job.id} started (attempt ${attempt}): ${data.source}`);
  const lines = await auditUnit(data.source, {
    dir: data.dir,
    config: data.config,
    configKey: data.configKey,
    // Retries are the queue's business: every attempt audits.
    retryFailed: true,
    contentHash: data.contentHash,
    attempt,
    ...(data.category !== null ? { categories: new Map([[data.source, data.category]]) } : {}),
  });
  const failed = lines.find((l) => l.status === 'failed');
  logJob(data, {
    job: job.id,
    contentHash: data.contentHash,
    attempt,
    status: failed ? 'failed' : (lines[0]?.status ?? 'done'),
    startedAt: started,
    finishedAt: new Date().toISOString(),
  });
  if (failed?.error) {
    log(`job ${job.id} failed (attempt ${attempt}): ${failed.error.code}: ${failed.error.message}`);
    throw new Error(`${failed.error.code}: ${failed.error.message}`);
  }
  log(`job ${job.id} done: ${lines.map((l) => `${l.verdict ?? '-'} ${l.score ?? ''}`).join(', ')}`);
  return lines;
}

export function startWorker(options: WorkerOptions): RunningWorker {
  const log = options.log ?? (() => {});
  const lockMs = options.lockMs ?? 30_000;
  const worker = new Worker<AuditJobData, BatchLine[]>(QUEUE_NAME, (job) => processJob(job, log), {
    connection: parseQueueUrl(options.url),
    concurrency: options.concurrency,
    lockDuration: lockMs,
    // Checked as often as a lock can expire, so a dead worker's job waits about one lock period.
    stalledInterval: lockMs,
    maxStalledCount: 2,
    ...(options.perMinute ? { limiter: { max: options.perMinute, duration: 60_000 } } : {}),
  });
  worker.on('error', (error) => log(`queue error: ${error.message}`));
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    close: (force = false) => worker.close(force),
  };
}
