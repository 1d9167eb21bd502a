import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuleCheck } from '../schemes/index.js';

// Rule checks over a snapshot of the agent's working directory. Pure: commands are not run here (the sandbox
// or Harbor's verifier runs them), so a command check is reported as not run with the command quoted.

export interface OutputSnapshot {
  /** Relative path → text (null for binary, unreadable or linked entries, which still "exist"). */
  files: Map<string, string | null>;
  /** True when limits stopped the walk early (absent files may then be unseen, not missing). */
  partial: boolean;
}

export type RuleStatus = 'passed' | 'failed' | 'not_run';

export interface RuleCheckResult {
  check: RuleCheck;
  status: RuleStatus;
  detail: string;
}

export function checkRules(checks: readonly RuleCheck[], snapshot: OutputSnapshot): RuleCheckResult[] {
  return checks.map((check): RuleCheckResult => {
    if (check.kind === 'command_succeeds') {
      return { check, status: 'not_run', detail: `command not run outside the sandbox: ${check.command}` };
    }
    const has = snapshot.files.has(check.path);
    if (!has) {
      const why = snapshot.partial ? ' (snapshot was cut short by limits)' : '';
      return { check, status: 'failed', detail: `${check.path} does not exist${why}` };
    }
    if (check.kind === 'file_exists') return { check, status: 'passed', detail: `${check.path} exists` };
    const text = snapshot.files.get(check.path);
    if (text === null || text === undefined)
      return { check, status: 'failed', detail: `${check.path} is not readable text` };
    return text.includes(check.value)
      ? { check, status: 'passed', detail: `${check.path} contains ${JSON.stringify(check.value)}` }
      : { check, status: 'failed', detail: `${check.path} lacks ${JSON.stringify(check.value)}` };
  });
}

export interface SnapshotLimits {
  maxFiles: number;
  maxFileBytes: number;
}

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxFiles: 2_000, maxFileBytes: 1_000_000 };

const STRICT = new TextDecoder('utf-8', { fatal: true });
// A file cut at the byte limit may end inside a character; only its tail is then replaced.
const LENIENT = new TextDecoder('utf-8');

async function readText(path: string, maxBytes: number): Promise<string | null> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return null;
    if (bytesRead === maxBytes) return LENIENT.decode(bytes);
    try {
      return STRICT.decode(bytes);
    } catch {
      return null;
    }
  } finally {
    await handle.close();
  }
}

/** Reads a working directory into a snapshot without following links (an agent may have planted any). */
export async function snapshotFolder(
  root: string,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): Promise<OutputSnapshot> {
  const files = new Map<string, string | null>();
  let partial = false;
  const queue: string[] = [''];
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        queue.push(path);
        continue;
      }
      if (files.size >= limits.maxFiles) {
        partial = true;
        return { files, partial };
      }
      const stat = await lstat(join(root, path));
      files.set(path, stat.isFile() ? await readText(join(root, path), limits.maxFileBytes) : null);
    }
  }
  return { files, partial };
}
