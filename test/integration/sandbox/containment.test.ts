// Containment: hostile scripts run under real bubblewrap + strace; each is contained, logged, ends within
// its limits, and leaves no process behind.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import { isAlive } from '../../../src/sandbox/process-tree.js';
import type { RunResult, Sandbox } from '../../../src/sandbox/types.js';
import { fixture, processesWith, requireSandboxTools } from './support.js';

const FAST = { wallMs: 8_000, cpuSeconds: 4, maxProcesses: 64, memoryBytes: 256 * 1024 * 1024 };

let sandbox: Sandbox;

function expectNoSurvivors(result: RunResult): void {
  for (const proc of result.evidence.processes)
    expect(isAlive(proc.pid), `pid ${proc.pid} ${proc.argv.join(' ')}`).toBe(false);
}

beforeAll(async () => {
  requireSandboxTools();
  sandbox = await createSandbox({
    backend: 'bubblewrap',
    seedCanaries: true,
    diskBytes: 64 * 1024 * 1024,
    files: [
      ...[
        'egress.py',
        'read-host-secret.sh',
        'write-outside.sh',
        'fork-bomb.sh',
        'spin.sh',
        'hang.sh',
        'flood-output.sh',
        'allocate.py',
        'escalate.sh',
        'kill-parent.sh',
        'daemonize.sh',
      ].map((name) => fixture(name)),
      { path: 'keep.txt', content: 'keep\n', mode: 0o644 },
      { path: 'remove-me.txt', content: 'bye\n', mode: 0o644 },
    ],
  });
});

afterAll(async () => {
  await sandbox?.dispose();
});

