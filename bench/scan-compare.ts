// Guard for scanner speed work: runs `skillaudit scan --format json` from two builds (each a folder with
// bin/ and dist/, e.g. the tree before and after an optimisation, built against the same rule files) over
// the eval sets (labeled, holdout, verdicts), the fixtures, the examples, a generated corpus and any real corpus
// given with --corpus (e.g. ../shared/corpus/skills), with one and two threads, and says whether the outputs
// are byte-identical. Run: npx tsx bench/scan-compare.ts <buildA> <buildB> [count] [--corpus DIR]...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeCorpus } from './corpus.js';

const argv = process.argv.slice(2);
const corpora: string[] = [];
for (let i = argv.indexOf('--corpus'); i >= 0; i = argv.indexOf('--corpus')) {
  corpora.push(resolve(argv.splice(i, 2)[1] ?? ''));
}
const [buildA, buildB] = argv.slice(0, 2).map((p) => resolve(p));
const count = Number(argv[2] ?? 200);
if (!buildA || !buildB) {
  console.error('usage: npx tsx bench/scan-compare.ts <buildA> <buildB> [count]');
  process.exit(2);
}

function scanJson(build: string, inputs: string[], workers: number): string {
  const r = spawnSync(
    process.execPath,
    [
      join(build, 'bin/skillaudit.js'),
      'scan',
      ...inputs,
      '--workers',
      String(workers),
      '--format',
      'json',
      '--fail-on',
      'never',
      '-q',
      // Every run scans: with the cache on, the two-thread run would read what the one-thread run stored.
      '--no-cache',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  // Exit 2 is expected when a fixture fails intake on purpose; anything else is a crash.
  if (r.status !== 0 && r.status !== 2) throw new Error(`${build} (workers ${workers}) failed: ${r.stderr}`);
  return r.stdout;
}

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-compare-'));
let differing = 0;
try {
  writeCorpus(dir, count);
  const sets = ['eval/labeled', 'eval/holdout', 'eval/verdicts', 'test/fixtures/detonate', 'examples'];
  const inputs = [...sets, dir, ...corpora].filter((p) => existsSync(p));
  for (const workers of [1, 2]) {
    const a = scanJson(buildA, inputs, workers);
    const b = scanJson(buildB, inputs, workers);
    const skills = (JSON.parse(a) as { skills: unknown[] }).skills.length;
    if (a === b) {
      console.log(`workers ${workers}: identical (${skills} skills, ${a.length} bytes of JSON)`);
      continue;
    }
    differing++;
    const at = [...a].findIndex((ch, i) => ch !== b[i]);
    console.log(
      `workers ${workers}: DIFFERENT at byte ${at}:\n  A: ${a.slice(at - 200, at + 200)}\n  B: ${b.slice(at - 200, at + 200)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = differing > 0 ? 1 : 0;
