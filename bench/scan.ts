// Scanner benchmark, the reference for every speed claim. For each corpus (real skills with --corpus DIR,
// and generated ones from bench/corpus.ts):
//   - the CLI as a user runs it (`skillaudit scan <folder> --format json --out <file>`, start-up included,
//     several runs): wall seconds, skills/s, MB/s, CPU seconds (user + system), peak RSS;
//   - the read floor: `cat` of every file of the corpus (one process, like the CLI), and the ratio of the
//     CLI's median wall time to it;
//   - per skill, in process on one thread: intake + scan milliseconds (p50, p95, max) and, for the ten
//     slowest skills, their size and where the time went (intake, markdown, prose rules, tree-sitter parse,
//     code rules, scoring; src/util/timing.ts).
// The machine may be shared: every figure is printed with the 1-minute load average when it was taken, and
// CPU seconds are the figure to compare across runs under load.
// Run: npm run build && npx tsx bench/scan.ts [--corpus DIR]... [--sizes 200,1000 | 200,1000] [--runs 3] [--build DIR]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { writeCorpus } from './corpus.js';

interface Args {
  corpora: string[];
  sizes: number[];
  runs: number;
  build: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { corpora: [], sizes: [], runs: 3, build: resolve('.') };
  let sizesGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    // A bare list of sizes, as the earlier form of this benchmark took it (`bench/scan.ts 1000`).
    if (/^\d[\d,]*$/.test(flag)) {
      sizesGiven = true;
      args.sizes = flag.split(',').map(Number);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--corpus') args.corpora.push(resolve(value));
    else if (flag === '--sizes') {
      sizesGiven = true;
      args.sizes = value === '' ? [] : value.split(',').map(Number);
    } else if (flag === '--runs') args.runs = Number(value);
    else if (flag === '--build') args.build = resolve(value);
    else throw new Error(`unknown argument ${flag}`);
    i++;
  }
  if (!sizesGiven) args.sizes = args.corpora.length > 0 ? [] : [200, 1000];
  return args;
}

const args = parseArgs(process.argv.slice(2));

type Intake = typeof import('../src/intake/index.js');
type Engine = typeof import('../src/scan/engine/scan.js');
type Timing = typeof import('../src/util/timing.js');
const load = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(args.build, 'dist', path)).href)) as T;
const { openSource, loadSkillFolder } = await load<Intake>('intake/index.js');
const { scanSkill } = await load<Engine>('scan/engine/scan.js');
const { PHASES, startTiming, stopTiming, startUnitTiming, stopUnitTiming } =
  await load<Timing>('util/timing.js');
type UnitCost = import('../src/util/timing.js').UnitCost;

