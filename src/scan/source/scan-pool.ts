import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Skill } from '../../core/types.js';
import { errorMessage } from '../../util/errors.js';
import type { ScanOptions, SkillScan } from '../engine/scan.js';

// Scans skills as intake hands them over. The main thread scans alone (its modules are loaded already) until
// the input is large enough to repay worker threads' start-up (module load, wasm grammars, JIT warm-up: about
// 0.9 s of CPU each) and the slow-down all threads then suffer (GC and JIT threads compete for the same
// cores), so a single skill or a folder of a few hundred never pays for a thread. Once workers run, they scan
// and the main thread only reads and hands skills out: a scan on the main thread blocks its event loop, and a
// worker that finished meanwhile waited for its next skill (on ../shared/corpus one worker beside the main
// thread sat idle 8 of 27 s). Workers start at once when intake announces SPAWN_AT_SKILLS skills or more
// (their start-up then overlaps the reading), or once SPAWN_AFTER_CHARS of text has arrived in at least
// MIN_JOBS_TO_SPAWN skills (few but large skills); one huge skill never goes to a worker that is still
// starting while the main thread waits.

export type ScanOutcome = SkillScan | { error: string };

export interface ScanPoolOptions {
  /** Worker threads to start for a large input (0: the main thread scans alone). */
  maxWorkers: number;
  /** Characters of text added to the pool that start the workers (default SPAWN_AFTER_CHARS). */
  spawnAfterChars?: number;
  /** Skills announced by expect() that start the workers at once (default SPAWN_AT_SKILLS). */
  spawnAtSkills?: number;
  /** Characters added and not yet scanned past which room() waits (default BACKLOG_CHARS). */
  backlogChars?: number;
  scan: ScanOptions;
  /** A skill's outcome, with the skill (whoever scanned it, the main thread still holds it). */
  onDone: (id: number, outcome: ScanOutcome, skill: Skill) => void;
}

interface Job {
  id: number;
  skill: Skill;
  /** Characters of text the skill holds (its share of the backlog). */
  size: number;
}

interface PoolWorker {
  thread: Worker;
  /** Jobs posted and not answered yet, in the order the worker takes them. */
  inFlight: Job[];
}

// Worker threads need compiled JavaScript: under a TypeScript test runner the main thread scans alone.
const WORKER_FILE = fileURLToPath(new URL('./scan-worker.js', import.meta.url));
const workersAvailable = existsSync(WORKER_FILE);

/**
 * Text added before workers start: at roughly 2 µs per character on one core, about 5 s of work, well past
 * the 200-skill corpus (1.6 MB, no gain from a worker) and short of the 1000-skill one (7.3 MB, a gain).
 */
const SPAWN_AFTER_CHARS = 2.5 * 1024 * 1024;
/** Skills a source announces (expect) from which workers start before the first skill is even read. */
const SPAWN_AT_SKILLS = 400;
/** Skills added before the character threshold may start workers: one huge skill is the main thread's. */
const MIN_JOBS_TO_SPAWN = 8;
/** Jobs a worker holds at once: the next one is already there when it finishes one. */
const PREFETCH = 2;
/** Skills waiting before the main thread scans one instead of reading on, while no worker runs. */
const MAIN_TAKES_AT = 8;
/**
 * Text added and not yet scanned past which room() holds intake back: memory then follows this backlog and
 * the largest skill, not the corpus. Far above what the threads need to stay busy (a few skills each).
 */
const BACKLOG_CHARS = 32 * 1024 * 1024;

function textSize(skill: Skill): number {
  let n = 0;
  for (const f of skill.files) n += f.text?.length ?? 0;
  return n;
}

