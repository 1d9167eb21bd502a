// The built-in agent runs one sandboxed command per tool call; a trial's evidence is all of them as one
// bundle, with each path's file changes folded into a single net change.
import type { BackendName, EvidenceBundle, FsChange } from '../sandbox/index.js';

export function emptyEvidence(backend: BackendName): EvidenceBundle {
  return {
    version: 1,
    backend,
    argv: [],
    processes: [],
    network: { requested: 'none', mode: 'loopback-only', attempts: [], dnsQueries: [], sink: [] },
    sensitiveReads: [],
    fsChanges: [],
    resources: { wallMs: 0, cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null },
    limits: { applied: [], notApplied: [] },
    killedFor: null,
    capture: { strace: false, note: 'no command ran' },
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    canaries: [],
    dropped: { processes: 0, attempts: 0, sensitiveReads: 0, fsChanges: 0, sink: 0 },
  };
}

/** Net change of one path over consecutive runs: created-then-modified is created, created-then-deleted is nothing. */
function foldChanges(changes: FsChange[]): FsChange[] {
  const byPath = new Map<string, FsChange>();
  for (const next of changes) {
    const key = `${next.root}\0${next.path}`;
    const prev = byPath.get(key);
    if (!prev) {
      byPath.set(key, next);
      continue;
    }
    const before = prev.before;
    const after = next.after;
    if (!before && !after) {
      byPath.delete(key);
      continue;
    }
    const change: FsChange['change'] = !before
      ? 'created'
      : !after
        ? 'deleted'
        : next.change === 'mode' && prev.change === 'mode'
          ? 'mode'
          : 'modified';
    byPath.set(key, { ...next, before, after, change });
  }
  return [...byPath.values()];
}

export function mergeEvidence(bundles: EvidenceBundle[], backend: BackendName): EvidenceBundle {
  const first = bundles[0];
  if (!first) return emptyEvidence(backend);
  const sum = (pick: (b: EvidenceBundle) => number | null): number | null =>
    bundles.some((b) => pick(b) !== null) ? bundles.reduce((n, b) => n + (pick(b) ?? 0), 0) : null;
  return {
    ...first,
    argv: bundles.flatMap((b) => b.argv),
    processes: bundles.flatMap((b) => b.processes),
    network: {
      ...first.network,
      attempts: bundles.flatMap((b) => b.network.attempts),
      dnsQueries: bundles.flatMap((b) => b.network.dnsQueries),
      sink: bundles.flatMap((b) => b.network.sink),
    },
    sensitiveReads: bundles.flatMap((b) => b.sensitiveReads),
    fsChanges: foldChanges(bundles.flatMap((b) => b.fsChanges)),
    resources: {
      wallMs: bundles.reduce((n, b) => n + b.resources.wallMs, 0),
      cpuUserMs: sum((b) => b.resources.cpuUserMs),
      cpuSystemMs: sum((b) => b.resources.cpuSystemMs),
      maxRssBytes: bundles.some((b) => b.resources.maxRssBytes !== null)
        ? Math.max(...bundles.map((b) => b.resources.maxRssBytes ?? 0))
        : null,
    },
    killedFor: bundles.find((b) => b.killedFor)?.killedFor ?? null,
    stdout: bundles.map((b) => b.stdout).join(''),
    stderr: bundles.map((b) => b.stderr).join(''),
    stdoutTruncated: bundles.some((b) => b.stdoutTruncated),
    stderrTruncated: bundles.some((b) => b.stderrTruncated),
    dropped: {
      processes: bundles.reduce((n, b) => n + b.dropped.processes, 0),
      attempts: bundles.reduce((n, b) => n + b.dropped.attempts, 0),
      sensitiveReads: bundles.reduce((n, b) => n + b.dropped.sensitiveReads, 0),
      fsChanges: bundles.reduce((n, b) => n + b.dropped.fsChanges, 0),
      sink: bundles.reduce((n, b) => n + b.dropped.sink, 0),
    },
  };
}
