// The distributed batch on a real redis-server with real `skillaudit worker` processes: every skill audited
// exactly once by two workers, a killed worker's job finished by the other, a Redis restart losing nothing,
// a poisoned skill failing alone after its attempts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BatchConfig } from '../../../src/batch/config.js';
import { enqueueBatch, waitForBatch } from '../../../src/batch/queue.js';
import type { BatchLine } from '../../../src/batch/records.js';
import { writeCorpus } from '../../support/batch/corpus.js';
import { BUILT_BIN, requireBuild } from '../../support/built-cli.js';
import { type RedisServer, startRedis } from '../../support/redis-server.js';

const SCAN_ONLY: BatchConfig = { stages: ['scan', 'quality'], limits: {} };

let redis: RedisServer;
let work: string;
const workers: ChildProcess[] = [];

interface Worker {
  child: ChildProcess;
  log: () => string;
}

function startWorker(url: string, concurrency = 2): Worker {
  const child = spawn(
    process.execPath,
    [BUILT_BIN, 'worker', '--queue', url, '--concurrency', String(concurrency), '--lock-seconds', '2'],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (d) => (log += d));
  workers.push(child);
  return { child, log: () => log };
}

function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Jobs each worker process ended, from the workers/ logs: content hash → how many times it finished. */
function finishedCounts(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  const folder = join(dir, 'workers');
  if (!existsSync(folder)) return counts;
  for (const file of readdirSync(folder))
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { contentHash: string; status: string };
      if (entry.status === 'done') counts.set(entry.contentHash, (counts.get(entry.contentHash) ?? 0) + 1);
    }
  return counts;
}

