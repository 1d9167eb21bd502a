// The sandbox's writable trees, snapshotted before and after a run; the diff is the run's fs evidence.
import { join } from 'node:path';
import { type CanaryScanLimits, type CanaryScanResult, scanFilesForCanaries } from './canary-scan.js';
import type { CanaryRef, FsChange, FsRoot } from './evidence.js';
import { EVIDENCE_CAPS } from './evidence.js';
import {
  DEFAULT_SNAPSHOT_OPTIONS,
  diffSnapshots,
  NEW_FILE_HASH_BUDGET,
  type Snapshot,
  takeSnapshot,
} from './fs-snapshot.js';

export interface WritableTree {
  name: FsRoot;
  hostPath: string;
  /** Relative paths that belong to another tree mounted inside this one. */
  exclude?: ReadonlySet<string>;
}

export type TreeSnapshots = Map<FsRoot, Snapshot>;

/** Snapshots every tree; with `before`, files a run created are hashed only within a budget. */
export async function snapshotTrees(trees: WritableTree[], before?: TreeSnapshots): Promise<TreeSnapshots> {
  const out: TreeSnapshots = new Map();
  const hashBudget = { ...NEW_FILE_HASH_BUDGET };
  for (const tree of trees) {
    out.set(
      tree.name,
      await takeSnapshot(tree.hostPath, {
        ...DEFAULT_SNAPSHOT_OPTIONS,
        exclude: tree.exclude,
        known: before?.get(tree.name),
        hashBudget,
      }),
    );
  }
  return out;
}

export async function diffTrees(
  trees: WritableTree[],
  before: TreeSnapshots,
  after: TreeSnapshots,
  canaries: CanaryRef[],
  scanLimits?: CanaryScanLimits,
): Promise<{ changes: FsChange[]; dropped: number; canaryScan: Omit<CanaryScanResult, 'hits'> }> {
  const changes: FsChange[] = [];
  const written = new Map<string, FsChange>();
  for (const tree of trees) {
    const was = before.get(tree.name);
    const now = after.get(tree.name);
    if (!was || !now) continue;
    for (const change of await diffSnapshots(tree.name, tree.hostPath, was, now)) {
      if (change.after?.type === 'file' && (change.change === 'created' || change.change === 'modified'))
        written.set(join(tree.hostPath, change.path), change);
      changes.push(change);
    }
  }
  // New content is searched for canary tokens, so a secret copied into a file is caught wherever it lands.
  // Smallest first: a copied key or config is small, and a flood of big files must not push it past the caps.
  const order = [...written].sort(([, a], [, b]) => (a.after?.size ?? 0) - (b.after?.size ?? 0));
  const { hits, ...canaryScan } = await scanFilesForCanaries(
    order.map(([path]) => path),
    canaries,
    scanLimits,
  );
  for (const [path, names] of hits) written.get(path)!.canaryTokens = names;
  // A file holding a canary is kept however many changes the run made.
  const ranked = [...changes.filter((c) => c.canaryTokens), ...changes.filter((c) => !c.canaryTokens)];
  return {
    changes: ranked.slice(0, EVIDENCE_CAPS.fsChanges),
    dropped: Math.max(0, changes.length - EVIDENCE_CAPS.fsChanges),
    canaryScan,
  };
}
