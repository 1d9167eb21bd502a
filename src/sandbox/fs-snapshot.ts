// Before/after snapshots of the sandbox's writable trees (workspace, home, tmp) and their diff.
// Walks without following symlinks; bounded in entries and in bytes hashed, since a run may have written
// millions of files or a huge one on purpose.
import { createHash } from 'node:crypto';
import { lstat, open, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileState, FsChange, FsRoot } from './evidence.js';
import { EVIDENCE_CAPS } from './evidence.js';

export interface Snapshot {
  entries: Map<string, FileState>;
  /** Entries not visited because the walk hit its cap. */
  truncated: boolean;
}

export interface SnapshotOptions {
  maxEntries: number;
  /** Files larger than this are recorded by size only (sha256 null). */
  maxHashBytes: number;
  /** Relative paths not to descend into (another root mounted inside this one). */
  exclude?: ReadonlySet<string>;
  /**
   * The snapshot before the run: files not in it are new, and only the first `newHashFiles` of them, up to
   * `newHashBytes` in all, are hashed (a run may write a flood of files to slow the audit down).
   */
  known?: Snapshot;
  /** Shared by the snapshots of one run's trees; used up as new files are hashed. */
  hashBudget?: { files: number; bytes: number };
}

/** Hashing of files a run created, per snapshot. */
export const NEW_FILE_HASH_BUDGET = { files: 2_000, bytes: 64 * 1024 * 1024 };

export const DEFAULT_SNAPSHOT_OPTIONS: SnapshotOptions = {
  maxEntries: 20_000,
  maxHashBytes: 16 * 1024 * 1024,
};

async function hashFile(path: string, size: number, maxBytes: number): Promise<string | null> {
  if (size > maxBytes) return null;
  // Small files (nearly all) in one read; large ones streamed.
  if (size <= 1024 * 1024)
    return createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  const hash = createHash('sha256');
  const handle = await open(path, 'r');
  try {
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

function kindOf(stat: Awaited<ReturnType<typeof lstat>>): FileState['type'] {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'dir';
  if (stat.isSymbolicLink()) return 'symlink';
  return 'other';
}

async function fileState(
  abs: string,
  maxHashBytes: number,
  mayHash: (size: number) => boolean = () => true,
): Promise<FileState | null> {
  let stat: Awaited<ReturnType<typeof lstat>>;
  try {
    stat = await lstat(abs);
  } catch {
    return null; // vanished between readdir and lstat
  }
  const type = kindOf(stat);
  let sha256: string | null = null;
  if (type === 'file' && mayHash(stat.size))
    sha256 = await hashFile(abs, stat.size, maxHashBytes).catch(() => null);
  else if (type === 'symlink')
    sha256 = createHash('sha256')
      .update(await readlink(abs).catch(() => ''))
      .digest('hex');
  return { type, mode: stat.mode & 0o7777, size: stat.size, sha256 };
}

export async function takeSnapshot(
  root: string,
  options: SnapshotOptions = DEFAULT_SNAPSHOT_OPTIONS,
): Promise<Snapshot> {
  const entries = new Map<string, FileState>();
  let truncated = false;
  const queue: string[] = [''];
  const budget = options.hashBudget ?? { ...NEW_FILE_HASH_BUDGET };
  while (queue.length > 0) {
    const rel = queue.shift()!;
    let names: string[];
    try {
      names = await readdir(join(root, rel));
    } catch {
      continue; // unreadable or vanished: the diff shows what could be seen
    }
    const children = names
      .sort()
      .filter((name) => !options.exclude?.has(rel === '' ? name : `${rel}/${name}`));
    if (entries.size + children.length > options.maxEntries) {
      children.length = Math.max(0, options.maxEntries - entries.size);
      truncated = true;
    }
    // A directory's entries a batch at a time: the walk is bound by syscall latency, not CPU.
    const states: (FileState | null)[] = [];
    for (let i = 0; i < children.length; i += 64) {
      const batch = children.slice(i, i + 64);
      states.push(
        ...(await Promise.all(
          batch.map((name) => {
            const childRel = rel === '' ? name : `${rel}/${name}`;
            const isNew = options.known !== undefined && !options.known.entries.has(childRel);
            const mayHash = (size: number) => {
              if (!isNew) return true;
              if (budget.files <= 0 || budget.bytes < size) return false;
              budget.files--;
              budget.bytes -= size;
              return true;
            };
            return fileState(join(root, rel, name), options.maxHashBytes, mayHash);
          }),
        )),
      );
    }
    children.forEach((name, i) => {
      const state = states[i];
      if (!state) return;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      entries.set(childRel, state);
      if (state.type === 'dir') queue.push(childRel);
    });
    if (truncated) break;
  }
  return { entries, truncated };
}

async function readHead(path: string, bytes: number): Promise<string | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead).toString('latin1');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Changes from `before` to `after`; created and modified regular files carry the first bytes read from `root`. */
export async function diffSnapshots(
  rootName: FsRoot,
  root: string,
  before: Snapshot,
  after: Snapshot,
): Promise<FsChange[]> {
  const changes: FsChange[] = [];
  for (const [path, now] of after.entries) {
    const was = before.entries.get(path) ?? null;
    let change: FsChange['change'] | null = null;
    if (!was) change = 'created';
    else if (was.type !== now.type || was.sha256 !== now.sha256 || was.size !== now.size) change = 'modified';
    else if (was.mode !== now.mode) change = 'mode';
    // Directory contents show up as their own entries; a directory's size changing is not news.
    if (change === 'modified' && now.type === 'dir' && was?.type === 'dir')
      change = was.mode !== now.mode ? 'mode' : null;
    if (!change) continue;
    const entry: FsChange = { root: rootName, path, change, before: was, after: now };
    // Only changes the evidence keeps get their first bytes read.
    if (now.type === 'file' && change !== 'mode' && changes.length < EVIDENCE_CAPS.fsChanges)
      entry.head = await readHead(join(root, path), EVIDENCE_CAPS.headBytes);
    changes.push(entry);
  }
  for (const [path, was] of before.entries) {
    if (!after.entries.has(path))
      changes.push({ root: rootName, path, change: 'deleted', before: was, after: null });
  }
  return changes;
}
