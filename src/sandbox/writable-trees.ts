// The sandbox's writable trees, snapshotted before and after a run; the diff is the run's fs evidence.
// New content is scanned for canary tokens, so a secret copied into a file is caught wherever it lands.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { canaryTokensIn } from './canaries.js';
import type { CanaryRef, FsChange, FsRoot } from './evidence.js';
import { EVIDENCE_CAPS } from './evidence.js';
import { DEFAULT_SNAPSHOT_OPTIONS, diffSnapshots, type Snapshot, takeSnapshot } from './fs-snapshot.js';

export interface WritableTree {
  name: FsRoot;
  hostPath: string;
  /** Relative paths that belong to another tree mounted inside this one. */
  exclude?: ReadonlySet<string>;
}

export type TreeSnapshots = Map<FsRoot, Snapshot>;

const SCAN_BYTES = 16 * 1024 * 1024;

export async function snapshotTrees(trees: WritableTree[]): Promise<TreeSnapshots> {
  const out: TreeSnapshots = new Map();
  for (const tree of trees) {
    out.set(
      tree.name,
      await takeSnapshot(tree.hostPath, { ...DEFAULT_SNAPSHOT_OPTIONS, exclude: tree.exclude }),
    );
  }
  return out;
}

async function readForScan(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SCAN_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SCAN_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

export async function diffTrees(
  trees: WritableTree[],
  before: TreeSnapshots,
  after: TreeSnapshots,
  canaries: CanaryRef[],
): Promise<{ changes: FsChange[]; dropped: number }> {
  const changes: FsChange[] = [];
  for (const tree of trees) {
    const was = before.get(tree.name);
    const now = after.get(tree.name);
    if (!was || !now) continue;
    for (const change of await diffSnapshots(tree.name, tree.hostPath, was, now)) {
      if (
        canaries.length > 0 &&
        change.after?.type === 'file' &&
        (change.change === 'created' || change.change === 'modified')
      ) {
        const content = await readForScan(join(tree.hostPath, change.path)).catch(() => '');
        const found = canaryTokensIn(content, canaries);
        if (found.length > 0) change.canaryTokens = found;
      }
      changes.push(change);
    }
  }
  return {
    changes: changes.slice(0, EVIDENCE_CAPS.fsChanges),
    dropped: Math.max(0, changes.length - EVIDENCE_CAPS.fsChanges),
  };
}
