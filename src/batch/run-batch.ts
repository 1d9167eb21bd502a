import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import type { CategoryMap } from './categories.js';
import { auditOptionsFor, type BatchConfig, configKey } from './config.js';
import type { BatchLine } from './records.js';
import { RECORD_VERSION, writeJsonAtomic } from './records.js';
import { auditUnit, type UnitContext } from './run-unit.js';
import { corpusSources } from './sources.js';

// A batch on this machine: the corpus' sources are listed first (paths and URLs only, never the skills), then
// audited `concurrency` at a time; each skill's line is appended to batch.jsonl the moment it ends, so a stop at
// any point loses at most the audits in flight, and a rerun of the same command skips every finished skill.

export interface BatchCounts {
  sources: number;
  done: number;
  reused: number;
  failed: number;
  running: number;
  /** Sources finished (all their skills ended). */
  sourcesDone: number;
}

export type BatchProgress = (counts: BatchCounts, line?: BatchLine) => void;

export interface BatchOptions {
  corpus: readonly string[];
  /** The batch folder. */
  out: string;
  config: BatchConfig;
  concurrency: number;
  retryFailed?: boolean;
  categories?: CategoryMap;
  onProgress?: BatchProgress;
  onStage?: (skill: string, stage: string) => void;
  /** Checked before each skill: true stops starting new ones (an interrupt); the running ones finish. */
  stopping?: () => boolean;
}

export interface BatchConfigFile {
  version: typeof RECORD_VERSION;
  configKey: string;
  config: BatchConfig;
  corpus: string[];
  startedAt: string;
}

/** Creates the batch folder (private: it will hold every skill's files and reports) and records the settings. */
export async function prepareBatchDir(
  out: string,
  config: BatchConfig,
  corpus: readonly string[],
): Promise<string> {
  const dir = resolve(out);
  try {
    await mkdir(join(dir, 'runs'), { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
  } catch (error) {
    throw new UserError('UNREADABLE', `cannot use ${out} as the batch folder: ${(error as Error).message}`);
  }
  const file: BatchConfigFile = {
    version: RECORD_VERSION,
    configKey: configKey(config),
    config,
    corpus: [...corpus],
    startedAt: new Date().toISOString(),
  };
  await writeJsonAtomic(join(dir, 'batch-config.json'), file);
  return dir;
}

export function readBatchConfig(dir: string): BatchConfigFile | null {
  const path = join(dir, 'batch-config.json');
  if (!existsSync(path)) return null;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as BatchConfigFile;
    return parsed.version === RECORD_VERSION ? parsed : null;
  } catch {
    return null;
  }
}

/** Appends lines to batch.jsonl: one synchronous append per skill, so lines never interleave. */
export function appendLines(dir: string, lines: readonly BatchLine[]): void {
  if (lines.length === 0) return;
  appendFileSync(join(dir, 'batch.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), {
    mode: 0o600,
  });
}

/** Lists every source of the corpus (a usage error for an argument that names nothing). */
export async function listSources(corpus: readonly string[]): Promise<string[]> {
  const sources: string[] = [];
  for await (const source of corpusSources(corpus)) sources.push(source);
  if (sources.length === 0) throw new UserError('NO_SKILL', 'the corpus holds no skill');
  return sources;
}

/** What the start of every batch sets up: its sources, its folder, the unit context, the counts. */
export interface BatchStart {
  sources: string[];
  dir: string;
  ctx: UnitContext;
  counts: BatchCounts;
  /** Appends lines to batch.jsonl, counts them and reports progress. */
  record(lines: readonly BatchLine[]): void;
}

export async function startBatch(
  options: Pick<
    BatchOptions,
    'corpus' | 'out' | 'config' | 'retryFailed' | 'categories' | 'onProgress' | 'onStage'
  >,
): Promise<BatchStart> {
  const sources = await listSources(options.corpus);
  // Fails now, before any audit or job, when the model settings are unusable.
  auditOptionsFor(options.config, options.out);
  const dir = await prepareBatchDir(options.out, options.config, options.corpus);
  const ctx: UnitContext = {
    dir,
    config: options.config,
    configKey: configKey(options.config),
    retryFailed: options.retryFailed === true,
    ...(options.categories ? { categories: options.categories } : {}),
    ...(options.onStage ? { onStage: options.onStage } : {}),
  };
  const counts: BatchCounts = {
    sources: sources.length,
    done: 0,
    reused: 0,
    failed: 0,
    running: 0,
    sourcesDone: 0,
  };
  options.onProgress?.(counts);
  return {
    sources,
    dir,
    ctx,
    counts,
    record(lines) {
      appendLines(dir, lines);
      for (const line of lines) counts[line.status]++;
      options.onProgress?.(counts, lines.at(-1));
    },
  };
}

/** Audits the corpus on this machine; resolves with the counts once every source has ended. */
export async function runBatch(options: BatchOptions): Promise<BatchCounts> {
  const { sources, ctx, counts, record } = await startBatch(options);
  let next = 0;
  // Shared by the concurrent units: a skill copied into several places is audited once.
  const shared: UnitContext = { ...ctx, inFlight: new Map() };
  const work = async () => {
    while (next < sources.length && !options.stopping?.()) {
      const source = sources[next++] as string;
      counts.running++;
      const lines = await auditUnit(source, shared);
      counts.running--;
      counts.sourcesDone++;
      record(lines);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, sources.length)) }, work));
  return counts;
}