function jsonl(dir: string): BatchLine[] {
  return readFileSync(join(dir, 'batch.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BatchLine);
}

function completeRunFolders(dir: string): string[] {
  return readdirSync(join(dir, 'runs')).filter((n) => existsSync(join(dir, 'runs', n, 'batch.json')));
}

beforeAll(async () => {
  requireBuild();
  redis = await startRedis();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map(stopWorker));
  // Each test starts from an empty queue (the corpora share content, so job ids would collide).
  execFileSync('redis-cli', ['-p', String(redis.port), 'flushall']);
  if (work) rmSync(work, { recursive: true, force: true });
});

afterAll(async () => {
  await redis?.stop();
});

describe('batch on a Redis queue with skillaudit workers', () => {
  it('two workers finish a 60-skill corpus with every skill audited exactly once', async () => {
    work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
    const corpus = join(work, 'corpus');
    const skills = writeCorpus(corpus, 60);
    const out = join(work, 'out');
    const queue = { url: redis.url, backoffMs: 200 };
    const enqueued = await enqueueBatch({
      corpus: [corpus],
      out,
      config: SCAN_ONLY,
      retryFailed: false,
      queue,
    });
    expect(enqueued.jobs).toHaveLength(60);
    // Enqueuing the same corpus again adds nothing: the job ids are content + configuration.
    const again = await enqueueBatch({ corpus: [corpus], out, config: SCAN_ONLY, retryFailed: false, queue });
    expect(new Set(again.jobs)).toEqual(new Set(enqueued.jobs));
    const a = startWorker(redis.url);
    const b = startWorker(redis.url);
    const counts = await waitForBatch({
      dir: enqueued.dir,
      config: SCAN_ONLY,
      jobs: enqueued.jobs,
      queue,
      counts: enqueued.counts,
      queued: enqueued.queued,
      reconcileMs: 1000,
      pollMs: 200,
    });
    expect(counts.done).toBe(60);
    expect(counts.failed).toBe(0);
    const finished = finishedCounts(enqueued.dir);
    expect(finished.size).toBe(60);
    expect([...finished.values()].every((n) => n === 1)).toBe(true);
    expect(completeRunFolders(enqueued.dir)).toHaveLength(60);
    const lines = jsonl(enqueued.dir).filter((l) => l.status === 'done');
    expect(new Set(lines.map((l) => l.name))).toEqual(new Set(skills.map((s) => s.name)));
    // Both workers took a share.
    expect(a.log()).toMatch(/job \S+ done/);
    expect(b.log()).toMatch(/job \S+ done/);
  }, 180_000);

  it('finishes the job of a worker killed mid-audit on another worker, in the same run folder', async () => {
    work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
    const corpus = join(work, 'corpus');
    // Two skills whose script takes seconds in the sandbox: a worker can be killed while auditing them.
    writeCorpus(corpus, 4, (i) =>
      i < 2 ? { 'scripts/warm.sh': `#!/bin/sh\n# warm-up ${i}\nsleep 4\necho warm\n` } : undefined,
    );
    const out = join(work, 'out');
    const config: BatchConfig = {
      stages: ['scan', 'detonate', 'quality'],
      limits: {},
      maxRuns: 2,
      runTimeoutS: 20,
    };
    const queue = { url: redis.url, backoffMs: 200 };
    const enqueued = await enqueueBatch({ corpus: [corpus], out, config, retryFailed: false, queue });
    const victim = startWorker(redis.url, 1);
    await until(() => /job \S+ started/.test(victim.log()), 'the first worker to start a job');
    const killedJob = /job (\S+) started/.exec(victim.log())?.[1];
    victim.child.kill('SIGKILL');
    const rescuer = startWorker(redis.url, 2);
    const counts = await waitForBatch({
      dir: enqueued.dir,
      config,
      jobs: enqueued.jobs,
      queue,
      counts: enqueued.counts,
      queued: enqueued.queued,
      reconcileMs: 1000,
      pollMs: 200,
    });
    expect(counts).toMatchObject({ done: 4, failed: 0 });
    expect(rescuer.log()).toContain(`job ${killedJob} started`);
    expect(victim.log()).not.toMatch(/ done: /);
    const finished = finishedCounts(enqueued.dir);
    expect([...finished.values()]).toEqual([1, 1, 1, 1]);
    // One run folder per skill: the rescued audit resumed where the killed one had started.
    expect(readdirSync(join(enqueued.dir, 'runs'))).toHaveLength(4);
    expect(completeRunFolders(enqueued.dir)).toHaveLength(4);
  }, 240_000);

  it('stops gracefully on SIGTERM: the running audit ends and is recorded, no new job starts', async () => {
    work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
    const corpus = join(work, 'corpus');
    writeCorpus(corpus, 3, () => ({ 'scripts/warm.sh': '#!/bin/sh\nsleep 3\necho warm\n' }));
    const out = join(work, 'out');
    const config: BatchConfig = {
      stages: ['scan', 'detonate', 'quality'],
      limits: {},
      maxRuns: 1,
      runTimeoutS: 20,
    };
    const queue = { url: redis.url, backoffMs: 200 };
    const enqueued = await enqueueBatch({ corpus: [corpus], out, config, retryFailed: false, queue });
    const worker = startWorker(redis.url, 1);
    await until(() => /job \S+ started/.test(worker.log()), 'a job to start');
    const exited = new Promise<number | null>((resolve) =>
      worker.child.once('exit', (code) => resolve(code)),
    );
    worker.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The audit it was running ended normally and was recorded; nothing else was started.
    expect(worker.log()).toMatch(/job \S+ done: /);
    expect(worker.log().match(/job \S+ started/g)).toHaveLength(1);
    expect(completeRunFolders(enqueued.dir)).toHaveLength(1);
    // Another worker takes the rest.
    startWorker(redis.url, 2);
    const counts = await waitForBatch({
      dir: enqueued.dir,
      config,
      jobs: enqueued.jobs,
      queue,
      counts: enqueued.counts,
      queued: enqueued.queued,
      reconcileMs: 1000,
      pollMs: 200,
    });
    expect(counts).toMatchObject({ done: 3, failed: 0 });
    expect([...finishedCounts(enqueued.dir).values()]).toEqual([1, 1, 1]);
  }, 240_000);

  it('loses nothing when Redis is killed and restarted mid-run', async () => {
    work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
    const corpus = join(work, 'corpus');
    writeCorpus(corpus, 30);
    const out = join(work, 'out');
    const queue = { url: redis.url, backoffMs: 200 };
    const enqueued = await enqueueBatch({
      corpus: [corpus],
      out,
      config: SCAN_ONLY,
      retryFailed: false,
      queue,
    });
    startWorker(redis.url, 1);
    const waiting = waitForBatch({
      dir: enqueued.dir,
      config: SCAN_ONLY,
      jobs: enqueued.jobs,
      queue,
      counts: enqueued.counts,
      queued: enqueued.queued,
      reconcileMs: 1000,
      pollMs: 200,
    });
    await until(
      () => existsSync(join(enqueued.dir, 'runs')) && completeRunFolders(enqueued.dir).length >= 5,
      'five skills done',
    );
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1000));
    await redis.start();
    const counts = await waiting;
    expect(counts).toMatchObject({ done: 30, failed: 0 });
    const finished = finishedCounts(enqueued.dir);
    expect(finished.size).toBe(30);
    expect([...finished.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);

  it('fails a poisoned skill alone after its attempts and reports it; the rest finish', async () => {
    work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
    const corpus = join(work, 'corpus');
    const skills = writeCorpus(corpus, 5);
    const out = join(work, 'out');
    const queue = { url: redis.url, backoffMs: 200, attempts: 2 };
    const enqueued = await enqueueBatch({
      corpus: [corpus],
      out,
      config: SCAN_ONLY,
      retryFailed: false,
      queue,
    });
    // The skill vanishes between queueing and auditing (a moved share, a deleted checkout).
    const poisoned = skills[2]!;
    rmSync(poisoned.dir, { recursive: true });
    startWorker(redis.url, 2);
    const counts = await waitForBatch({
      dir: enqueued.dir,
      config: SCAN_ONLY,
      jobs: enqueued.jobs,
      queue,
      counts: enqueued.counts,
      queued: enqueued.queued,
      reconcileMs: 1000,
      pollMs: 200,
    });
    expect(counts).toMatchObject({ done: 4, failed: 1 });
    const failed = jsonl(enqueued.dir).filter((l) => l.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.source).toBe(poisoned.dir);
    expect(failed[0]!.error?.code).toBe('NOT_FOUND');
    const records = readdirSync(join(enqueued.dir, 'failures')).map(
      (f) =>
        JSON.parse(readFileSync(join(enqueued.dir, 'failures', f), 'utf8')) as {
          attempts: number;
          source: string;
        },
    );
    expect(records).toEqual([expect.objectContaining({ attempts: 2, source: poisoned.dir })]);
  }, 180_000);
});
