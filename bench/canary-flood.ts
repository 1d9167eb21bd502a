// The post-run canary search under a flood of written files, printed as figures (not assertions):
// `npx tsx bench/canary-flood.ts`. Two floods: 24 files of 16 MiB, and 19,000 tiny files. For each: the
// run's own time (inside the sandbox), the whole Sandbox.run (with snapshots and the canary search), and
// the longest event-loop stall meanwhile (what a service's health endpoint would wait).
// SKILLAUDIT_SRC=/other/checkout/src measures another checkout's sandbox the same way.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const src = process.env.SKILLAUDIT_SRC ?? new URL('../src', import.meta.url).pathname;
const { createSandbox } = (await import(
  `${src}/sandbox/index.ts`
)) as typeof import('../src/sandbox/index.js');

const FLOODS: { name: string; script: string }[] = [
  {
    name: '24 x 16 MiB files',
    script: 'for i in $(seq 1 24); do head -c 16777216 /dev/zero | tr "\\0" "a" > big-$i.bin; done',
  },
  {
    name: '19,000 tiny files',
    script: 'mkdir -p many && cd many && seq 1 19000 | while read -r i; do echo "$i" > "f$i"; done',
  },
];

for (const flood of FLOODS) {
  const sandbox = await createSandbox({ backend: 'bubblewrap', seedCanaries: true, diskBytes: 1024 ** 3 });
  try {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const start = performance.now();
    const result = await sandbox.run({
      argv: ['/bin/sh', '-c', flood.script],
      env: {},
      limits: { wallMs: 60_000, cpuSeconds: 60, memoryBytes: 1024 ** 3, maxFileBytes: 64 * 1024 ** 2 },
    });
    const total = performance.now() - start;
    loop.disable();
    const scan = result.evidence.canaryScan;
    console.log(
      `${flood.name.padEnd(20)} run ${(result.wallMs / 1000).toFixed(1)} s, Sandbox.run ${(total / 1000).toFixed(1)} s, ` +
        `longest event-loop stall ${(loop.max / 1e6).toFixed(0)} ms, fs changes ${result.evidence.fsChanges.length}` +
        (scan
          ? `, canary search ${scan.ms} ms over ${scan.filesScanned} files / ${(scan.bytesScanned / 1024 ** 2).toFixed(0)} MiB, skipped ${scan.filesSkipped} (${scan.stoppedFor ?? 'complete'})`
          : ''),
    );
  } finally {
    await sandbox.dispose();
  }
}
