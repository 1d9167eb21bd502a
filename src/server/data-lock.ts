import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UserError } from '../util/errors.js';

// One service per data folder: a second one would take the first's running audits for crashed ones and run
// them again. The holder's pid is a row in `server.lock` (SQLite), read and written in one exclusive
// transaction, so two starts racing for a stale lock cannot both win (a pid file read-then-overwritten can).
// A holder that is no longer alive (killed) left a stale row, which the next start takes over; so does our
// own pid, which a previous container (where the service is always pid 1) can have left. `server.pid` is
// written for people and tools only.

function alive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data folder's lock; returns its release. */
export function lockDataDir(dir: string): () => void {
  const db = new Database(join(dir, 'server.lock'));
  const pidFile = join(dir, 'server.pid');
  try {
    db.pragma('busy_timeout = 5000');
    const take = db.transaction(() => {
      db.exec(
        'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)',
      );
      const row = db.prepare('SELECT pid FROM holder WHERE id = 1').get() as { pid: number } | undefined;
      if (row && alive(row.pid)) return row.pid;
      db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
      return null;
    });
    const holder = take.exclusive();
    if (holder !== null) {
      throw new UserError(
        'USAGE',
        `${dir} is in use by another skillaudit serve (pid ${holder}); one service per data folder`,
      );
    }
    writeFileSync(pidFile, String(process.pid));
  } catch (error) {
    db.close();
    throw error;
  }
  return () => {
    try {
      const released = db.prepare('DELETE FROM holder WHERE id = 1 AND pid = ?').run(process.pid);
      if (released.changes === 1) rmSync(pidFile, { force: true });
    } finally {
      db.close();
    }
  };
}
