import type Database from 'better-sqlite3';
import { openCacheFile, storedValue } from './cache.js';

/**
 * The scan-result cache: `<dir>/scans.sqlite` maps a key (the skill's content, the scanner's code and rules, the
 * options: scan/source/scan-cache-key.ts) to the scan's JSON. A catalogue re-scan reads every skill again but analyses
 * only those whose key is new. Entries not written for KEEP_DAYS are dropped when the cache is opened.
 */
const KEEP_DAYS = 30;

export class ScanCache {
  private readonly selectStmt: Database.Statement<[string], { value: string }>;
  private readonly insertStmt: Database.Statement<[string, number, string]>;

  private constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS scans (
      key TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      value TEXT NOT NULL
    )`);
    db.prepare('DELETE FROM scans WHERE created_at < ?').run(Date.now() - KEEP_DAYS * 86_400_000);
    this.selectStmt = db.prepare('SELECT value FROM scans WHERE key = ?');
    this.insertStmt = db.prepare('INSERT OR REPLACE INTO scans (key, created_at, value) VALUES (?, ?, ?)');
  }

  static open(dir: string): ScanCache {
    return new ScanCache(openCacheFile(dir, 'scans.sqlite', 'scan cache'));
  }

  /** The stored scan, or null (cache.ts storedValue). */
  get(key: string): unknown {
    return storedValue(this.selectStmt, key);
  }

  /** Stores scans in one transaction: a corpus's results cost one commit. */
  putMany(entries: readonly (readonly [string, unknown])[]): void {
    const now = Date.now();
    this.db.transaction(() => {
      for (const [key, value] of entries) this.insertStmt.run(key, now, JSON.stringify(value));
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
