// `kill -9` of `skillaudit audit` (the built CLI, real bubblewrap) while a skill's endless loop runs: no
// SIGINT handler gets a say, yet 2 s later nothing of the audit runs (every link of the chain dies with its
// parent), and the next start removes the temp folders, cgroups, namespaces and mounts the dead one left.
// Needs `npm run build` first (bin/skillaudit.js runs dist/).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_BIN, REPO_ROOT, requireBuild } from '../../support/built-cli.js';
import { commandLine, leftovers, processesWith, requireSandboxTools, until } from './support.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/interrupt/looper');
const work = mkdtempSync(join(tmpdir(), 'kill-cli-'));
chmodSync(work, 0o711);
const marker = `looper-killed-${process.pid}`;
let descendants: number[] = [];

beforeAll(() => {
  requireSandboxTools();
  requireBuild();
});

afterAll(() => {
  // Only if a test failed: nothing of ours may outlive the suite.
  for (const pid of [...processesWith(marker), ...descendants.filter(alive)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  rmSync(work, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    // A zombie is dead: only its parent's wait is missing.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Every live descendant of `root`, from the ppid links in /proc. */
function descendantsOf(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone.
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, ppid] of parent) {
      if (ppid !== p) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

describe('skillaudit audit killed with SIGKILL', () => {
  it('leaves nothing running 2 s later, and the next start cleans what it left', async () => {
    const skill = join(work, marker);
    cpSync(FIXTURE, skill, { recursive: true });
    const temp = join(work, 'tmp');
    mkdirSync(temp, { mode: 0o711 });
    const env = { ...process.env, TMPDIR: temp };
    const cli = spawn(
      process.execPath,
      [BUILT_BIN, 'audit', skill, '--out', join(work, 'out'), '--run-timeout', '120', '--quiet'],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    cli.stderr.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise((done) => cli.once('exit', done));
    const looping = () => processesWith(marker).some((pid) => commandLine(pid).includes('loop.py'));
    expect(await until(looping, 45_000), `the script never ran: ${stderr}`).toBe(true);
    // Let the loop's child start too.
    await new Promise((r) => setTimeout(r, 300));
    descendants = descendantsOf(cli.pid!);
    expect(descendants.length).toBeGreaterThan(3);

    cli.kill('SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 2_000));
    const survivors = [...new Set([...descendants.filter(alive), ...processesWith(marker)])];
    expect(survivors.map((pid) => commandLine(pid).replaceAll('\0', ' '))).toEqual([]);
    expect([...leftovers(cli.pid!), ...readdirSync(temp)].length).toBeGreaterThan(0);

    // The next start (any audit that opens a sandbox) removes what the dead process left.
    const next = spawnSync(
      process.execPath,
      [BUILT_BIN, 'audit', join(REPO_ROOT, 'examples/csv-summary'), '--out', join(work, 'out2'), '--quiet'],
      { env, encoding: 'utf8', timeout: 120_000 },
    );
    expect(next.status, next.stderr).not.toBeNull();
    expect([...leftovers(cli.pid!), ...readdirSync(temp)]).toEqual([]);
  }, 150_000);
});
