// Memory and process-count limits through cgroups, when this process may create them (root, or a delegated
// v2 subtree). Supports the unified v2 hierarchy and the v1 memory/pids/cpuacct controllers. Each run gets
// its own group, so its usage can be read and every member killed at the end.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LimitRecord } from './evidence.js';

const ROOT = '/sys/fs/cgroup';

export interface RunCgroup {
  /** Files a process writes its pid into to join (one per hierarchy). */
  procsFiles: string[];
  applied: LimitRecord[];
  usage(): Promise<{ cpuUserMs: number | null; cpuSystemMs: number | null; maxRssBytes: number | null }>;
  /** Pids still in the group. */
  members(): Promise<number[]>;
  remove(): Promise<void>;
}

async function readNumber(file: string): Promise<number | null> {
  try {
    const value = Number((await readFile(file, 'utf8')).trim());
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

async function readPids(files: string[]): Promise<number[]> {
  const pids: number[] = [];
  for (const file of files) {
    try {
      for (const line of (await readFile(file, 'utf8')).split('\n')) if (line.trim()) pids.push(Number(line));
    } catch {
      // The group is gone: no members.
    }
  }
  return [...new Set(pids)];
}

async function removeDirs(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    // rmdir fails while the kernel still tears members down; retry briefly.
    for (let i = 0; i < 20; i++) {
      try {
        await rmdir(dir);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  }
}

async function createV2(name: string, memoryBytes: number, maxProcesses: number): Promise<RunCgroup | null> {
  const controllers = await readFile(join(ROOT, 'cgroup.subtree_control'), 'utf8').catch(() => '');
  if (!controllers.includes('memory') || !controllers.includes('pids')) return null;
  const dir = join(ROOT, name);
  try {
    await mkdir(dir);
    await writeFile(join(dir, 'memory.max'), String(memoryBytes));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
    await writeFile(join(dir, 'pids.max'), String(maxProcesses));
  } catch {
    await removeDirs([dir]);
    return null;
  }
  const procs = join(dir, 'cgroup.procs');
  return {
    procsFiles: [procs],
    applied: [
      { limit: 'memory', value: memoryBytes, via: 'cgroup-v2' },
      { limit: 'pids', value: maxProcesses, via: 'cgroup-v2' },
    ],
    async usage() {
      const stat = await readFile(join(dir, 'cpu.stat'), 'utf8').catch(() => '');
      const field = (key: string) => {
        const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(stat);
        return m ? Math.round(Number(m[1]) / 1000) : null;
      };
      return {
        cpuUserMs: field('user_usec'),
        cpuSystemMs: field('system_usec'),
        maxRssBytes: await readNumber(join(dir, 'memory.peak')),
      };
    },
    members: () => readPids([procs]),
    async remove() {
      await writeFile(join(dir, 'cgroup.kill'), '1').catch(() => undefined);
      await removeDirs([dir]);
    },
  };
}

async function createV1(name: string, memoryBytes: number, maxProcesses: number): Promise<RunCgroup | null> {
  const memory = join(ROOT, 'memory', name);
  const pids = join(ROOT, 'pids', name);
  const cpuacctRoot = [join(ROOT, 'cpuacct'), join(ROOT, 'cpu,cpuacct')].find((d) =>
    existsSync(join(d, 'cgroup.procs')),
  );
  const cpuacct = cpuacctRoot ? join(cpuacctRoot, name) : null;
  const made: string[] = [];
  try {
    await mkdir(memory);
    made.push(memory);
    await writeFile(join(memory, 'memory.limit_in_bytes'), String(memoryBytes));
    await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), String(memoryBytes)).catch(() => undefined);
    await mkdir(pids);
    made.push(pids);
    await writeFile(join(pids, 'pids.max'), String(maxProcesses));
    if (cpuacct) {
      await mkdir(cpuacct);
      made.push(cpuacct);
    }
  } catch {
    await removeDirs(made.reverse());
    return null;
  }
  const procsFiles = made.map((d) => join(d, 'cgroup.procs'));
  return {
    procsFiles,
    applied: [
      { limit: 'memory', value: memoryBytes, via: 'cgroup-v1' },
      { limit: 'pids', value: maxProcesses, via: 'cgroup-v1' },
    ],
    async usage() {
      // cpuacct.stat is in USER_HZ ticks (100 per second on Linux).
      const stat = cpuacct ? await readFile(join(cpuacct, 'cpuacct.stat'), 'utf8').catch(() => '') : '';
      const ticks = (key: string) => {
        const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(stat);
        return m ? Number(m[1]) * 10 : null;
      };
      return {
        cpuUserMs: ticks('user'),
        cpuSystemMs: ticks('system'),
        maxRssBytes: await readNumber(join(memory, 'memory.max_usage_in_bytes')),
      };
    },
    members: () => readPids(procsFiles),
    remove: () => removeDirs([...made].reverse()),
  };
}

/** Removes run groups (`skillaudit-<pid>-…`) left by a SkillAudit process that is gone, killing any member. */
export async function removeStaleCgroups(): Promise<string[]> {
  const parents = existsSync(join(ROOT, 'cgroup.controllers'))
    ? [ROOT]
    : ['memory', 'pids', 'cpuacct', 'cpu,cpuacct'].map((c) => join(ROOT, c));
  const removed: string[] = [];
  for (const parent of parents) {
    const names = await readdir(parent).catch(() => [] as string[]);
    for (const name of names) {
      const owner = /^skillaudit-(\d+)-[0-9a-f]+$/.exec(name)?.[1];
      if (!owner || Number(owner) === process.pid || existsSync(`/proc/${owner}`)) continue;
      const dir = join(parent, name);
      for (const pid of await readPids([join(dir, 'cgroup.procs')])) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await removeDirs([dir]);
      removed.push(dir);
    }
  }
  return removed;
}

export type CgroupOutcome = { cgroup: RunCgroup } | { cgroup: null; reason: string };

/** A fresh group for one run, or why none could be made. */
export async function createRunCgroup(
  name: string,
  memoryBytes: number,
  maxProcesses: number,
): Promise<CgroupOutcome> {
  const unified = existsSync(join(ROOT, 'cgroup.controllers'));
  const cgroup = unified
    ? await createV2(name, memoryBytes, maxProcesses)
    : existsSync(join(ROOT, 'memory', 'cgroup.procs'))
      ? await createV1(name, memoryBytes, maxProcesses)
      : null;
  if (cgroup) return { cgroup };
  return {
    cgroup: null,
    reason: `no writable cgroup ${unified ? 'v2 subtree with memory and pids controllers' : 'v1 memory and pids hierarchy'} under ${ROOT}`,
  };
}
