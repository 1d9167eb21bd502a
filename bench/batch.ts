// Corpus batch benchmark (issue 16): figures printed, not asserted. For each corpus (a generated one from
// bench/corpus.ts, 2,000 skills by default, and every real skill of ../shared/corpus/skills), a keyless batch
// (stages scan,quality unless --stages says otherwise) run as a user runs it, each configuration into its own
// temporary batch folder, deleted after:
//   - embedded mode: runBatch in one process (the built dist/), --concurrency 1 and 2;
//   - queue mode: one redis-server (test/support/redis-server.ts: append-only, fsync on every write unless
//     --appendfsync everysec|no), 1, 2 and 4 `skillaudit worker` processes (the built CLI, --concurrency 1
//     each unless --worker-concurrency) started first, then one batch process that enqueues the corpus
//     (enqueueBatch) and follows it (waitForBatch);
//   - a rerun of each mode on its finished batch folder (every skill reused): the cost of resuming a corpus.
// Per configuration: wall seconds and skills/s (of the batch call itself, process start-up excluded), CPU
// seconds (user + system, children included) and peak RSS (VmHWM) of the batch process and of each worker.
// The queue's overhead per skill, from the queue's own event stream (the Redis stream id of each event is
// its time) and the workers' logs (<batch>/workers/*.jsonl: startedAt / finishedAt of each audit): enqueue
// time per job, enqueue to start (the job made active; under a full queue this includes the wait for a free
// worker), start to the worker's processor, the job in the worker, and job end to ack (the job moved to
// completed), p50 / p95; each skill's audit time (batch.jsonl timings) in every mode, to tell the audit from
// what is around it. Then an idle-queue probe: skills enqueued one at a time to one idle worker, so enqueue
// to start is the queue's latency alone.
// The machine may be shared: every figure is printed with the 1-minute load average when it was taken.
// Run: npm run build && npx tsx bench/batch.ts [--corpus DIR]... [--generated 2000] [--stages scan,quality]
//      [--concurrency 1,2] [--workers 1,2,4] [--worker-concurrency 1] [--probe 20] [--appendfsync always]
// (`--corpus none` skips the real corpus, `--generated 0` the generated one.)
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, QueueEvents } from 'bullmq';
import { type BatchConfig, parseStages } from '../src/batch/config.js';
import { parseQueueUrl, QUEUE_NAME } from '../src/batch/queue.js';
import type { BatchLine } from '../src/batch/records.js';
import type { BatchCounts } from '../src/batch/run-batch.js';
import { type RedisServer, startRedis } from '../test/support/redis-server.js';
import { writeCorpus } from './corpus.js';

const REPO = resolve(import.meta.dirname, '..');
const REAL_CORPUS = resolve(REPO, '../shared/corpus/skills');

interface Args {
  corpora: string[];
  generated: number;
  stages: string;
  concurrency: number[];
  workers: number[];
  workerConcurrency: number;
  probe: number;
  appendfsync: 'always' | 'everysec' | 'no';
}

const list = (value: string): number[] => (value === '' ? [] : value.split(',').map(Number));

function parseArgs(argv: string[]): Args {
  const args: Args = {
    corpora: [],
    generated: 2000,
    stages: 'scan,quality',
    concurrency: [1, 2],
    workers: [1, 2, 4],
    workerConcurrency: 1,
    probe: 20,
    appendfsync: 'always',
  };
  let corporaGiven = false;
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--corpus') {
      corporaGiven = true;
      if (value !== 'none') args.corpora.push(resolve(value));
    } else if (flag === '--generated') args.generated = Number(value);
    else if (flag === '--stages') args.stages = value;
    else if (flag === '--concurrency') args.concurrency = list(value);
    else if (flag === '--workers') args.workers = list(value);
    else if (flag === '--worker-concurrency') args.workerConcurrency = Number(value);
    else if (flag === '--probe') args.probe = Number(value);
    else if (flag === '--appendfsync' && (value === 'always' || value === 'everysec' || value === 'no'))
      args.appendfsync = value;
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!corporaGiven && existsSync(REAL_CORPUS)) args.corpora.push(REAL_CORPUS);
  return args;
}

const args = parseArgs(process.argv.slice(2));
const BIN = join(REPO, 'bin/skillaudit.js');
const DIST = join(REPO, 'dist/batch');
if (!existsSync(join(DIST, 'queue.js'))) throw new Error('dist/ is missing: run `npm run build` first');
const config: BatchConfig = { stages: parseStages(args.stages, false), limits: {} };

const loadNow = (): string => loadavg()[0]!.toFixed(1);
const fmt = (n: number, digits = 1): string => n.toFixed(digits);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const p50p95 = (xs: number[]): string =>
  xs.length === 0 ? '-' : `${fmt(percentile(xs, 50))} / ${fmt(percentile(xs, 95))}`;

