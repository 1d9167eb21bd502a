// A size-limited tmpfs under the sandbox's host directory (root only), so a run cannot fill the host disk
// with many files below the per-file size limit. Its pages are charged to the run's memory cgroup as they
// are written. The mount's source names this process, so a later start can unmount what a crash left.
import { execFile, execFileSync } from 'node:child_process';
import { readFile, rmdir, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tempDirOwner } from '../util/tempdir.js';
import { findTool } from './host-tools.js';

const run = promisify(execFile);
// The mount's source is plain `tmpfs`, as a container's is: the run reads it in /proc/self/mountinfo and `df`,
// so it must not name the tool. A stale disk is known by its mount point, a temp folder of ours (tempdir.ts).

export async function mountScratch(dir: string, bytes: number): Promise<void> {
  const mount = findTool('mount');
  if (!mount) throw new Error('mount not found');
  await run(mount, ['-t', 'tmpfs', '-o', `size=${bytes},mode=0711,nosuid,nodev`, 'tmpfs', dir]);
}

export async function unmountScratch(dir: string): Promise<void> {
  const umount = findTool('umount');
  if (umount) await run(umount, ['-l', dir]).catch(() => undefined);
}

/** At exit, when nothing can be awaited: the temp-dir cleanup that follows cannot remove a mount point. */
export function unmountScratchSync(dir: string): void {
  const umount = findTool('umount');
  try {
    if (umount) execFileSync(umount, ['-l', dir], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // Not mounted (any more).
  }
}

/** Unmounts scratch disks whose owning process is gone; returns their mount points. */
export async function removeStaleScratch(): Promise<string[]> {
  const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
  const removed: string[] = [];
  for (const line of mounts.split('\n')) {
    const [, target, type] = line.split(' ');
    const owner = tempDirOwner(target?.split('/').pop() ?? '');
    if (owner === null || type !== 'tmpfs' || !target || owner === process.pid) continue;
    const alive = await stat(`/proc/${owner}`).then(
      () => true,
      () => false,
    );
    if (alive) continue;
    // /proc/mounts escapes spaces and the like as octal.
    const path = target.replace(/\\([0-7]{3})/g, (_, o: string) =>
      String.fromCharCode(Number.parseInt(o, 8)),
    );
    await unmountScratch(path);
    await rmdir(path).catch(() => undefined);
    removed.push(path);
  }
  return removed;
}