const loadNow = (): string => loadavg()[0]!.toFixed(1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface CliRun {
  seconds: number;
  rssMb: number;
  cpuSeconds: number;
  load: string;
}

/**
 * One CLI scan under GNU time, as a user runs it: wall seconds, peak RSS, user + system CPU. Cold (`--no-cache`)
 * unless a cache folder is given: the scan cache is on by default, and a second run over the same folder
 * would otherwise measure a re-scan.
 */
function cliRun(dir: string, out: string, cacheDir: string | null = null): CliRun {
  const before = loadNow();
  const cache = cacheDir ? ['--cache-dir', cacheDir] : ['--no-cache'];
  const cli = [
    join(args.build, 'bin/skillaudit.js'),
    'scan',
    dir,
    '--format',
    'json',
    '--out',
    out,
    ...cache,
  ];
  const r = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %M %U %S', process.execPath, ...cli, '--fail-on', 'never', '-q'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`scan failed: ${r.stderr}`);
  const [seconds, rssKb, user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { seconds: seconds!, rssMb: rssKb! / 1024, cpuSeconds: user! + system!, load: before };
}

/** Every regular file under `dir`, with its size. */
function listFiles(dir: string): { paths: string[]; bytes: number } {
  const paths: string[] = [];
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    paths.push(path);
    bytes += statSync(path).size;
  }
  return { paths, bytes };
}

/** Seconds for `cat` to read every file once (one process, page cache warm): the floor of any scan. */
function readFloor(dir: string): number {
  const t = performance.now();
  const r = spawnSync('sh', ['-c', 'find "$1" -type f -exec cat {} + > /dev/null', 'sh', dir]);
  if (r.status !== 0) throw new Error(`read floor failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

interface SkillTime {
  name: string;
  files: number;
  bytes: number;
  ms: number;
  phases: Record<string, number>;
}

/** Per-skill intake + scan on this thread with phase times, after one warm-up pass over the first skills. */
async function perSkill(dir: string): Promise<{ times: SkillTime[]; load: string }> {
  const handle = await openSource(dir);
  try {
    const skills = handle.skills.flatMap((e) => (e.ok ? [e.skill] : []));
    for (const skill of skills.slice(0, 20)) await scanSkill(skill);
    const before = loadNow();
    const times: SkillTime[] = [];
    for (const listed of skills) {
      const phases = startTiming();
      let t = performance.now();
      // Intake again, timed (the page cache is warm, as it is for the CLI runs).
      const skill = await loadSkillFolder(listed.root, listed.provenance);
      phases.intake = performance.now() - t;
      t = performance.now();
      await scanSkill(skill);
      stopTiming();
      const ms = phases.intake + performance.now() - t;
      const bytes = skill.files.reduce((n, f) => n + f.size, 0);
      const name = relative(dir, skill.root) || skill.folderName;
      times.push({ name, files: skill.files.length, bytes, ms, phases: { ...phases } });
    }
    return { times, load: before };
  } finally {
    await handle.dispose();
  }
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function benchCorpus(dir: string, title: string): Promise<void> {
  const { paths, bytes } = listFiles(dir);
  const mb = bytes / 1e6;
  const outDir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-out-'));
  try {
    const out = join(outDir, 'scan.json');
    const cli: CliRun[] = [];
    const first = cliRun(dir, out);
    const skills = (JSON.parse(readFileSync(out, 'utf8')) as { skills: unknown[] }).skills.length;
    console.log(`\n## ${title}: ${skills} skills, ${paths.length} files, ${fmt(mb)} MB`);
    console.log('\n| CLI run | wall s | skills/s | MB/s | CPU s | peak RSS MB | load |');
    console.log('|---|---|---|---|---|---|---|');
    cli.push(first);
    for (let i = 1; i < args.runs; i++) cli.push(cliRun(dir, out));
    for (const [i, r] of cli.entries()) {
      console.log(
        `| ${i + 1} | ${fmt(r.seconds, 2)} | ${fmt(skills / r.seconds)} | ${fmt(mb / r.seconds, 2)} | ` +
          `${fmt(r.cpuSeconds)} | ${fmt(r.rssMb, 0)} | ${r.load} |`,
      );
    }
    const wall = median(cli.map((r) => r.seconds));
    const cpu = median(cli.map((r) => r.cpuSeconds));
    const floors = [readFloor(dir), readFloor(dir), readFloor(dir)];
    const floor = median(floors);
    console.log(
      `\nmedian: ${fmt(wall, 2)} s wall = ${fmt(skills / wall)} skills/s, ${fmt(mb / wall, 2)} MB/s; ` +
        `CPU ${fmt(cpu)} s (${fmt(skills / cpu)} skills per CPU second); peak RSS max ` +
        `${fmt(Math.max(...cli.map((r) => r.rssMb)), 0)} MB`,
    );
    console.log(
      `read floor (cat of every file, one process): ${fmt(floor, 3)} s; the CLI takes ${fmt(wall / floor)}× that`,
    );
    // A re-scan with nothing changed: the first run fills a fresh cache, the second reads it.
    const cacheDir = join(outDir, 'cache');
    cliRun(dir, out, cacheDir);
    const again = cliRun(dir, out, cacheDir);
    console.log(
      `re-scan, nothing changed (cache filled by a run before): ${fmt(again.seconds, 2)} s wall = ` +
        `${fmt(skills / again.seconds)} skills/s; CPU ${fmt(again.cpuSeconds)} s; peak RSS ${fmt(again.rssMb, 0)} MB; ` +
        `load ${again.load}`,
    );
    const units = startUnitTiming();
    const { times, load: perLoad } = await perSkill(dir);
    stopUnitTiming();
    const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
    const total = sorted.reduce((a, b) => a + b, 0);
    console.log(
      `\nper skill (in process, one thread, intake + scan; load ${perLoad}): p50 ${fmt(percentile(sorted, 50))} ms, ` +
        `p95 ${fmt(percentile(sorted, 95))} ms, max ${fmt(sorted.at(-1)!)} ms; sum ${fmt(total / 1000, 2)} s`,
    );
    const sums = Object.fromEntries(
      PHASES.map((p) => [p, times.reduce((n, t) => n + (t.phases[p] ?? 0), 0)]),
    );
    console.log(
      `time by phase, all skills: ${PHASES.map((p) => `${p} ${fmt(sums[p]! / 1000, 2)} s`).join(', ')}`,
    );
    console.log(`\nten slowest skills (ms per phase):\n`);
    console.log(`| skill | files | KB | ms | ${PHASES.join(' | ')} |`);
    console.log(`|---|---|---|---|${PHASES.map(() => '---').join('|')}|`);
    for (const t of [...times].sort((a, b) => b.ms - a.ms).slice(0, 10)) {
      const phases = PHASES.map((p) => fmt(t.phases[p] ?? 0, 0)).join(' | ');
      console.log(`| ${t.name} | ${t.files} | ${fmt(t.bytes / 1024, 0)} | ${fmt(t.ms, 0)} | ${phases} |`);
    }
    printUnits(units);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The twenty costliest detectors and prose rules, with what they read: where a speed-up would pay. */
function printUnits(units: Map<string, UnitCost>): void {
  const rows = [...units].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20);
  console.log(
    '\ntwenty costliest detectors and prose rules (in process; a detector includes the parse it asked for first):\n',
  );
  console.log('| unit | ms | calls | MB read | µs per KB |');
  console.log('|---|---|---|---|---|');
  for (const [name, c] of rows) {
    const perKb = c.chars > 0 ? (c.ms * 1000) / (c.chars / 1024) : 0;
    console.log(`| ${name} | ${fmt(c.ms, 0)} | ${c.calls} | ${fmt(c.chars / 1e6, 2)} | ${fmt(perKb, 1)} |`);
  }
}

console.log(`# scan benchmark: build ${args.build}, ${args.runs} CLI runs per corpus, load ${loadNow()}`);
for (const corpus of args.corpora) await benchCorpus(corpus, corpus);
for (const size of args.sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-'));
  try {
    writeCorpus(dir, size);
    await benchCorpus(dir, `generated corpus of ${size}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
