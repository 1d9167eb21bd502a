import { chmod, mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSnapshots, takeSnapshot } from '../../../src/sandbox/fs-snapshot.js';
import { matchSensitivePath } from '../../../src/sandbox/sensitive-paths.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('fs snapshots', () => {
  it('diffs created, modified, deleted and mode-changed entries, without following symlinks', async () => {
    const root = await mkdtemp(join(tmpdir(), 'snap-test-'));
    dirs.push(root);
    await writeFile(join(root, 'same.txt'), 'same');
    await writeFile(join(root, 'edit.txt'), 'v1');
    await writeFile(join(root, 'gone.txt'), 'bye');
    await writeFile(join(root, 'mode.sh'), 'echo');
    await mkdir(join(root, 'sub'));
    const before = await takeSnapshot(root);
    await writeFile(join(root, 'edit.txt'), 'v2');
    await unlink(join(root, 'gone.txt'));
    await chmod(join(root, 'mode.sh'), 0o755);
    await writeFile(join(root, 'sub', 'new.txt'), 'stolen data');
    await symlink('/etc/passwd', join(root, 'link'));
    const after = await takeSnapshot(root);
    const changes = await diffSnapshots('workspace', root, before, after);
    const summary = changes.map((c) => `${c.change} ${c.path}`).sort();
    expect(summary).toEqual([
      'created link',
      'created sub/new.txt',
      'deleted gone.txt',
      'mode mode.sh',
      'modified edit.txt',
    ]);
    expect(changes.find((c) => c.path === 'sub/new.txt')?.head).toBe('stolen data');
    expect(changes.find((c) => c.path === 'link')?.after?.type).toBe('symlink');
    expect(changes.find((c) => c.path === 'mode.sh')).toMatchObject({
      before: { mode: 0o644 },
      after: { mode: 0o755 },
    });
  });

  it('stops at its entry cap and says so', async () => {
    const root = await mkdtemp(join(tmpdir(), 'snap-cap-'));
    dirs.push(root);
    for (let i = 0; i < 30; i++) await writeFile(join(root, `f${i}`), String(i));
    const snap = await takeSnapshot(root, { maxEntries: 10, maxHashBytes: 1024 });
    expect(snap.entries.size).toBe(10);
    expect(snap.truncated).toBe(true);
  });
});

describe('sensitive path rules', () => {
  it('flag credential stores and leave ordinary files alone', () => {
    expect(matchSensitivePath('/home/skill/.ssh/id_ed25519')?.id).toBe('ssh-key');
    expect(matchSensitivePath('/home/skill/.ssh/known_hosts')).toBeNull();
    expect(matchSensitivePath('/home/skill/work/.env.production')?.id).toBe('dotenv');
    expect(matchSensitivePath('/home/skill/.config/google-chrome/Default/Login Data')?.id).toBe(
      'browser-store',
    );
    expect(matchSensitivePath('/home/skill/.mozilla/firefox/abc.default/cookies.sqlite')?.id).toBe(
      'browser-store',
    );
    expect(matchSensitivePath('/etc/shadow')?.id).toBe('system-secrets');
    expect(matchSensitivePath('/home/skill/work/environment.py')).toBeNull();
    expect(matchSensitivePath('/usr/lib/python3/os.py')).toBeNull();
  });
});
