// Sandbox overheads, printed as figures (not assertions): `npx tsx bench/sandbox.ts [runs]`.
// - start overhead: /bin/true as a bare process vs bwrap alone (same policy, no bookkeeping) vs a full
//   Sandbox.run (snapshots, cgroup, limits) without and with strace;
// - evidence-capture overhead: the same workloads with strace vs without, as ratios.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { findTool } from '../src/sandbox/host-tools.js';
import { createSandbox } from '../src/sandbox/index.js';
import type { RunRequest, Sandbox } from '../src/sandbox/types.js';

const RUNS = Number(process.argv[2] ?? 30);

function spawnWait(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function time(label: string, fn: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await fn(); // warm caches
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  const p90 = samples[Math.floor(samples.length * 0.9)]!;
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms   p90 ${p90.toFixed(1).padStart(7)} ms`,
  );
  return median;
}

const bwrap = findTool('bwrap');
const setpriv = findTool('setpriv');
if (!bwrap || !setpriv)
  throw new Error('bench needs bwrap and setpriv (apt-get install -y bubblewrap util-linux)');
const bareBwrap = [
  setpriv,
  ...['--reuid', '65534', '--regid', '65534', '--clear-groups', '--', bwrap],
  ...[
    '--unshare-all',
    '--unshare-user',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--ro-bind',
    '/',
    '/',
  ],
  ...['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/home', '/bin/true'],
];

const plain = await createSandbox({ backend: 'bubblewrap', trace: false });
const traced = await createSandbox({ backend: 'bubblewrap' });
const canaried = await createSandbox({ backend: 'bubblewrap', seedCanaries: true });
const run = (sandbox: Sandbox, req: Partial<RunRequest>) => () =>
  sandbox.run({ argv: ['/bin/true'], env: {}, ...req });
const WORKLOAD = [
  '/bin/sh',
  '-c',
  'for i in 1 2 3 4 5 6 7 8 9 10; do cat /etc/hostname >/dev/null; done; python3 -c "import json"',
];

console.log(`sandbox bench: ${RUNS} runs each, after one warm-up`);
const bare = await time('bare process (/bin/true)', () => spawnWait(['/bin/true']));
const bwrapOnly = await time('bwrap alone, full policy (/bin/true)', () => spawnWait(bareBwrap));
const noTrace = await time('Sandbox.run /bin/true, no strace', run(plain, {}));
const withTrace = await time('Sandbox.run /bin/true, strace', run(traced, {}));
const withCanaries = await time('Sandbox.run /bin/true, strace + canaries', run(canaried, {}));
const workNoTrace = await time(
  'Sandbox.run sh+cat×10+python, no strace',
  run(plain, { argv: WORKLOAD }),
  Math.ceil(RUNS / 3),
);
const workTrace = await time(
  'Sandbox.run sh+cat×10+python, strace',
  run(traced, { argv: WORKLOAD }),
  Math.ceil(RUNS / 3),
);
let sinkRun: number | null = null;
if (process.getuid?.() === 0) {
  const start = performance.now();
  await canaried.run({ argv: ['/bin/true'], env: {}, network: 'sink' });
  console.log(
    `${'network sink start (first sink run)'.padEnd(44)} ${(performance.now() - start).toFixed(1)} ms`,
  );
  sinkRun = await time(
    'Sandbox.run /bin/true, strace + canaries + sink',
    run(canaried, { network: 'sink' }),
    Math.ceil(RUNS / 3),
  );
}
await plain.dispose();
await traced.dispose();
await canaried.dispose();

console.log('\nratios');
console.log(
  `  bwrap start vs bare process:            ${(bwrapOnly / bare).toFixed(1)}x (+${(bwrapOnly - bare).toFixed(1)} ms)`,
);
console.log(
  `  Sandbox.run vs bare process:            ${(noTrace / bare).toFixed(1)}x (+${(noTrace - bare).toFixed(1)} ms)`,
);
console.log(`  strace capture, /bin/true:              ${(withTrace / noTrace).toFixed(2)}x`);
console.log(`  strace capture, sh+cat×10+python:       ${(workTrace / workNoTrace).toFixed(2)}x`);
console.log(`  canaries (seeded HOME snapshot + scan):  ${(withCanaries / withTrace).toFixed(2)}x`);
if (sinkRun !== null)
  console.log(`  sink run vs no-network run:             ${(sinkRun / withCanaries).toFixed(2)}x`);
