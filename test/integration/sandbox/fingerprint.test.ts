// What evasive malware checks before it acts must look like an ordinary machine: no canary value on any
// command line (bwrap's arguments come through a descriptor), no bwrap as pid 1 and no host path in its
// environment, a plausible hostname, and made-up DNS names that do not exist, while a real-looking host
// still resolves (to the sink).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { RunResult, Sandbox } from '../../../src/sandbox/types.js';
import { fixture, requireSandboxTools } from './support.js';

let sandbox: Sandbox;
let result: RunResult;
const junk = `${randomBytes(12).toString('hex')}.com`;
const real = 'metrics-collector.example-telemetry.net';

beforeAll(async () => {
  requireSandboxTools();
  sandbox = await createSandbox({
    backend: 'bubblewrap',
    seedCanaries: true,
    files: [fixture('sandbox-check.py', 0o644)],
  });
  result = await sandbox.run({
    argv: ['python3', 'sandbox-check.py', junk, real],
    env: {},
    network: 'sink',
    limits: { wallMs: 15_000 },
  });
});

afterAll(async () => {
  await sandbox?.dispose();
});

describe('the sandbox does not give itself away', () => {
  const line = (key: string) => new RegExp(`^${key} (.*)$`, 'm').exec(result.stdout)?.[1] ?? '';

  it('shows no canary value on any command line', () => {
    const procs = line('PROCS');
    expect(procs).toContain('sandbox-check.py');
    for (const canary of result.evidence.canaries) expect(procs).not.toContain(canary.token);
    expect(procs).not.toMatch(/--setenv|_API_KEY|SECRET/);
  });

  it('has the command as pid 1, as a container does, and no host path in its environment', () => {
    expect(line('PID1').trim()).toBe(`python3 sandbox-check.py ${junk} ${real}`);
    const environ = line('PID1_ENV');
    expect(environ).toContain('HOME=/home/');
    expect(environ).not.toContain(process.cwd());
    expect(environ).not.toMatch(/bwrap|skillaudit/i);
  });

  it('has a plausible hostname, the same in the kernel and /etc/hostname', () => {
    const hostname = /^HOSTNAME (.+)$/m.exec(result.stdout)?.[1];
    expect(hostname).toMatch(/^ip-172-31-\d+-\d+$/);
    expect(result.stdout).toContain(`ETC_HOSTNAME ${hostname}`);
  });

  it('answers a made-up name NXDOMAIN and a real-looking one with the sink', () => {
    expect(result.stdout).toMatch(new RegExp(`^NXDOMAIN ${junk.replaceAll('.', '\\.')} `, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^RESOLVED ${real.replaceAll('.', '\\.')} `, 'm'));
    // Both queries are still evidence.
    const names = result.evidence.network.dnsQueries.map((q) => q.name);
    expect(names).toContain(junk);
    expect(names).toContain(real);
  });
});

describe('names the skill itself uses', () => {
  it('resolve even when they look made up (knownHosts), while other made-up names stay NXDOMAIN', async () => {
    const named = `${randomBytes(12).toString('hex')}.net`;
    const other = `${randomBytes(12).toString('hex')}.net`;
    const box = await createSandbox({
      backend: 'bubblewrap',
      seedCanaries: true,
      files: [fixture('sandbox-check.py', 0o644)],
      knownHosts: [named],
    });
    try {
      const run = await box.run({
        argv: ['python3', 'sandbox-check.py', `api.${named}`, other],
        env: {},
        network: 'sink',
        limits: { wallMs: 15_000 },
      });
      expect(run.stdout).toMatch(new RegExp(`^RESOLVED api\\.${named.replaceAll('.', '\\.')} `, 'm'));
      expect(run.stdout).toMatch(new RegExp(`^NXDOMAIN ${other.replaceAll('.', '\\.')} `, 'm'));
    } finally {
      await box.dispose();
    }
  });
});