// The batch side runs in a child process on the built code (as the CLI would), so that its peak RSS and CPU
// are its own. It prints one JSON line: the seconds of the batch call and what it returned.
const EMBEDDED_CHILD = `
const { runBatch } = await import(process.argv[1] + '/run-batch.js');
const o = JSON.parse(process.argv[2]);
const t = performance.now();
const counts = await runBatch(o);
console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, counts }));
process.exit(0);`;

const QUEUE_CHILD = `
const { enqueueBatch, waitForBatch } = await import(process.argv[1] + '/queue.js');
const o = JSON.parse(process.argv[2]);
const t = performance.now();
const e = await enqueueBatch({ corpus: o.corpus, out: o.out, config: o.config, retryFailed: false, queue: o.queue });
const enqueueSeconds = (performance.now() - t) / 1000;
const counts = await waitForBatch({ dir: e.dir, config: o.config, jobs: e.jobs, queue: o.queue, counts: e.counts });
console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, enqueueSeconds, jobs: e.jobs.length, counts }));
process.exit(0);`;

interface ChildResult {
  seconds: number;
  counts: BatchCounts;
  enqueueSeconds?: number;
  jobs?: number;
  cpuSeconds: number;
  rssMb: number;
}

/** Runs a batch child under GNU time (peak RSS, user + system CPU of it and its children). */
function runChild(code: string, options: object): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M %U %S', process.execPath, '--input-type=module', '-e', code, DIST, JSON.stringify(options)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('exit', (status) => {
      if (status !== 0) return fail(new Error(`batch child failed (${status}): ${err}`));
      const [rssKb, user, system] = err.trim().split('\n').pop()!.split(' ').map(Number);
      const result = JSON.parse(out.trim().split('\n').pop()!) as Omit<ChildResult, 'cpuSeconds' | 'rssMb'>;
      done({ ...result, cpuSeconds: user! + system!, rssMb: rssKb! / 1024 });
    });
  });
}

interface WorkerProcess {
  child: ChildProcess;
  log: () => string;
}

function startWorker(url: string): WorkerProcess {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--queue', url, '--concurrency', String(args.workerConcurrency)],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (d) => (log += d));
  return { child, log: () => log };
}

/** Waits until `count` workers are connected to the batch queue (BullMQ names their Redis connections). */
async function workersReady(url: string, workers: WorkerProcess[]): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection: parseQueueUrl(url) });
  try {
    const deadline = Date.now() + 60_000;
    while ((await queue.getWorkersCount()) < workers.length) {
      const dead = workers.find((w) => w.child.exitCode !== null);
      if (dead) throw new Error(`worker exited: ${dead.log()}`);
      if (Date.now() > deadline) throw new Error('workers not connected after 60 s');
      await sleep(50);
    }
  } finally {
    await queue.close();
  }
}

const TICK = 100; // USER_HZ, the unit of /proc/<pid>/stat times on Linux

/** Peak RSS and CPU (own + waited-for children) of a live process, from /proc, just before it is stopped. */
function processUsage(pid: number): { rssMb: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  // Fields after the parenthesised command name: utime, stime, cutime, cstime are fields 14-17.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0);
  return { rssMb: hwmKb / 1024, cpuSeconds: ticks / TICK };
}

async function stopWorker(worker: WorkerProcess): Promise<void> {
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Times (ms since the epoch) of each job's queue events, read from the queue's event stream. */
interface JobTimes {
  added?: number;
  active?: number;
  completed?: number;
  failed?: number;
}

async function listenToQueue(
  url: string,
): Promise<{ times: Map<string, JobTimes>; close: () => Promise<void> }> {
  const events = new QueueEvents(QUEUE_NAME, { connection: parseQueueUrl(url) });
  const times = new Map<string, JobTimes>();
  // A stream id is `<ms>-<seq>`: the Redis time of the event.
  const at = (id: string): number => Number(id.split('-')[0]);
  const entry = (jobId: string): JobTimes => {
    const t = times.get(jobId) ?? {};
    times.set(jobId, t);
    return t;
  };
  events.on('added', ({ jobId }, id) => {
    entry(jobId).added ??= at(id);
  });
  events.on('active', ({ jobId }, id) => {
    entry(jobId).active = at(id);
  });
  events.on('completed', ({ jobId }, id) => {
    entry(jobId).completed = at(id);
  });
  events.on('failed', ({ jobId }, id) => {
    entry(jobId).failed = at(id);
  });
  await events.waitUntilReady();
  // The listener reads the stream from "now": give its first blocking read a moment to be in place.
  await sleep(200);
  return { times, close: () => events.close() };
}

interface WorkerLogEntry {
  job: string;
  status: string;
  startedAt: string;
  finishedAt: string;
}

function workerLogs(dir: string): WorkerLogEntry[] {
  const folder = join(dir, 'workers');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((file) =>
    readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as WorkerLogEntry),
  );
}

