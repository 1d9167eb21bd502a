// Scanner benchmark on generated corpora (bench/corpus.ts): for each size, the CLI's throughput with start-up
// included (`skillaudit scan <folder>`, several runs, median wall time), its peak RSS, and the per-skill scan
// latency in process (one core, after warm-up). The machine may be shared: each run prints the 1-minute load
// average next to its figure, so a slow run on a busy machine can be told apart from a slow scanner. The floor is
// the time to merely read the same files in process (no parsing, no scanning); the ratio says what scanning adds.
// Run: npm run build && npx tsx bench/scan.ts [sizes=200,1000] [runs=3] [--build <folder with bin/ and dist/>]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { writeCorpus } from './corpus.js';

const args = process.argv.slice(2);
const buildAt = args.indexOf('--build');
const build = resolve(buildAt >= 0 ? args.splice(buildAt, 2)[1]! : '.');
const sizes = (args[0] ?? '200,1000').split(',').map(Number);
const runs = Number(args[1] ?? 3);

type Intake = typeof import('../src/intake/index.js');
type Engine = typeof import('../src/scan/engine.js');
const { openSource } = (await import(pathToFileURL(join(build, 'dist/intake/index.js')).href)) as Intake;
const { scanSkill } = (await import(pathToFileURL(join(build, 'dist/scan/engine.js')).href)) as Engine;

const load = (): string => loadavg()[0]!.toFixed(1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface CliRun {
  seconds: number;
  rssMb: number;
  cpuSeconds: number;
  load: string;
}

/** One CLI scan under GNU time: wall seconds, peak RSS, user+system CPU. */
function cliRun(dir: string): CliRun {
  const before = load();
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M %U %S',
      process.execPath,
      join(build, 'bin/skillaudit.js'),
      'scan',
      dir,
      '--format',
      'json',
    ].concat(['--fail-on', 'none', '-q', '--out', '/dev/null']),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`scan failed: ${r.stderr}`);
  const [seconds, rssKb, user, system] = r.stderr
    .trim()
    .split('\n')
    .pop()!
    .split(' ')
    .map(Number) as number[];
  return { seconds: seconds!, rssMb: rssKb! / 1024, cpuSeconds: user! + system!, load: before };
}

/** Seconds to read every file under `dir` once (cold start of nothing: the page cache is warm after the runs). */
function readFloor(dir: string): number {
  const t = performance.now();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) readFileSync(join(entry.parentPath, entry.name));
  }
  return (performance.now() - t) / 1000;
}

/** Per-skill scan latency on this thread, after one warm-up pass over the first skills. */
async function perSkill(dir: string): Promise<{ p50: number; p95: number; load: string }> {
  const handle = await openSource(dir);
  try {
    const skills = handle.skills.flatMap((e) => (e.ok ? [e.skill] : []));
    for (const skill of skills.slice(0, 20)) await scanSkill(skill);
    const before = load();
    const times: number[] = [];
    for (const skill of skills) {
      const t = performance.now();
      await scanSkill(skill);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p95: percentile(times, 95), load: before };
  } finally {
    await handle.dispose();
  }
}

console.log(`build ${build}, ${runs} CLI runs per size`);
for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-'));
  try {
    const stats = writeCorpus(dir, size);
    console.log(`\n${size} skills (${stats.files} files, ${(stats.bytes / 1e6).toFixed(1)} MB)`);
    const cli: CliRun[] = [];
    for (let i = 0; i < runs; i++) {
      const run = cliRun(dir);
      cli.push(run);
      console.log(
        `  CLI run ${i + 1}: ${run.seconds.toFixed(2)} s, ${(size / run.seconds).toFixed(1)} skills/s, ` +
          `CPU ${run.cpuSeconds.toFixed(1)} s, peak RSS ${run.rssMb.toFixed(0)} MB (load ${run.load})`,
      );
    }
    const wall = median(cli.map((r) => r.seconds));
    console.log(
      `  CLI median: ${wall.toFixed(2)} s = ${(size / wall).toFixed(1)} skills/s (start-up included); ` +
        `peak RSS max ${Math.max(...cli.map((r) => r.rssMb)).toFixed(0)} MB`,
    );
    const floor = readFloor(dir);
    console.log(
      `  read floor (every file read once, in process): ${floor.toFixed(3)} s; the CLI scan takes ${(wall / floor).toFixed(0)}× that`,
    );
    const latency = await perSkill(dir);
    console.log(
      `  per skill (in process, one core): p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms (load ${latency.load})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
