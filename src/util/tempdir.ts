import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atExit } from './interrupt.js';

// Every temporary folder SkillAudit makes is registered here, so that it is removed on success, on
// failure, and when the process is interrupted (SIGINT, SIGTERM, SIGHUP) or exits early (interrupt.ts,
// after what the process started was stopped). A folder's name carries the owner's pid: what a process
// killed with SIGKILL left (traces, the sink's CA key, extracted uploads) is removed by the next start.
const live = new Set<string>();
let hooked = false;
const OWNED_NAME = /^skillaudit-[a-z0-9]+-(\d+)-/;

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort at exit: nothing else can be done.
    }
  }
  live.clear();
}

/** The pid of the SkillAudit process that made a temp folder of this name, or null when it is not one of ours. */
export function tempDirOwner(name: string): number | null {
  const owner = OWNED_NAME.exec(name)?.[1];
  return owner ? Number(owner) : null;
}

/** Removes temp folders whose owning SkillAudit process is gone; returns their paths. */
export function removeStaleTempDirs(root = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const owner = tempDirOwner(name);
    if (!owner || owner === process.pid || existsSync(`/proc/${owner}`)) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
      removed.push(join(root, name));
    } catch {
      // Another user's, or a scratch disk still mounted there (the sandbox unmounts those on start).
    }
  }
  return removed;
}

export function makeTempDir(prefix: string): string {
  if (!hooked) {
    hooked = true;
    atExit(removeAll);
    removeStaleTempDirs();
  }
  const dir = mkdtempSync(join(tmpdir(), `skillaudit-${prefix}-${process.pid}-`));
  live.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  live.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
