// Ctrl-C and SIGTERM on `skillaudit audit` (the built CLI, real bubblewrap): the sandboxed runs of a skill
// whose script sleeps for a minute stop with it, and nothing it made is left: no process, temp folder,
// network namespace, cgroup or scratch mount. Needs `npm run build` first (bin/skillaudit.js runs dist/).
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_BIN, REPO_ROOT, requireBuild } from '../../support/built-cli.js';
import { commandLine, leftovers, processesWith, requireSandboxTools, until } from './support.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/interrupt/sleeper');

const work = mkdtempSync(join(tmpdir(), 'interrupt-cli-'));
// The sandbox's uid must reach the sandbox folders made below it.
chmodSync(work, 0o711);
const markers: string[] = [];

beforeAll(() => {
  requireSandboxTools();
  requireBuild();
});

afterAll(() => {
  // Only if a test failed: nothing of ours may outlive the suite.
  for (const marker of markers) for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe.each([
  { signal: 'SIGINT' as const, code: 130 },
  { signal: 'SIGTERM' as const, code: 143 },
])('skillaudit audit stopped by $signal', ({ signal, code }) => {
  it(`stops every sandboxed run, removes what it made and exits ${code}`, async () => {
    const dir = mkdtempSync(join(work, 'case-'));
    chmodSync(dir, 0o711);
    // The skill's folder name reaches every command line of its runs (strace, bwrap, the script).
    const marker = `sleeper-${signal.toLowerCase()}-${process.pid}`;
    markers.push(marker);
    const skill = join(dir, marker);
    cpSync(FIXTURE, skill, { recursive: true });
    const temp = join(dir, 'tmp');
    mkdirSync(temp, { mode: 0o711 });
    const cli = spawn(
      process.execPath,
      [BUILT_BIN, 'audit', skill, '--out', join(dir, 'out'), '--run-timeout', '120', '--quiet'],
      { env: { ...process.env, TMPDIR: temp }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => {
      stdout += d;
    });
    cli.stderr.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<{ code: number | null; at: number }>((done) =>
      cli.once('exit', (exitCode) => done({ code: exitCode, at: Date.now() })),
    );

    const scriptRunning = () =>
      processesWith(marker).some((pid) => commandLine(pid).startsWith('/usr/bin/python3'));
    expect(await until(scriptRunning, 45_000), `the script never ran: ${stderr}`).toBe(true);

    const sent = Date.now();
    cli.kill(signal);
    const exit = await exited;
    expect(exit.code).toBe(code);
    // Generous: a stop is SIGTERM, at most 0.5 s of grace, SIGKILL, then synchronous cleanup.
    expect(exit.at - sent).toBeLessThan(5_000);
    expect(stderr).toMatch(/^skillaudit: interrupted; stopped [1-9]\d* sandboxed runs?$/m);
    // Stopped runs are no verdict: no report is printed for a half-done audit.
    expect(stdout).toBe('');

    expect(await until(() => processesWith(marker).length === 0, 3_000)).toBe(true);
    expect(readdirSync(temp)).toEqual([]);
    expect(leftovers(cli.pid!)).toEqual([]);
  }, 90_000);
});
