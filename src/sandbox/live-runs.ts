// Every sandboxed run still going, so that Ctrl-C, a service shutting down or a plain exit stops them all.
// A run is started detached (its own session and process group), so a terminal's SIGINT never reaches it
// and nothing ties its life to ours: strace has no parent-death signal, and bwrap's --die-with-parent
// only fires when strace (its parent) dies. Stopping a run therefore signals its whole tree: the group
// leader (strace, or the command chain that ends in bwrap), every descendant (bwrap, the pid-namespace
// init and everything under it, each in bwrap's new session) and every member of its cgroups.
import { readFileSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { onInterrupt } from '../util/interrupt.js';
import { descendants, isAlive, killAll } from './process-tree.js';

/** How long a run may take to end on SIGTERM (strace flushing its log, an agent harness) before SIGKILL. */
export const STOP_GRACE_MS = 500;
/** After SIGKILL the kernel needs a moment to tear a pid namespace down; past this, give up waiting. */
const KILL_WAIT_MS = 1_000;
const POLL_MS = 10;

export interface LiveRun {
  /** The run's top process, leader of its own process group; null until it is spawned. */
  pid: number | null;
  /** `cgroup.procs` files of the run's cgroups (none without root). */
  readonly procsFiles: readonly string[];
  /** True once stopSandboxRuns stopped it: its result is not evidence of anything. */
  stopped: boolean;
}

/** A run refused or ended because the process is stopping every sandboxed run. */
export class SandboxStoppedError extends Error {
  readonly code = 'SANDBOX_STOPPED';
  constructor() {
    super('sandboxed runs were stopped (interrupted or shutting down)');
    this.name = 'SandboxStoppedError';
  }
}

const live = new Set<LiveRun>();
let closed = false;
let hooked = false;

function cgroupMembers(procsFiles: readonly string[]): number[] {
  const pids: number[] = [];
  for (const file of procsFiles) {
    try {
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) pids.push(Number(line));
    } catch {
      // The group is gone: no members.
    }
  }
  return pids;
}

/** Adds every process of the run now visible to `into` (a tree whose top died re-parents its children). */
function collect(run: LiveRun, into: Set<number>): void {
  if (run.pid === null) return;
  into.add(run.pid);
  for (const pid of descendants(run.pid)) into.add(pid);
  for (const pid of cgroupMembers(run.procsFiles)) into.add(pid);
}

function signalRuns(runs: LiveRun[], known: Set<number>, signal: NodeJS.Signals): void {
  for (const run of runs) {
    collect(run, known);
    if (run.pid === null) continue;
    try {
      process.kill(-run.pid, signal);
    } catch {
      // The group is empty already.
    }
  }
  killAll(known, signal);
}

/** Blocks this thread: stopping must not let other code run in between (see util/interrupt.ts). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function waitGone(runs: LiveRun[], known: Set<number>, ms: number): boolean {
  for (const end = Date.now() + ms; ; sleepSync(POLL_MS)) {
    for (const run of runs) collect(run, known);
    for (const pid of known) if (!isAlive(pid)) known.delete(pid);
    if (known.size === 0) return true;
    if (Date.now() >= end) return false;
  }
}

/**
 * Stops every live sandboxed run: SIGTERM to each run's process group, tree and cgroup, SIGKILL to what is
 * left after `graceMs`, then waits (bounded) until none of their processes is alive. From then on new runs
 * are refused (SandboxStoppedError), and the stopped ones reject with it: this is for shutting down. It
 * blocks for at most `graceMs` + 1 s and returns how many runs it stopped. Safe to call again.
 */
export function stopSandboxRuns(graceMs = STOP_GRACE_MS): number {
  closed = true;
  const runs = [...live];
  if (runs.length === 0) return 0;
  const known = new Set<number>();
  for (const run of runs) run.stopped = true;
  signalRuns(runs, known, 'SIGTERM');
  if (!waitGone(runs, known, graceMs)) {
    signalRuns(runs, known, 'SIGKILL');
    waitGone(runs, known, KILL_WAIT_MS);
  }
  // The runs' own cleanup may never get to run (the process is exiting): empty cgroups go now.
  for (const run of runs) for (const file of run.procsFiles) removeEmptyDir(dirname(file));
  return runs.length;
}

function removeEmptyDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Still tearing down or already gone: the run's own cleanup or the next start removes it.
  }
}

/** Registers a run about to be spawned (set its pid right after); throws once runs are being stopped. */
export function registerRun(procsFiles: readonly string[]): LiveRun {
  if (closed) throw new SandboxStoppedError();
  if (!hooked) {
    hooked = true;
    onInterrupt(() => {
      const n = stopSandboxRuns();
      return `stopped ${n} sandboxed run${n === 1 ? '' : 's'}`;
    });
  }
  const run: LiveRun = { pid: null, procsFiles, stopped: false };
  live.add(run);
  return run;
}

export function unregisterRun(run: LiveRun): void {
  live.delete(run);
}
