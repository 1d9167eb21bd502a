// The live-run registry with real processes: a detached process group of sleeps (one that ignores SIGTERM)
// is stopped as a sandboxed run would be, and once runs are being stopped no new one is accepted.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  registerRun,
  SandboxStoppedError,
  STOP_GRACE_MS,
  stopSandboxRuns,
  unregisterRun,
} from '../../../src/sandbox/live-runs.js';

/** Live (non-zombie) pids whose process group is `pgid`, read straight from /proc. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(name));
    } catch {
      // Gone while reading.
    }
  }
  return out;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25)))
    if (check()) return true;
  return check();
}

/** A detached shell (its own group, as a sandboxed run is) with `sleeps` sleeping children. */
async function sleepGroup(script: string): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  // Every sleep has started once the group holds the shell and all of them.
  const expected = (script.match(/sleep 60/g) ?? []).length + 1;
  expect(await until(() => groupMembers(child.pid!).length >= expected, 5_000)).toBe(true);
  return child;
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Stopped by the test, as it should be.
    }
  }
});

describe('live sandboxed runs', () => {
  it('stops every registered group (SIGTERM, then SIGKILL for what ignores it) and refuses new runs', async () => {
    const polite = await sleepGroup('sleep 60 & sleep 60 & wait');
    // Ignores SIGTERM, as hostile code may; its sleeps inherit the ignored disposition.
    const stubborn = await sleepGroup('trap "" TERM; sleep 60 & sleep 60 & wait');
    const untracked = await sleepGroup('sleep 60 & wait');
    started.push(polite, stubborn, untracked);
    const runs = [polite, stubborn].map((child) => {
      const run = registerRun([]);
      run.pid = child.pid!;
      return run;
    });

    const t0 = Date.now();
    expect(stopSandboxRuns()).toBe(2);
    const took = Date.now() - t0;

    expect(groupMembers(polite.pid!)).toEqual([]);
    expect(groupMembers(stubborn.pid!)).toEqual([]);
    // The stubborn group needed the SIGKILL after the grace period; generous upper bound only.
    expect(took).toBeGreaterThanOrEqual(STOP_GRACE_MS);
    expect(took).toBeLessThan(10_000);
    expect(runs.every((r) => r.stopped)).toBe(true);
    // A process that is not a registered run is none of its business.
    expect(groupMembers(untracked.pid!).length).toBe(2);

    expect(() => registerRun([])).toThrow(SandboxStoppedError);
    for (const run of runs) unregisterRun(run);
    expect(stopSandboxRuns()).toBe(0);
  });
});
