// How fast Ctrl-C stops an audit with sandboxed runs going, printed as figures (not assertions):
// `npx tsx bench/interrupt.ts [times]` (after `npm run build`; as root with bubblewrap, as CI runs).
// Each time the built CLI audits a skill whose script waits until it is stopped; once the script runs, SIGINT.
// Figures: signal to CLI exit, and signal to the last process of the runs gone.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const TIMES = Number(process.argv[2] ?? 5);
const REPO = resolve(import.meta.dirname, '..');

function withMarker(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) out.push(Number(name));
    } catch {
      // Gone while reading.
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(work: string, i: number): Promise<{ exitMs: number; goneMs: number; note: string }> {
  const marker = `sleeper-bench-${process.pid}-${i}`;
  const skill = join(work, marker);
  cpSync(join(REPO, 'test/fixtures/interrupt/sleeper'), skill, { recursive: true });
  const cli = spawn(
    process.execPath,
    [
      join(REPO, 'bin/skillaudit.js'),
      'audit',
      skill,
      '--out',
      join(work, 'out'),
      '--run-timeout',
      '120',
      '-q',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  cli.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number>((done) => cli.once('exit', () => done(performance.now())));
  const deadline = Date.now() + 60_000;
  while (
    !withMarker(marker).some((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('python3'))
  ) {
    if (Date.now() > deadline) throw new Error(`the script never ran: ${stderr}`);
    await sleep(20);
  }
  const sent = performance.now();
  cli.kill('SIGINT');
  const exitAt = await exited;
  while (withMarker(marker).length > 0 && performance.now() - sent < 10_000) await sleep(5);
  return {
    exitMs: exitAt - sent,
    goneMs: performance.now() - sent,
    note: stderr.trim().split('\n').at(-1) ?? '',
  };
}

const work = mkdtempSync(join(tmpdir(), 'bench-interrupt-'));
chmodSync(work, 0o711);
try {
  const exits: number[] = [];
  const gone: number[] = [];
  for (let i = 0; i < TIMES; i++) {
    const r = await once(work, i);
    exits.push(r.exitMs);
    gone.push(r.goneMs);
    console.log(
      `#${i + 1} exit ${r.exitMs.toFixed(0).padStart(5)} ms   last process gone ${r.goneMs.toFixed(0).padStart(5)} ms   ${r.note}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `SIGINT to exit: median ${median(exits).toFixed(0)} ms, max ${Math.max(...exits).toFixed(0)} ms; ` +
      `to last process gone: median ${median(gone).toFixed(0)} ms, max ${Math.max(...gone).toFixed(0)} ms`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
