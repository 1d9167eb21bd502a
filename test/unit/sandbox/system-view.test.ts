import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { interpreterPrefixes, isVisibleInSandbox, systemViewArgs } from '../../../src/sandbox/system-view.js';

const work = mkdtempSync(join(tmpdir(), 'system-view-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the sandbox host view', () => {
  it('shows system folders and allowlisted /etc entries only', () => {
    expect(isVisibleInSandbox('/usr/bin/python3')).toBe(true);
    expect(isVisibleInSandbox('/etc/ssl/certs/ca-certificates.crt')).toBe(true);
    for (const hidden of [
      '/etc/shadow',
      '/etc/ssl/private/key.pem',
      '/etc/npmrc',
      '/var/lib/skillaudit',
      '/work',
      '/opt/x',
      '/usrlocal',
    ])
      expect(isVisibleInSandbox(hidden), hidden).toBe(false);
    const args = systemViewArgs();
    expect(args).not.toContain('/');
    expect(args.some((a) => a === '/etc/shadow' || a === '/etc/ssl/private')).toBe(false);
  });

  it('adds the install prefix of an interpreter linked from outside the system folders', () => {
    const prefix = join(work, 'opt', 'node-v20');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    writeFileSync(join(prefix, 'bin', 'node'), '#!/bin/sh\n', { mode: 0o755 });
    const bin = join(work, 'bin');
    mkdirSync(bin);
    symlinkSync(join(prefix, 'bin', 'node'), join(bin, 'node'));
    expect(interpreterPrefixes([bin])).toEqual([prefix]);
    expect(interpreterPrefixes(['/usr/bin'])).toEqual([]);
  });
});