interface Overhead {
  /** Added to active (the job handed to a worker). */
  startMs: number[];
  /** Active to the worker's audit start (job fetched, processor called). */
  pickupMs: number[];
  /** The worker's job: open the source, audit, write the run folder. */
  jobMs: number[];
  /** The worker's audit end to completed (the ack). */
  ackMs: number[];
}

function overheads(times: Map<string, JobTimes>, dir: string): Overhead {
  const o: Overhead = { startMs: [], pickupMs: [], jobMs: [], ackMs: [] };
  for (const t of times.values()) if (t.added && t.active) o.startMs.push(t.active - t.added);
  for (const entry of workerLogs(dir)) {
    const t = times.get(entry.job);
    if (entry.status !== 'done' || !t?.active || !t.completed) continue;
    const started = Date.parse(entry.startedAt);
    const finished = Date.parse(entry.finishedAt);
    o.pickupMs.push(started - t.active);
    o.jobMs.push(finished - started);
    o.ackMs.push(t.completed - finished);
  }
  return o;
}

/** The audit time of each skill audited in this batch (batch.jsonl), whichever process ran it. */
function auditTimes(dir: string): number[] {
  const path = join(dir, 'batch.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BatchLine)
    .flatMap((l) => (l.status === 'done' && l.timings ? [l.timings.totalMs] : []));
}

interface Row {
  mode: string;
  result: ChildResult;
  workers?: { rssMb: number; cpuSeconds: number }[];
  /** Each skill's audit time, ms. */
  auditMs: number[];
  load: string;
}

function printRows(rows: Row[]): void {
  console.log(
    '\n| mode | skills done / reused / failed | wall s | skills/s | audit ms p50 / p95 | batch CPU s | ' +
      'batch peak RSS MB | worker CPU s (sum) | worker peak RSS MB (each) | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { mode, result: r, workers, auditMs, load } of rows) {
    const { done, reused, failed } = r.counts;
    const skills = done + reused + failed;
    const workerCpu = workers ? fmt(workers.reduce((n, w) => n + w.cpuSeconds, 0)) : '-';
    const workerRss = workers ? workers.map((w) => fmt(w.rssMb, 0)).join(', ') : '-';
    console.log(
      `| ${mode} | ${done} / ${reused} / ${failed} | ${fmt(r.seconds, 2)} | ${fmt(skills / r.seconds)} | ` +
        `${p50p95(auditMs)} | ${fmt(r.cpuSeconds)} | ${fmt(r.rssMb, 0)} | ${workerCpu} | ${workerRss} | ${load} |`,
    );
  }
}

function flush(redis: RedisServer): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('redis-cli', ['-p', String(redis.port), 'flushall'], { stdio: 'ignore' });
    child.on('exit', (status) => (status === 0 ? done() : fail(new Error('redis-cli flushall failed'))));
  });
}

