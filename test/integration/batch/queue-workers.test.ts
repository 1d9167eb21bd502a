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

const DETONATE: BatchConfig = {
  stages: ['scan', 'detonate', 'quality'],
  limits: {},
  maxRuns: 2,
  runTimeoutS: 20,
};

/** Writes a corpus of `count` skills in a fresh folder and queues it; `wait()` follows it to the end. */
async function queueCorpus(
  count: number,
  config: BatchConfig,
  options: { extra?: (i: number) => Record<string, string> | undefined; attempts?: number } = {},
) {
  work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-q-'));
  const corpus = join(work, 'corpus');
  const skills = writeCorpus(corpus, count, options.extra);
  const queue = {
    url: redis.url,
    backoffMs: 200,
    ...(options.attempts ? { attempts: options.attempts } : {}),
  };
  const batch = { corpus: [corpus], out: join(work, 'out'), config, retryFailed: false, queue };
  const enqueued = await enqueueBatch(batch);
  const wait = () =>
    waitForBatch({
      dir: enqueued.dir,
      config,
      jobs: enqueued.jobs,
      queued: enqueued.queued,
      queue,
      counts: enqueued.counts,
      pollMs: 200,
      reconcileMs: 1000,
    });
  return { skills, batch, enqueued, dir: enqueued.dir, wait };
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
    const { skills, batch, enqueued, dir, wait } = await queueCorpus(60, SCAN_ONLY);
    expect(enqueued.jobs).toHaveLength(60);
    // Enqueuing the same corpus again adds nothing: the job ids are content + configuration.
    const again = await enqueueBatch(batch);
    expect(new Set(again.jobs)).toEqual(new Set(enqueued.jobs));
    const a = startWorker(redis.url);
    const b = startWorker(redis.url);
    expect(await wait()).toMatchObject({ done: 60, failed: 0 });
    const finished = finishedCounts(dir);
    expect(finished.size).toBe(60);
    expect([...finished.values()].every((n) => n === 1)).toBe(true);
    expect(completeRunFolders(dir)).toHaveLength(60);
    const lines = jsonl(dir).filter((l) => l.status === 'done');
    expect(new Set(lines.map((l) => l.name))).toEqual(new Set(skills.map((s) => s.name)));
    // Both workers took a share.
    expect(a.log()).toMatch(/job \S+ done/);
    expect(b.log()).toMatch(/job \S+ done/);
  }, 180_000);

  it('finishes the job of a worker killed mid-audit on another worker, in the same run folder', async () => {
    // Two skills whose script takes seconds in the sandbox: a worker can be killed while auditing them.
    const { dir, wait } = await queueCorpus(4, DETONATE, {
      extra: (i) =>
        i < 2 ? { 'scripts/warm.sh': `#!/bin/sh\n# warm-up ${i}\nsleep 4\necho warm\n` } : undefined,
    });
    const victim = startWorker(redis.url, 1);
    await until(() => /job \S+ started/.test(victim.log()), 'the first worker to start a job');
    const killedJob = /job (\S+) started/.exec(victim.log())?.[1];
    victim.child.kill('SIGKILL');
    const rescuer = startWorker(redis.url, 2);
    expect(await wait()).toMatchObject({ done: 4, failed: 0 });
    expect(rescuer.log()).toContain(`job ${killedJob} started`);
    expect(victim.log()).not.toMatch(/ done: /);
    expect([...finishedCounts(dir).values()]).toEqual([1, 1, 1, 1]);
    // One run folder per skill: the rescued audit resumed where the killed one had started.
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(4);
    expect(completeRunFolders(dir)).toHaveLength(4);
  }, 240_000);

  it('stops gracefully on SIGTERM: the running audit ends and is recorded, no new job starts', async () => {
    const { dir, wait } = await queueCorpus(
      3,
      { ...DETONATE, maxRuns: 1 },
      {
        extra: () => ({ 'scripts/warm.sh': '#!/bin/sh\nsleep 3\necho warm\n' }),
      },
    );
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
    expect(completeRunFolders(dir)).toHaveLength(1);
    // Another worker takes the rest.
    startWorker(redis.url, 2);
    expect(await wait()).toMatchObject({ done: 3, failed: 0 });
    expect([...finishedCounts(dir).values()]).toEqual([1, 1, 1]);
  }, 240_000);

  it('loses nothing when Redis is killed and restarted mid-run', async () => {
    const { dir, wait } = await queueCorpus(30, SCAN_ONLY);
    startWorker(redis.url, 1);
    const waiting = wait();
    await until(
      () => existsSync(join(dir, 'runs')) && completeRunFolders(dir).length >= 5,
      'five skills done',
    );
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1000));
    await redis.start();
    expect(await waiting).toMatchObject({ done: 30, failed: 0 });
    const finished = finishedCounts(dir);
    expect(finished.size).toBe(30);
    expect([...finished.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);

  it('fails a poisoned skill alone after its attempts and reports it; the rest finish', async () => {
    const { skills, dir, wait } = await queueCorpus(5, SCAN_ONLY, { attempts: 2 });
    // The skill vanishes between queueing and auditing (a moved share, a deleted checkout).
    const poisoned = skills[2]!;
    rmSync(poisoned.dir, { recursive: true });
    startWorker(redis.url, 2);
    expect(await wait()).toMatchObject({ done: 4, failed: 1 });
    const failed = jsonl(dir).filter((l) => l.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.source).toBe(poisoned.dir);
    expect(failed[0]!.error?.code).toBe('NOT_FOUND');
    const records = readdirSync(join(dir, 'failures')).map(
      (f) =>
        JSON.parse(readFileSync(join(dir, 'failures', f), 'utf8')) as { attempts: number; source: string },
    );
    expect(records).toEqual([expect.objectContaining({ attempts: 2, source: poisoned.dir })]);
  }, 180_000);
});
