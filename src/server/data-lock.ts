import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';

// One service per data folder: a second one would take the first's running audits for crashed ones and run
// them again. `server.pid` names the holder; a holder that is no longer alive (killed) left a stale file,
// which the next start takes over.

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data folder's lock; returns its release. */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'server.pid');
  const mine = String(process.pid);
  try {
    writeFileSync(path, mine, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
      throw new UserError(
        'USAGE',
        `${dir} is in use by another skillaudit serve (pid ${holder}); one service per data folder`,
      );
    }
    writeFileSync(path, mine);
  }
  return () => {
    try {
      if (readFileSync(path, 'utf8') === mine) rmSync(path, { force: true });
    } catch {
      // Already gone: nothing to release.
    }
  };
}
