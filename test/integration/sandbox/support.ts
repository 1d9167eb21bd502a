// Shared helpers for the sandbox integration tests: tool checks that fail loudly, fixtures, /proc scans.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTool, isRoot } from '../../../src/sandbox/host-tools.js';
import type { SeedFile } from '../../../src/sandbox/types.js';
import { tempDirOwner } from '../../../src/util/tempdir.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/sandbox');

/** Fails (never skips) when a tool the suite needs is missing; CI installs bubblewrap, strace, iproute2. */
export function requireSandboxTools(): void {
  const missing = ['bwrap', 'strace', 'setpriv', 'prlimit', 'ip', 'nsenter'].filter(
    (t) => findTool(t) === null,
  );
  if (missing.length > 0) {
    throw new Error(
      `sandbox tests need ${missing.join(', ')}: apt-get install -y bubblewrap strace iproute2 util-linux`,
    );
  }
  if (!isRoot())
    throw new Error(
      'sandbox integration tests run as root (as CI does): the network sink and cgroups need it',
    );
}

export function fixture(name: string, mode = 0o755): SeedFile {
  return { path: name, content: readFileSync(join(FIXTURES, name)), mode };
}

/** A process's command line, NUL-separated; empty once it has exited (it may go between a listing and a read). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .map(Number)
    .filter((pid) => commandLine(pid).includes(marker));
}

/** Polls `check` every 50 ms for up to `ms`. */
export async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (check()) return true;
  return check();
}

/** What SkillAudit process `pid` may have left in the system: namespaces, cgroups, scratch mounts. */
export function leftovers(pid: number): string[] {
  const netns = existsSync('/run/netns') ? readdirSync('/run/netns') : [];
  const cgroups = readdirSync('/sys/fs/cgroup');
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n');
  return [
    ...netns.filter((n) => n.startsWith(`skau-${pid}-`)),
    ...cgroups.filter((n) => n.startsWith(`skillaudit-${pid}-`)),
    // Scratch disks are mounted on one of the process's temp folders (tempdir.ts).
    ...mounts.filter((m) => {
      const [, target, type] = m.split(' ');
      return type === 'tmpfs' && tempDirOwner(target?.split('/').pop() ?? '') === pid;
    }),
  ];
}
