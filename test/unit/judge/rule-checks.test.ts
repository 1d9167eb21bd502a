import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRules, snapshotFolder } from '../../../src/judge/rule-checks.js';

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rule checks over a working directory', () => {
  it('checks existence and content, reports commands as not run, and never follows links', async () => {
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'profile.md'), 'rows: 12\n');
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 1, 2]));
    symlinkSync('/etc/hostname', join(dir, 'link.txt'));
    const snapshot = await snapshotFolder(dir);
    expect(snapshot.files.get('out/profile.md')).toBe('rows: 12\n');
    expect(snapshot.files.get('blob.bin')).toBeNull();
    expect(snapshot.files.get('link.txt')).toBeNull();

    const results = checkRules(
      [
        { kind: 'file_exists', path: 'out/profile.md' },
        { kind: 'file_contains', path: 'out/profile.md', value: 'rows: 12' },
        { kind: 'file_contains', path: 'out/profile.md', value: 'rows: 13' },
        { kind: 'file_exists', path: 'missing.md' },
        { kind: 'file_contains', path: 'link.txt', value: 'x' },
        { kind: 'command_succeeds', command: 'python3 -c "print(1)"' },
      ],
      snapshot,
    );
    expect(results.map((r) => r.status)).toEqual([
      'passed',
      'passed',
      'failed',
      'failed',
      'failed',
      'not_run',
    ]);
    expect(results[4]?.detail).toBe('link.txt is not readable text');
  });

  it('says when the snapshot was cut short', async () => {
    const snapshot = await snapshotFolder(dir, { maxFiles: 1, maxFileBytes: 100 });
    expect(snapshot.partial).toBe(true);
    const [r] = checkRules([{ kind: 'file_exists', path: 'nowhere' }], snapshot);
    expect(r?.detail).toMatch(/cut short/);
  });
});
