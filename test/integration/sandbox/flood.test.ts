// A run that floods its folders with written files (huge ones, thousands of tiny ones) to make the post-run
// evidence work slow: the search for canary tokens is capped and runs off the event loop, so the run costs
// about its own time, the event loop stays responsive, and a secret copied among the flood is still found.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaryHits } from '../../../src/sandbox/canaries.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { requireSandboxTools } from './support.js';

let sandbox: Sandbox;

beforeAll(async () => {
  requireSandboxTools();
  sandbox = await createSandbox({ backend: 'bubblewrap', seedCanaries: true, diskBytes: 512 * 1024 ** 2 });
});

afterAll(async () => {
  await sandbox?.dispose();
});

describe('post-run evidence under a file flood', () => {
  it('stays within the run budget, keeps the event loop free and still finds a copied secret', async () => {
    const script = [
      'for i in $(seq 1 12); do head -c 16777216 /dev/zero | tr "\\0" "a" > "big-$i.bin"; done',
      'mkdir many && (cd many && seq 1 6000 | while read -r i; do echo "$i" > "f$i"; done)',
      'cp ~/.aws/credentials zz-staged.txt',
    ].join('\n');
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const start = performance.now();
    const result = await sandbox.run({
      argv: ['/bin/sh', '-c', script],
      env: {},
      limits: { wallMs: 60_000, cpuSeconds: 60, memoryBytes: 768 * 1024 ** 2, maxFileBytes: 32 * 1024 ** 2 },
    });
    const total = performance.now() - start;
    loop.disable();
    expect(result.exitCode).toBe(0);
    // What the flood adds after the run: snapshots and a capped search, seconds rather than minutes.
    expect(total - result.wallMs).toBeLessThan(15_000);
    expect(loop.max / 1e6).toBeLessThan(1_000);
    const scan = result.evidence.canaryScan!;
    expect(scan.filesSkipped).toBeGreaterThan(0);
    expect(scan.stoppedFor).not.toBeNull();
    const hits = findCanaryHits(result.evidence).filter((h) => h.kind === 'file');
    expect(hits.map((h) => h.where)).toContain('workspace:zz-staged.txt');
  }, 150_000);
});
