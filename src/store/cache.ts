import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { errorMessage, UserError } from '../util/errors.js';

/**
 * One SQLite file of a cache folder, in WAL mode so parallel workers and processes can share it. A folder that
 * cannot be opened is the user's to fix: the error names it and the flags that change it.
 */
export function openCacheFile(dir: string, file: string, what: string): Database.Database {
  try {
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, file));
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    throw new UserError(
      'UNREADABLE',
      `cannot open the ${what} in ${dir}: ${errorMessage(error)} (use --cache-dir or --no-cache)`,
      dir,
    );
  }
}

/** A cache row's stored JSON, or null when absent or unreadable (a damaged row is a miss, not an error). */
export function storedValue(select: Database.Statement<[string], { value: string }>, key: string): unknown {
  const row = select.get(key);
  if (!row) return null;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    return null;
  }
}

/**
 * The model-response cache: one SQLite file (WAL, so parallel workers and processes can share it) mapping a
 * request key (sha256 of the normalised request) to the stored response JSON. A re-run of the same requests
 * is answered from here, costs nothing and reproduces the earlier answers exactly.
 */
export class ResponseCache {
  private readonly db: Database.Database;
  private readonly selectStmt: Database.Statement<[string], { value: string }>;
  private readonly insertStmt: Database.Statement<[string, string, string, number, string]>;

  private constructor(db: Database.Database) {
    this.db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS responses (
      key TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      value TEXT NOT NULL
    )`);
    this.selectStmt = db.prepare('SELECT value FROM responses WHERE key = ?');
    this.insertStmt = db.prepare(
      'INSERT OR REPLACE INTO responses (key, provider, model, created_at, value) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /** Opens (creating when needed) `<dir>/responses.sqlite`. */
  static open(dir: string): ResponseCache {
    return new ResponseCache(openCacheFile(dir, 'responses.sqlite', 'response cache'));
  }

  get(key: string): unknown {
    return storedValue(this.selectStmt, key);
  }

  put(key: string, meta: { provider: string; model: string }, value: unknown): void {
    this.insertStmt.run(key, meta.provider, meta.model, Date.now(), JSON.stringify(value));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