describe('bubblewrap containment', () => {
  it('blocks TCP, UDP and DNS egress without a sink and logs every attempt with its destination', async () => {
    const result = await sandbox.run({ argv: ['python3', 'egress.py'], env: {}, limits: FAST });
    expect(result.stdout).toMatch(/tcp:OSError|tcp:\w*Error/);
    expect(result.stdout).not.toContain('tcp:connected');
    const { attempts, dnsQueries, mode } = result.evidence.network;
    expect(mode).toBe('loopback-only');
    const tcp = attempts.find((a) => a.address === '93.184.216.34');
    expect(tcp).toMatchObject({ port: 80, protocol: 'tcp', blocked: true, error: 'ENETUNREACH' });
    const udp = attempts.find((a) => a.address === '8.8.8.8');
    expect(udp).toMatchObject({ port: 53, protocol: 'udp', blocked: true });
    const names = dnsQueries.map((q) => q.name);
    expect(names).toContain('udp-egress.example.org');
    expect(names).toContain('dns-egress.example.net');
    expectNoSurvivors(result);
  });

  it('cannot read a secret placed on the host outside the sandbox', async () => {
    const name = randomBytes(6).toString('hex');
    const secret = randomBytes(16).toString('hex');
    const hostSecrets = [`/root/host-secret-${name}`, `/tmp/host-secret-${name}`];
    // World-readable on purpose: only the sandbox's private /root and /tmp stand between it and the script.
    for (const path of hostSecrets) writeFileSync(path, `${secret}\n`, { mode: 0o644 });
    try {
      const result = await sandbox.run({
        argv: ['/bin/sh', 'read-host-secret.sh', ...hostSecrets],
        env: {},
        limits: FAST,
      });
      expect(result.stdout).not.toContain(secret);
      for (const path of hostSecrets) expect(result.stdout).toContain(`DENIED ${path}`);
      expect(result.stdout).toContain('DENIED /etc/shadow');
      // The attempt on a system secret is itself evidence.
      expect(result.evidence.sensitiveReads.some((r) => r.path === '/etc/shadow' && r.error !== null)).toBe(
        true,
      );
    } finally {
      for (const path of hostSecrets) rmSync(path, { force: true });
    }
  });

  it('cannot write outside its HOME and workspace; writes inside show up in the fs diff', async () => {
    const marker = `/root/skillaudit-write-${randomBytes(6).toString('hex')}`;
    const result = await sandbox.run({
      argv: ['/bin/sh', 'write-outside.sh', marker],
      env: {},
      limits: FAST,
    });
    expect(result.stdout).not.toMatch(/WROTE \/(etc|usr|var|proc)/);
    // /root inside is a private tmpfs: the write "succeeds" there and never reaches the host.
    expect(existsSync(marker)).toBe(false);
    expect(existsSync('/etc/skillaudit-pwned')).toBe(false);
    expect(existsSync('/usr/local/bin/skillaudit-pwned')).toBe(false);
    const changes = result.evidence.fsChanges.map((c) => `${c.change} ${c.root}:${c.path}`);
    expect(changes).toContain('created home:.bashrc');
    expect(changes).toContain('mode workspace:keep.txt');
    expect(changes).toContain('deleted workspace:remove-me.txt');
    // 40 files of 8 MB do not fit the 64 MB scratch disk, though each is under the file-size limit.
    expect(result.stdout).toMatch(/DISK-FULL at [1-8]\b/);
    expect(result.evidence.limits.applied).toContainEqual({
      limit: 'disk',
      value: 64 * 1024 * 1024,
      via: 'tmpfs',
    });
    const bashrc = result.evidence.fsChanges.find((c) => c.path === '.bashrc');
    expect(bashrc?.head).toContain('persist.example.com');
  });

  it('contains a fork bomb within its process limit and ends in time', async () => {
    const result = await sandbox.run({
      argv: ['/bin/sh', 'fork-bomb.sh'],
      env: {},
      limits: { ...FAST, wallMs: 5_000, maxProcesses: 32 },
    });
    expect(result.wallMs).toBeLessThan(5_000 + 3_000);
    expect(result.evidence.limits.applied.some((l) => l.limit === 'pids' || l.limit === 'maxProcesses')).toBe(
      true,
    );
    expectNoSurvivors(result);
  });

  it('stops an endless CPU loop by its CPU limit', async () => {
    const result = await sandbox.run({
      argv: ['/bin/sh', 'spin.sh'],
      env: {},
      limits: { ...FAST, cpuSeconds: 1, wallMs: 15_000 },
    });
    // The CPU limit, not the (generous) wall clock, ended it: SIGXCPU at the soft limit.
    expect(result.timedOut).toBe(false);
    expect(['SIGXCPU', 'SIGKILL']).toContain(result.signal);
  });

  it('stops a process that sleeps forever at the wall-clock limit, killing the whole tree', async () => {
    const result = await sandbox.run({
      argv: ['/bin/sh', 'hang.sh'],
      env: {},
      limits: { ...FAST, wallMs: 1_500 },
    });
    expect(result.timedOut).toBe(true);
    expect(result.evidence.killedFor).toBe('timeout');
    expect(result.wallMs).toBeGreaterThanOrEqual(1_400);
    expect(result.wallMs).toBeLessThan(4_000);
    expectNoSurvivors(result);
  });

  it('bounds output from a script printing gigabytes and stops it early', async () => {
    const result = await sandbox.run({
      argv: ['/bin/sh', 'flood-output.sh'],
      env: {},
      limits: { ...FAST, maxOutputBytes: 64 * 1024 },
    });
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdout.length).toBe(64 * 1024);
    expect(result.evidence.killedFor).toBe('output');
    expect(result.wallMs).toBeLessThan(5_000);
    expectNoSurvivors(result);
  });

  it('kills a process allocating without bound at the memory limit', async () => {
    const memoryBytes = 128 * 1024 * 1024;
    const result = await sandbox.run({
      argv: ['python3', 'allocate.py'],
      env: {},
      limits: { ...FAST, memoryBytes },
    });
    expect(result.timedOut).toBe(false);
    // Killed by the OOM killer (cgroup) or refused memory (rlimit): either way it did not succeed.
    expect(result.exitCode === 0).toBe(false);
    const rss = result.evidence.resources.maxRssBytes;
    if (result.evidence.limits.applied.some((l) => l.limit === 'memory')) {
      expect(rss).not.toBeNull();
      expect(rss!).toBeLessThanOrEqual(memoryBytes + 8 * 1024 * 1024);
    }
  });

  it('cannot gain root through setuid binaries, mount or setuid()', async () => {
    const result = await sandbox.run({ argv: ['/bin/sh', 'escalate.sh'], env: {}, limits: FAST });
    // The first user of an ordinary machine inside (an unprivileged host uid outside), never root.
    expect(result.stdout).toMatch(/FINAL-UID 1000 /);
    expect(result.stdout).not.toMatch(/^0$/m);
    expect(result.stdout).toMatch(/EUID-STATUS Uid: 1000 1000 1000 1000/);
    expect(result.stdout).not.toMatch(/NESTED-USERNS 0/);
    expect(result.stdout).toContain('NoNewPrivs: 1');
    // The attempts are in the exec log for the detonation stage to judge.
    const programs = result.evidence.processes.map((p) => p.argv[0]);
    expect(programs).toEqual(expect.arrayContaining(['su', 'mount', 'python3']));
  });

  it('survives a script that kills its parent and everything it can signal', async () => {
    const result = await sandbox.run({ argv: ['/bin/sh', 'kill-parent.sh'], env: {}, limits: FAST });
    expect(result.timedOut).toBe(false);
    expect(process.pid).toBeGreaterThan(0); // this test process is alive to check
    expectNoSurvivors(result);
  });

  it('leaves no daemon behind (double fork + setsid, nohup)', async () => {
    const marker = `skillaudit-daemon-${randomBytes(6).toString('hex')}`;
    const result = await sandbox.run({ argv: ['/bin/sh', 'daemonize.sh', marker], env: {}, limits: FAST });
    expect(result.stdout).toContain('daemons started');
    expect(result.evidence.processes.some((p) => p.argv.includes(marker))).toBe(true);
    expect(processesWith(marker)).toEqual([]);
    expectNoSurvivors(result);
  });
});