/** One turn of the event loop, so intake's file reads and worker messages are handled between two scans. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class ScanPool {
  private readonly queue: Job[] = [];
  private readonly workers: PoolWorker[] = [];
  private added = 0;
  private nextId = 0;
  private closed = false;
  private spawned = false;
  private started = 0;
  private wake: (() => void) | null = null;
  /** Characters of the skills added and not done. */
  private backlog = 0;
  private roomWaiters: (() => void)[] = [];

  constructor(private readonly options: ScanPoolOptions) {}

  /** Worker threads started so far (0 when the main thread scanned alone). */
  get workersStarted(): number {
    return this.started;
  }

  /** Queues a skill; returns the id its outcome is reported under. */
  add(skill: Skill): number {
    const job = { id: this.nextId++, skill, size: textSize(skill) };
    this.queue.push(job);
    this.added += job.size;
    this.backlog += job.size;
    const chars = this.options.spawnAfterChars ?? SPAWN_AFTER_CHARS;
    if (!this.spawned && this.added >= chars && this.nextId >= MIN_JOBS_TO_SPAWN) this.spawn();
    this.dispatch();
    this.notify();
    return job.id;
  }

  /** The source holds `count` skills in all (before any is added): a large source starts workers now. */
  expect(count: number): void {
    if (!this.spawned && count >= (this.options.spawnAtSkills ?? SPAWN_AT_SKILLS)) this.spawn();
  }

  /** Resolves once the text waiting to be scanned is under the backlog limit (intake awaits it). */
  room(): Promise<void> {
    if (this.closed || !this.held) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** No more skills will be added. */
  close(): void {
    this.closed = true;
    this.freeRoom();
    this.notify();
  }

  /** Drops the skills not started yet and closes the pool (intake failed: nobody wants the results). */
  cancel(): void {
    this.queue.length = 0;
    this.close();
  }

  /** Scans on the main thread until every added skill has an outcome (call close() to let it finish). */
  async run(): Promise<void> {
    try {
      for (;;) {
        this.dispatch();
        // Alone, the main thread scans when skills pile up or intake is held back by a full backlog. Once
        // workers run it only reads and hands out: a scan here blocks the event loop, so a worker that
        // finished meanwhile would wait for its next skill.
        const reading = !this.closed && !this.held && this.queue.length < MAIN_TAKES_AT;
        const job = reading || this.workers.length > 0 ? undefined : this.queue.shift();
        if (job) {
          this.finish(job, await scanHere(job.skill, this.options.scan));
          await nextTurn();
        } else if (this.closed && this.workers.every((w) => w.inFlight.length === 0)) {
          return;
        } else {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
        }
      }
    } finally {
      await Promise.all(this.workers.map((w) => w.thread.terminate()));
    }
  }

  /** A job's outcome: reported, and its text leaves the backlog. */
  private finish(job: Job, outcome: ScanOutcome): void {
    this.backlog -= job.size;
    this.options.onDone(job.id, outcome, job.skill);
    if (!this.held) this.freeRoom();
  }

  /** Whether the text waiting to be scanned is over the limit (intake is then held back). */
  private get held(): boolean {
    return this.backlog >= (this.options.backlogChars ?? BACKLOG_CHARS);
  }

  private freeRoom(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private spawn(): void {
    this.spawned = true;
    if (!workersAvailable) return;
    for (let i = 0; i < this.options.maxWorkers; i++) {
      const thread = new Worker(WORKER_FILE, { workerData: this.options.scan });
      const worker: PoolWorker = { thread, inFlight: [] };
      thread.on('message', (msg: { id: number; scan?: SkillScan; error?: string }) => {
        const job = worker.inFlight.shift();
        if (job) this.finish(job, msg.scan ?? { error: msg.error ?? 'unknown worker error' });
        this.dispatch();
        this.notify();
      });
      // A worker that dies (a parser crash on hostile input, memory) fails only the skill it was scanning;
      // the jobs it held but had not started go back to the queue.
      thread.once('error', (error) => this.retire(worker, `scanner worker failed: ${error.message}`));
      thread.once('exit', (code) => this.retire(worker, `scanner worker exited with code ${code}`));
      this.workers.push(worker);
      this.started++;
    }
  }

  private retire(worker: PoolWorker, why: string): void {
    const index = this.workers.indexOf(worker);
    if (index < 0) return;
    this.workers.splice(index, 1);
    const [current, ...unstarted] = worker.inFlight;
    worker.inFlight = [];
    if (current) this.finish(current, { error: why });
    this.queue.unshift(...unstarted);
    this.notify();
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      while (worker.inFlight.length < PREFETCH) {
        const job = this.queue.shift();
        if (!job) return;
        worker.inFlight.push(job);
        worker.thread.postMessage({ id: job.id, skill: job.skill });
      }
    }
  }
}

async function scanHere(skill: Skill, options: ScanOptions): Promise<ScanOutcome> {
  try {
    // The engine loads on the first skill this thread scans: a re-scan the cache answers needs none of it.
    const { scanSkill } = await import('../engine/scan.js');
    return await scanSkill(skill, options);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}
