// Library use, as a shutting-down service would: stopSandboxRuns() from the sandbox's public entry stops a
// real bubblewrap run (strace, bwrap, a script and its forked child, on the network sink); the run rejects
// instead of reporting evidence, new runs are refused, and dispose leaves nothing behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SandboxStoppedError, stopSandboxRuns } from '../../../src/sandbox/index.js';
import { commandLine, processesWith, requireSandboxTools, until } from './support.js';

const SCRIPT = resolve(import.meta.dirname, '../../fixtures/interrupt/sleeper/scripts/wait.py');

beforeAll(() => requireSandboxTools());

describe('stopSandboxRuns', () => {
  it('stops a live run, which rejects; later runs are refused; dispose leaves nothing behind', async () => {
    const sandbox = await createSandbox({
      backend: 'bubblewrap',
      files: [{ path: 'wait.py', content: readFileSync(SCRIPT), mode: 0o755 }],
    });
    // An argument the script ignores, to find its processes (and strace's and bwrap's) in /proc.
    const marker = `interrupt-library-${process.pid}`;
    const outcome = sandbox
      .run({ argv: ['python3', 'wait.py', marker], env: {}, network: 'sink', limits: { wallMs: 120_000 } })
      .then(
        () => 'finished',
        (error: unknown) => error,
      );
    const python = () => processesWith(marker).filter((pid) => commandLine(pid).startsWith('python3'));
    // The script and its forked child.
    expect(await until(() => python().length === 2, 30_000)).toBe(true);

    expect(stopSandboxRuns()).toBe(1);
    expect(await until(() => processesWith(marker).length === 0, 3_000)).toBe(true);
    expect(await outcome).toBeInstanceOf(SandboxStoppedError);
    await expect(sandbox.run({ argv: ['true'], env: {} })).rejects.toBeInstanceOf(SandboxStoppedError);

    await sandbox.dispose();
    const netns = existsSync('/run/netns') ? readdirSync('/run/netns') : [];
    expect(netns.filter((n) => n.startsWith(`skau-${process.pid}-`))).toEqual([]);
    expect(readdirSync('/sys/fs/cgroup').filter((n) => n.startsWith(`skillaudit-${process.pid}-`))).toEqual(
      [],
    );
    expect(existsSync(sandbox.workspace)).toBe(false);
    expect(readFileSync('/proc/self/mounts', 'utf8')).not.toContain(join(sandbox.workspace, '..', '..'));
  });
});
