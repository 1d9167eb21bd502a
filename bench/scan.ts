// Scanner benchmark: a generated corpus (bench/corpus.ts), scanned (1) in-process skill by skill for the
// per-skill latency distribution, and (2) as one CLI command for throughput with start-up included; compared
// with merely reading the same files (the floor). Run: npm run build && npx tsx bench/scan.ts [count]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSource } from '../src/intake/index.js';
import { scanSkill } from '../src/scan/engine.js';
import { writeCorpus } from './corpus.js';

const count = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-'));

function readAll(path: string): number {
  let n = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    if (entry.isDirectory()) n += readAll(p);
    else n += readFileSync(p).length;
  }
  return n;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

try {
  const stats = writeCorpus(dir, count);
  console.log(`corpus: ${stats.skills} skills, ${stats.files} files, ${(stats.bytes / 1e6).toFixed(1)} MB`);

  let t = performance.now();
  readAll(dir);
  const floorMs = performance.now() - t;

  const handle = await openSource(dir);
  const times: number[] = [];
  t = performance.now();
  for (const entry of handle.skills) {
    if (!entry.ok) continue;
    const s = performance.now();
    await scanSkill(entry.skill);
    times.push(performance.now() - s);
  }
  const inProcessMs = performance.now() - t;
  await handle.dispose();
  times.sort((a, b) => a - b);

  // GNU time reports the CLI's own wall time and peak RSS (KB).
  const timed = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M',
      process.execPath,
      'bin/skillaudit.js',
      'scan',
      dir,
      '--format',
      'json',
      '--fail-on',
      'none',
      '-q',
    ],
    { maxBuffer: 1 << 30, encoding: 'utf8' },
  );
  if (timed.status !== 0) throw new Error(`scan failed: ${timed.stderr}`);
  const [seconds, rssKb] = timed.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number];
  const cliMs = seconds * 1000;

  console.log(`read floor:          ${floorMs.toFixed(0)} ms`);
  console.log(
    `per skill (1 core):  median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
  );
  console.log(`in-process, 1 core:  ${(count / (inProcessMs / 1000)).toFixed(1)} skills/s`);
  console.log(
    `CLI, all cores:      ${cliMs.toFixed(0)} ms total, ${(count / (cliMs / 1000)).toFixed(1)} skills/s (start-up included)`,
  );
  console.log(`ratio to read floor: ${(cliMs / floorMs).toFixed(1)}x`);
  console.log(
    `peak RSS: CLI ${(rssKb / 1024).toFixed(0)} MB, in-process bench ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
