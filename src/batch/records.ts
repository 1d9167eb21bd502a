import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { SafetyStatus } from '../core/types.js';

// The files a batch leaves besides each skill's run folder. A run folder is complete when its `batch.json`
// exists (written last, by rename, so a stop mid-audit leaves no marker and a rerun audits again); a skill or
// source that failed has `failures/<key>.json`. Aggregates are computed from these files alone.

export const RECORD_VERSION = 1;
export const MARKER = 'batch.json';

export interface StageTimings {
  totalMs: number;
  /** Wall time of each stage the audit entered, in entry order. */
  stages: Record<string, number>;
}

/** `<run folder>/batch.json`: this run folder holds a finished audit of this content under this configuration. */
export interface RunMarker {
  version: typeof RECORD_VERSION;
  contentHash: string;
  configKey: string;
  source: string;
  name: string;
  category: string | null;
  startedAt: string;
  finishedAt: string;
  timings: StageTimings;
  /** Which machine and process ran it. */
  worker: string;
}

/** `failures/<key>.json`: the last failure of a source or skill under a configuration. */
export interface FailureRecord {
  version: typeof RECORD_VERSION;
  key: string;
  source: string;
  contentHash: string | null;
  name: string | null;
  category: string | null;
  configKey: string;
  code: string;
  message: string;
  attempts: number;
  at: string;
}

/** One line of batch.jsonl: what happened to one skill in this invocation. */
export interface BatchLine {
  id: string | null;
  name: string | null;
  source: string;
  category: string | null;
  /** done: audited now; reused: an earlier run folder was complete; failed: see error. */
  status: 'done' | 'reused' | 'failed';
  verdict: SafetyStatus | null;
  score: number | null;
  /** Run folder, relative to the batch folder. */
  runDir: string | null;
  timings: StageTimings | null;
  error: { code: string; message: string } | null;
  at: string;
}

export const workerName = (): string => `${hostname()}:${process.pid}`;

/** Writes JSON so that a reader never sees half a file: to a temporary name, then renamed. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function readMarker(runDir: string): RunMarker | null {
  const marker = readJson<RunMarker>(join(runDir, MARKER));
  return marker?.version === RECORD_VERSION ? marker : null;
}

/** The marker of a run folder holding a finished audit of this content under this configuration, else null. */
export function completeMarker(runDir: string, contentHash: string, key: string): RunMarker | null {
  const marker = readMarker(runDir);
  return marker !== null &&
    marker.contentHash === contentHash &&
    marker.configKey === key &&
    existsSync(join(runDir, 'report.json'))
    ? marker
    : null;
}

/** The failure record's key: the skill's content when it loaded, else the source. */
export function failureKey(source: string, contentHash: string | null, key: string): string {
  return createHash('sha256')
    .update(`${contentHash ?? `source:${source}`}\u0000${key}`)
    .digest('hex')
    .slice(0, 24);
}

export const failurePath = (batchDir: string, key: string): string =>
  join(batchDir, 'failures', `${key}.json`);

export function readFailure(batchDir: string, key: string): FailureRecord | null {
  const record = readJson<FailureRecord>(failurePath(batchDir, key));
  return record?.version === RECORD_VERSION ? record : null;
}

export async function clearFailure(batchDir: string, key: string): Promise<void> {
  await rm(failurePath(batchDir, key), { force: true });
}
