import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../../src/server/data-lock.js';

// Real processes hold the lock: only another live process may keep a start out.
const LOCK_MODULE = join(import.meta.dirname, '../../../src/server/data-lock.ts');

let dir: string;
const children: ChildProcess[] = [];

/** A process that tries to lock `dir` and prints `won` or `lost`, then holds what it got until killed. */
function contender(): { child: ChildProcess; outcome: Promise<string> } {
  const script = `import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)};
try { lockDataDir(${JSON.stringify(dir)}); console.log('won'); } catch (e) { console.log('lost: ' + e.message.split('(')[0]); }
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const outcome = new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
  });
  return { child, outcome };
}

function setHolder(pid: number): void {
  const db = new Database(join(dir, 'server.lock'));
  db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)');
  db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(pid);
  db.close();
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-lock-'));
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('takes over a lock left with our own pid (a restarted container is pid 1 again)', () => {
    setHolder(process.pid);
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, 'server.pid'))).toBe(true);
    release();
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it('refuses while another live process holds the folder', async () => {
    const holder = contender();
    expect(await holder.outcome).toBe('won');
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`pid ${holder.child.pid}`));
  }, 20_000);

  it('lets exactly one of several concurrent starts take over a stale lock', async () => {
    setHolder(2 ** 22 + 1); // above Linux's pid_max: never alive
    const outcomes = await Promise.all([contender(), contender(), contender()].map((c) => c.outcome));
    const lost = `lost: ${dir} is in use by another skillaudit serve`;
    expect(outcomes.sort()).toEqual([lost, lost, 'won']);
  }, 30_000);
});