async function embedded(corpus: string, rows: Row[]): Promise<void> {
  for (const [i, concurrency] of args.concurrency.entries()) {
    const out = mkdtempSync(join(tmpdir(), 'skillaudit-bench-batch-'));
    try {
      const options = { corpus: [corpus], out, config, concurrency };
      let load = loadNow();
      const result = await runChild(EMBEDDED_CHILD, options);
      rows.push({ mode: `embedded, concurrency ${concurrency}`, result, auditMs: auditTimes(out), load });
      // The last configuration again on its finished folder: every skill is reused.
      if (i === args.concurrency.length - 1) {
        load = loadNow();
        const rerun = await runChild(EMBEDDED_CHILD, options);
        const mode = `embedded rerun (concurrency ${concurrency})`;
        rows.push({ mode, result: rerun, auditMs: [], load });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
}

/** Queue runs; returns the lines of the overhead table. */
async function queued(corpus: string, redis: RedisServer, rows: Row[]): Promise<string[]> {
  const overheadRows: string[] = [];
  for (const [i, count] of args.workers.entries()) {
    const out = mkdtempSync(join(tmpdir(), 'skillaudit-bench-batch-'));
    const workers: WorkerProcess[] = [];
    const events = await listenToQueue(redis.url);
    try {
      for (let w = 0; w < count; w++) workers.push(startWorker(redis.url));
      await workersReady(redis.url, workers);
      const options = { corpus: [corpus], out, config, queue: { url: redis.url } };
      const load = loadNow();
      const result = await runChild(QUEUE_CHILD, options);
      const usage = workers.map((w) => processUsage(w.child.pid!));
      const mode = `queue, ${count} worker${count > 1 ? 's' : ''} × ${args.workerConcurrency}`;
      rows.push({ mode, result, workers: usage, auditMs: auditTimes(out), load });
      const o = overheads(events.times, out);
      const perJob = result.jobs ? (result.enqueueSeconds! * 1000) / result.jobs : Number.NaN;
      overheadRows.push(
        `| ${count} | ${result.jobs} | ${fmt(perJob, 2)} | ${p50p95(o.startMs)} | ${p50p95(o.pickupMs)} | ` +
          `${p50p95(o.jobMs)} | ${p50p95(o.ackMs)} | ${load} |`,
      );
      if (i === args.workers.length - 1) {
        const again = loadNow();
        const rerun = await runChild(QUEUE_CHILD, options);
        const mode = `queue rerun (${count} workers, nothing queued)`;
        rows.push({ mode, result: rerun, auditMs: [], load: again });
      }
    } finally {
      await Promise.all(workers.map(stopWorker));
      await events.close();
      await flush(redis);
      rmSync(out, { recursive: true, force: true });
    }
  }
  return overheadRows;
}

async function benchCorpus(corpus: string, title: string, redis: RedisServer): Promise<void> {
  console.log(`\n## ${title}`);
  const rows: Row[] = [];
  await embedded(corpus, rows);
  const overheadRows = await queued(corpus, redis, rows);
  printRows(rows);
  console.log(
    '\nqueue overhead per skill (ms, p50 / p95; enqueue = open + hash + add, per job; enqueue→start includes ' +
      'the wait for a free worker when the queue is full; start→job = active to the processor called; ' +
      'job = source opened, audited, run folder written, in the worker):\n',
  );
  console.log('| workers | jobs | enqueue ms/job | enqueue→start | start→job | job | job end→ack | load |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const line of overheadRows) console.log(line);
  await probe(corpus, redis);
}

/** Skills enqueued one at a time to one idle worker: enqueue to start is then the queue's own latency. */
async function probe(corpus: string, redis: RedisServer): Promise<void> {
  const skills = readdirSync(corpus, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(corpus, e.name, 'SKILL.md')))
    .slice(0, args.probe)
    .map((e) => join(corpus, e.name));
  if (skills.length === 0) return;
  const { enqueueBatch } = (await import(join(DIST, 'queue.js'))) as typeof import('../src/batch/queue.js');
  const out = mkdtempSync(join(tmpdir(), 'skillaudit-bench-batch-'));
  const events = await listenToQueue(redis.url);
  const worker = startWorker(redis.url);
  await workersReady(redis.url, [worker]);
  const load = loadNow();
  const addMs: number[] = [];
  try {
    for (const skill of skills) {
      const t = performance.now();
      const { jobs } = await enqueueBatch({
        corpus: [skill],
        out,
        config,
        retryFailed: false,
        queue: { url: redis.url },
      });
      addMs.push(performance.now() - t);
      const ended = (id: string) => {
        const t = events.times.get(id);
        return t?.completed !== undefined || t?.failed !== undefined;
      };
      while (!jobs.every(ended)) await sleep(5);
    }
    // The worker's log line for the last job is written before its ack: it is there.
    const o = overheads(events.times, out);
    console.log(
      `\nidle-queue probe (${skills.length} skills one at a time, one idle worker; load ${load}), ms ` +
        `p50 / p95: enqueueBatch of one skill ${p50p95(addMs)}; enqueue→start ${p50p95(o.startMs)}; ` +
        `start→job ${p50p95(o.pickupMs)}; job ${p50p95(o.jobMs)}; job end→ack ${p50p95(o.ackMs)}`,
    );
  } finally {
    await stopWorker(worker);
    await events.close();
    await flush(redis);
    rmSync(out, { recursive: true, force: true });
  }
}

const started = performance.now();
console.log(
  `# batch benchmark: stages ${config.stages.join(',')}, worker concurrency ${args.workerConcurrency}, ` +
    `redis appendfsync ${args.appendfsync}, load ${loadNow()}`,
);
const redis = await startRedis(args.appendfsync);
try {
  for (const corpus of args.corpora) await benchCorpus(corpus, corpus, redis);
  if (args.generated > 0) {
    const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-'));
    try {
      writeCorpus(dir, args.generated);
      await benchCorpus(dir, `generated corpus of ${args.generated}`, redis);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await redis.stop();
}
console.log(`\nbench total: ${fmt((performance.now() - started) / 1000, 0)} s, load ${loadNow()}`);
