// One audit's fork bomb must not starve another audit running at the same time: every run is the same host
// uid, so a per-uid process limit is shared; each run's own pids cgroup is its only process limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { fixture, requireSandboxTools } from './support.js';

let bomber: Sandbox;
let neighbour: Sandbox;

beforeAll(async () => {
  requireSandboxTools();
  bomber = await createSandbox({ backend: 'bubblewrap', files: [fixture('fork-hold.py', 0o644)] });
  neighbour = await createSandbox({ backend: 'bubblewrap', files: [fixture('fork-many.py', 0o644)] });
});

afterAll(async () => {
  await bomber?.dispose();
  await neighbour?.dispose();
});

describe('process limits are per run', () => {
  it("a fork bomb in one run leaves a concurrent run's forks alone", async () => {
    const limits = { wallMs: 8_000, cpuSeconds: 6, maxProcesses: 64 };
    const bomb = bomber.run({
      argv: ['python3', 'fork-hold.py'],
      env: {},
      limits: { ...limits, wallMs: 5_000 },
    });
    // Let the bomb reach its limit and hold it.
    await new Promise((r) => setTimeout(r, 1_500));
    const calm = await neighbour.run({ argv: ['python3', 'fork-many.py', '40'], env: {}, limits });
    // The bomb did exhaust its own limit.
    expect((await bomb).stdout).toMatch(/^holding \d+/);
    expect(calm.stdout.trim()).toBe('forks ok=40 failed=0');
    expect(calm.evidence.limits.applied.some((l) => l.limit === 'pids')).toBe(true);
  });
});
