// The service's data folder holds every submitter's uploads and reports: whatever its mode was (an operator's
// umask, an older release), the service makes it and its folders private to its own user at start.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from './support.js';

const root = mkdtempSync(join(tmpdir(), 'skillaudit-data-mode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('skillaudit serve data folder', () => {
  it('is made mode 0700 at start (and its uploads folder), closing whatever was inside to others', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'runs'), { recursive: true, mode: 0o755 });
    const serve = await startServe(['--data-dir', dataDir, '--no-detonate']);
    try {
      for (const dir of [dataDir, join(dataDir, 'uploads')])
        expect((statSync(dir).mode & 0o777).toString(8), dir).toBe('700');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
