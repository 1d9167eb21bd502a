import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type IntakeOptions, withSource } from '../intake/index.js';
import type { Skill, SourceKind } from '../types.js';
import type { UserErrorCode } from '../util/errors.js';
import { type ScanOptions, type SkillScan, scanSkill } from './engine.js';
import type { Baseline } from './suppress.js';

// Scanning a source: intake on the main thread (I/O), detectors on a pool of worker threads (CPU), so a
// corpus of many skills uses every core. Results keep the order in which intake found the skills.

export interface SkillScanResult {
  /** Where the skill is: the input path for a single skill, the input joined with its folder in a corpus. */
  path: string;
  name: string | null;
  skill?: Skill;
  scan?: SkillScan;
  error?: { code: UserErrorCode | 'SCAN_FAILED'; message: string };
}

export interface ScanSourceOptions {
  intake?: IntakeOptions;
  baseline?: Baseline;
  honourInline?: boolean;
  /** Worker threads; 0 or 1 scans on the main thread. Defaults to the machine's parallelism. */
  workers?: number;
  onProgress?: (done: number, total: number) => void;
}

// Worker threads need compiled JavaScript: under a TypeScript test runner the pool falls back to inline scans.
const WORKER_FILE = fileURLToPath(new URL('./scan-worker.js', import.meta.url));
const workersAvailable = existsSync(WORKER_FILE);

function displayPath(source: string, kind: SourceKind, subdir: string): string {
  if (subdir === '.' || subdir === '') return source;
  return kind === 'folder' ? join(source, subdir) : `${source}#${subdir}`;
}

interface WorkerJob {
  index: number;
  skill: Skill;
}

async function scanWithPool(
  workers: Worker[],
  jobs: WorkerJob[],
  options: ScanOptions,
  onDone: (index: number, result: SkillScan | { error: string }) => void,
): Promise<void> {
  const queue = [...jobs];
  // A worker that dies (a parser crash on hostile input, memory) fails only the skill it was scanning; the
  // other workers drain the queue.
  const runOne = (worker: Worker): Promise<void> =>
    new Promise((resolve) => {
      let current: WorkerJob | undefined;
      const next = (): void => {
        current = queue.shift();
        if (!current) {
          resolve();
          return;
        }
        worker.postMessage({ index: current.index, skill: current.skill, options });
      };
      worker.on('message', (msg: { index: number; scan?: SkillScan; error?: string }) => {
        onDone(msg.index, msg.scan ?? { error: msg.error ?? 'unknown worker error' });
        next();
      });
      worker.once('error', (error) => {
        if (current) onDone(current.index, { error: `scanner worker failed: ${error.message}` });
        resolve();
      });
      next();
    });
  await Promise.all(workers.map(runOne));
}

/** A folder without SKILL.md at its root is a corpus: worth starting workers before intake finishes. */
function looksLikeCorpus(source: string): boolean {
  try {
    return statSync(source).isDirectory() && !existsSync(join(source, 'SKILL.md'));
  } catch {
    return false;
  }
}

/** Loads every skill under `source` and scans each; a skill that fails intake is reported with its error. */
export async function scanSource(
  source: string,
  options: ScanSourceOptions = {},
): Promise<SkillScanResult[]> {
  const size = Math.max(0, options.workers ?? availableParallelism());
  // Workers start with intake, so their start-up (modules, grammars) overlaps with reading the corpus.
  const workers =
    workersAvailable && size > 1 && looksLikeCorpus(source)
      ? Array.from({ length: size }, () => new Worker(WORKER_FILE))
      : [];
  try {
    return await withSource(source, options.intake, async (handle) => {
      const results: SkillScanResult[] = [];
      const jobs: WorkerJob[] = [];
      for (const entry of handle.skills) {
        if (entry.ok) {
          const { skill } = entry;
          results.push({
            path: displayPath(source, skill.provenance.source, skill.provenance.subdir),
            name: skill.name || skill.folderName,
            skill,
          });
          jobs.push({ index: results.length - 1, skill });
        } else {
          results.push({ path: displayPath(source, 'folder', entry.path), name: null, error: entry.error });
        }
      }
      const scanOptions: ScanOptions = {
        ...(options.baseline ? { baseline: options.baseline } : {}),
        honourInline: options.honourInline ?? false,
      };
      let done = 0;
      const finish = (index: number, outcome: SkillScan | { error: string }): void => {
        const result = results[index]!;
        if ('error' in outcome) result.error = { code: 'SCAN_FAILED', message: outcome.error };
        else result.scan = outcome;
        options.onProgress?.(++done, jobs.length);
      };
      // Below a handful of skills, workers cost more than they save: scan on this thread. This thread also
      // scans whatever a pool whose workers all died left undone.
      if (workers.length > 0 && jobs.length >= 8) await scanWithPool(workers, jobs, scanOptions, finish);
      for (const job of jobs.filter((j) => !results[j.index]!.scan && !results[j.index]!.error)) {
        try {
          finish(job.index, await scanSkill(job.skill, scanOptions));
        } catch (error) {
          finish(job.index, { error: error instanceof Error ? error.message : String(error) });
        }
      }
      return results;
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
