import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { COMMIT_HASH } from '../util/commit-hash.js';
import { errorMessage, UserError } from '../util/errors.js';

/**
 * The web service's audit queue and results: one SQLite file (`<data-dir>/server.sqlite`, WAL). A row moves
 * queued → running → done | failed. Work is claimed by one UPDATE ... RETURNING, so two workers never take
 * the same row; results are written only by the attempt that claimed the row, so a stale worker cannot
 * overwrite a newer one. Rows left running by a crash are queued again on open (the run folder is written
 * afresh), and a finished row is never claimed again.
 */

export type AuditStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewAudit {
  /** What the submitter sent, for display (a URL, or `upload:<name>`). */
  source: string;
  /** Canonical key: identical keys while queued or running are one audit. */
  sourceKey: string;
  /** `host/owner/repo` for lookups by page URL; null for uploads. */
  repoKey: string | null;
  ref: string | null;
  subdir: string | null;
  /** Skill name the submitter asked for. */
  skill: string | null;
  /** The source string handed to intake. */
  intakeSource: string;
  /** Uploaded archive this audit reads (removed once no queued or running audit reads it). */
  uploadPath: string | null;
  /**
   * Who submitted it: the tenant's name, `admin` for the service's own token, null on a service without
   * authentication. A tenant reads only its own audits.
   */
  tenant: string | null;
}

/** One skill of a source that holds several: what a part audit needs to pick it out again. */
export interface SkillPart {
  /** The skill's folder in the source, as intake names it (its provenance subdir). */
  subdir: string;
  /** Its name when it loaded; null when intake could not load it (the part audit then fails with why). */
  name: string | null;
}

export interface AuditResult {
  contentHash: string;
  skillName: string;
  /** Where the audited skill sits in its source ('.' for the root). */
  skillSubdir: string;
  commit: string | null;
  /** Run folder relative to the data folder. */
  runDir: string;
  safetyStatus: string;
  /** The finding score (eq. 8), kept for old clients; the headline is the rating. */
  safetyScore: number;
  /** The headline number in the status's band (src/score/rating.ts). */
  safetyRating: number;
  /** Why the status, in one line (the decision's reasons). */
  safetyReason: string;
}

export interface AuditRow extends NewAudit, Partial<AuditResult> {
  id: string;
  /** The audit of the whole source this one is a part of (a source holding several skills); else null. */
  parentId: string | null;
  status: AuditStatus;
  stage: string | null;
  attempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A finished audit without a result is a group: it ended by splitting into its part audits (split). */
export function isGroup(row: AuditRow): boolean {
  return row.status === 'done' && row.contentHash === undefined;
}

export interface AuditListQuery {
  /** Only this tenant's audits (absent: everyone's). */
  tenant?: string;
  status?: AuditStatus;
  /** Part of the source to match (a repository name, an upload's file name). */
  source?: string;
  limit: number;
  offset: number;
}

export type SubmitOutcome =
  | { kind: 'created'; audit: AuditRow }
  | { kind: 'existing'; audit: AuditRow }
  | { kind: 'full'; queued: number };

export interface LookupQuery {
  repoKey: string;
  ref: string | null;
  subdir: string | null;
  skill: string | null;
  /** The commit the page's ref points at now, when the service resolved it: its audit comes first. */
  commit?: string | null;
}

// 2: parent_id, for the part audits of a source that holds several skills.
// 3: tenant, safety_rating, safety_reason.
const SCHEMA_VERSION = 3;

/** Columns added after version 1, with their types: an older database gains them on open. */
const ADDED_COLUMNS: readonly (readonly [string, string])[] = [
  ['parent_id', 'TEXT'],
  ['tenant', 'TEXT'],
  ['safety_rating', 'INTEGER'],
  ['safety_reason', 'TEXT'],
];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audits (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  stage TEXT,
  source TEXT NOT NULL,
  source_key TEXT NOT NULL,
  repo_key TEXT,
  ref TEXT,
  subdir TEXT,
  skill TEXT,
  intake_source TEXT NOT NULL,
  upload_path TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  error_code TEXT,
  error_message TEXT,
  content_hash TEXT,
  skill_name TEXT,
  skill_subdir TEXT,
  commit_sha TEXT,
  run_dir TEXT,
  safety_status TEXT,
  safety_score REAL,
  safety_rating INTEGER,
  safety_reason TEXT,
  tenant TEXT,
  -- Unused: the verdict's words now follow from safety_status (src/core/verdict-words.ts). Kept so that
  -- databases written before stay the same shape.
  recommendation TEXT,
  headline TEXT,
  parent_id TEXT
);
`;

// Indexes come after the columns a version-1 database gains (see the constructor).
const INDEXES = `
-- One active audit per source: a second identical submission finds the first.
CREATE UNIQUE INDEX IF NOT EXISTS audits_active_source ON audits (source_key) WHERE status IN ('queued', 'running');
CREATE INDEX IF NOT EXISTS audits_queue ON audits (status, created_at);
CREATE INDEX IF NOT EXISTS audits_repo ON audits (repo_key, status, finished_at);
CREATE INDEX IF NOT EXISTS audits_hash ON audits (content_hash, status, finished_at);
CREATE INDEX IF NOT EXISTS audits_parent ON audits (parent_id) WHERE parent_id IS NOT NULL;
`;

// Column ↔ field names: the one place the two spellings meet.
const COLUMNS = {
  id: 'id',
  status: 'status',
  stage: 'stage',
  source: 'source',
  sourceKey: 'source_key',
  repoKey: 'repo_key',
  ref: 'ref',
  subdir: 'subdir',
  skill: 'skill',
  intakeSource: 'intake_source',
  uploadPath: 'upload_path',
  attempts: 'attempts',
  createdAt: 'created_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  errorCode: 'error_code',
  errorMessage: 'error_message',
  contentHash: 'content_hash',
  skillName: 'skill_name',
  skillSubdir: 'skill_subdir',
  commit: 'commit_sha',
  runDir: 'run_dir',
  safetyStatus: 'safety_status',
  safetyScore: 'safety_score',
  safetyRating: 'safety_rating',
  safetyReason: 'safety_reason',
  tenant: 'tenant',
  parentId: 'parent_id',
} as const;

const SELECT = `SELECT ${Object.entries(COLUMNS)
  .map(([field, column]) => `${column} AS "${field}"`)
  .join(', ')} FROM audits`;
const RETURNING = `RETURNING ${Object.entries(COLUMNS)
  .map(([field, column]) => `${column} AS "${field}"`)
  .join(', ')}`;

function withoutNulls(row: Record<string, unknown>): AuditRow {
  // Optional result fields are absent rather than null, so callers can spread them.
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null || !(key in RESULT_FIELDS)) out[key] = value;
  }
  return out as unknown as AuditRow;
}

const RESULT_FIELDS: Record<keyof AuditResult, true> = {
  contentHash: true,
  skillName: true,
  skillSubdir: true,
  commit: true,
  runDir: true,
  safetyStatus: true,
  safetyScore: true,
  safetyRating: true,
  safetyReason: true,
};

/** ` AND tenant = ?` and its parameter when only one tenant's audits may be read. */
function tenantClause(tenant: string | undefined): [string, unknown[]] {
  return tenant === undefined ? ['', []] : [' AND tenant = ?', [tenant]];
}

/** A new audit id: 16 url-safe characters (96 random bits), unguessable so report URLs can be shared. */
export function newAuditId(): string {
  return randomBytes(12).toString('base64url');
}

export const AUDIT_ID = /^[A-Za-z0-9_-]{16}$/;

export class AuditStore {
  private readonly db: Database.Database;

  private constructor(db: Database.Database) {
    this.db = db;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new UserError(
        'UNREADABLE',
        `the service database was written by a newer SkillAudit (schema ${version}); upgrade to use it`,
      );
    }
    db.exec(SCHEMA);
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('audits');
    for (const [name, type] of ADDED_COLUMNS)
      if (!columns.includes(name)) db.exec(`ALTER TABLE audits ADD COLUMN ${name} ${type}`);
    db.exec(INDEXES);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }

  /** Opens (creating when needed) `<dir>/server.sqlite`. */
  static open(dir: string): AuditStore {
    try {
      mkdirSync(dir, { recursive: true });
      const db = new Database(join(dir, 'server.sqlite'));
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      // A finished audit must survive a power cut as well as a crash: it is never re-run.
      db.pragma('synchronous = FULL');
      return new AuditStore(db);
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError(
        'UNREADABLE',
        `cannot open the service database in ${dir}: ${errorMessage(error)}`,
        dir,
      );
    }
  }

  private one(sql: string, ...params: unknown[]): AuditRow | null {
    const row = this.db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
    return row ? withoutNulls(row) : null;
  }

  get(id: string): AuditRow | null {
    return this.one(`${SELECT} WHERE id = ?`, id);
  }

  /** Queues an audit unless the same source is already queued or running, or the queue holds `maxQueued`. */
  submit(input: NewAudit, maxQueued: number, now: number = Date.now()): SubmitOutcome {
    return this.db.transaction((): SubmitOutcome => {
      const existing = this.one(
        `${SELECT} WHERE source_key = ? AND status IN ('queued', 'running')`,
        input.sourceKey,
      );
      if (existing) return { kind: 'existing', audit: existing };
      const queued = this.countByStatus().queued;
      if (queued >= maxQueued) return { kind: 'full', queued };
      const audit = this.one(
        `INSERT INTO audits (id, status, source, source_key, repo_key, ref, subdir, skill, intake_source,
           upload_path, tenant, created_at)
         VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${RETURNING}`,
        newAuditId(),
        input.source,
        input.sourceKey,
        input.repoKey,
        input.ref,
        input.subdir,
        input.skill,
        input.intakeSource,
        input.uploadPath,
        input.tenant,
        now,
      );
      return { kind: 'created', audit: audit! };
    })();
  }

  /** Takes the oldest queued audit (atomically: one statement), counting the attempt. */
  claim(now: number = Date.now()): AuditRow | null {
    return this.one(
      `UPDATE audits SET status = 'running', stage = 'intake', attempts = attempts + 1, started_at = ?
       WHERE id = (SELECT id FROM audits WHERE status = 'queued' ORDER BY created_at, rowid LIMIT 1)
       AND status = 'queued' ${RETURNING}`,
      now,
    );
  }

  /** Records the stage of a running attempt; false when the row is no longer that attempt's. */
  setStage(id: string, attempt: number, stage: string): boolean {
    return (
      this.db
        .prepare(`UPDATE audits SET stage = ? WHERE id = ? AND status = 'running' AND attempts = ?`)
        .run(stage, id, attempt).changes === 1
    );
  }

  finish(id: string, attempt: number, result: AuditResult, now: number = Date.now()): boolean {
    return (
      this.db
        .prepare(
          `UPDATE audits SET status = 'done', stage = NULL, finished_at = ?, content_hash = ?, skill_name = ?,
             skill_subdir = ?, commit_sha = ?, run_dir = ?, safety_status = ?, safety_score = ?,
             safety_rating = ?, safety_reason = ?
           WHERE id = ? AND status = 'running' AND attempts = ?`,
        )
        .run(
          now,
          result.contentHash,
          result.skillName,
          result.skillSubdir,
          result.commit,
          result.runDir,
          result.safetyStatus,
          result.safetyScore,
          result.safetyRating,
          result.safetyReason,
          id,
          attempt,
        ).changes === 1
    );
  }

  /**
   * Ends a running attempt whose source holds several skills and named none: the audit is done as the
   * group of its parts, one queued audit per skill, each reading the same source (and upload) and picking
   * its skill by folder. False when the row is no longer that attempt's.
   */
  split(id: string, attempt: number, parts: readonly SkillPart[], now: number = Date.now()): boolean {
    return this.db.transaction((): boolean => {
      const parent = this.one(`${SELECT} WHERE id = ? AND status = 'running' AND attempts = ?`, id, attempt);
      if (!parent) return false;
      // Shown as the source with the part's folder in place of any folder the submission named.
      const suffix = parent.subdir ? `#${parent.subdir}` : '';
      const base =
        suffix && parent.source.endsWith(suffix) ? parent.source.slice(0, -suffix.length) : parent.source;
      const insert = this.db.prepare(
        `INSERT INTO audits (id, status, source, source_key, repo_key, ref, subdir, skill, intake_source,
           upload_path, tenant, created_at, parent_id)
         VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const part of parts) {
        insert.run(
          newAuditId(),
          part.subdir === '.' ? base : `${base}#${part.subdir}`,
          `part:${id}#${part.subdir}`,
          parent.repoKey,
          parent.ref,
          part.subdir,
          // A part is picked by folder (its parent_id says so): the name is only what its page shows early.
          part.name,
          parent.intakeSource,
          parent.uploadPath,
          parent.tenant,
          now,
          id,
        );
      }
      this.db
        .prepare(`UPDATE audits SET status = 'done', stage = NULL, finished_at = ? WHERE id = ?`)
        .run(now, id);
      return true;
    })();
  }

  /** The part audits of a source that held several skills, in the order of their folders. */
  parts(id: string): AuditRow[] {
    return (
      this.db.prepare(`${SELECT} WHERE parent_id = ? ORDER BY rowid`).all(id) as Record<string, unknown>[]
    ).map(withoutNulls);
  }

  fail(id: string, attempt: number, code: string, message: string, now: number = Date.now()): boolean {
    return (
      this.db
        .prepare(
          `UPDATE audits SET status = 'failed', stage = NULL, finished_at = ?, error_code = ?, error_message = ?
           WHERE id = ? AND status = 'running' AND attempts = ?`,
        )
        .run(now, code, message.slice(0, 2000), id, attempt).changes === 1
    );
  }

  /** A running attempt stopped on purpose (shutdown): queued again, and the attempt is not counted. */
  requeue(id: string, attempt: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE audits SET status = 'queued', stage = NULL, started_at = NULL, attempts = attempts - 1
           WHERE id = ? AND status = 'running' AND attempts = ?`,
        )
        .run(id, attempt).changes === 1
    );
  }

  /**
   * After a crash: running rows go back to the queue, except those already started `maxAttempts` times
   * (an audit that keeps taking the service down), which fail.
   */
  recover(maxAttempts: number, now: number = Date.now()): { requeued: number; failed: number } {
    return this.db.transaction(() => {
      const failed = this.db
        .prepare(
          `UPDATE audits SET status = 'failed', stage = NULL, finished_at = ?, error_code = 'INTERRUPTED',
             error_message = 'the service stopped during each of ' || attempts || ' attempts; not retried'
           WHERE status = 'running' AND attempts >= ?`,
        )
        .run(now, maxAttempts).changes;
      const requeued = this.db
        .prepare(
          `UPDATE audits SET status = 'queued', stage = NULL, started_at = NULL WHERE status = 'running'`,
        )
        .run().changes;
      return { requeued, failed };
    })();
  }

  /** 1-based place of a queued audit in the queue. */
  queuePosition(audit: AuditRow): number {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM audits WHERE status = 'queued'
         AND (created_at < ? OR (created_at = ? AND rowid <= (SELECT rowid FROM audits WHERE id = ?)))`,
      )
      .get(audit.createdAt, audit.createdAt, audit.id) as { n: number };
    return row.n;
  }

  /** The latest finished audit of a skill with this content hash. */
  latestByHash(contentHash: string, tenant?: string): AuditRow | null {
    const [mine, params] = tenantClause(tenant);
    return this.one(
      `${SELECT} WHERE content_hash = ? AND status = 'done'${mine} ORDER BY finished_at DESC, rowid DESC LIMIT 1`,
      contentHash,
      ...params,
    );
  }

  /**
   * The latest finished audit matching a page or git URL: same repository; the same folder and skill
   * name when the URL names them (a URL naming neither matches audits of the repository as a whole); the
   * audit of the commit the ref points at now (`commit`), else of the same ref, else of the default branch.
   */
  latestByTarget(query: LookupQuery, tenant?: string): AuditRow | null {
    // A group (a source of several skills) has no verdict of its own: its parts are found by their folder.
    const where = ['repo_key = ?', "status = 'done'", 'content_hash IS NOT NULL'];
    const params: unknown[] = [query.repoKey];
    if (tenant !== undefined) {
      where.push('tenant = ?');
      params.push(tenant);
    }
    if (query.subdir !== null) {
      where.push('skill_subdir = ?');
      params.push(query.subdir);
    }
    if (query.skill !== null) {
      where.push('skill_name = ?');
      params.push(query.skill);
    }
    if (query.subdir === null && query.skill === null) where.push('subdir IS NULL AND skill IS NULL');
    // A page at a commit (full or short hash) is the audit of that commit, whichever branch or tag it was
    // submitted under: one commit, one verdict.
    const commit = query.ref !== null && COMMIT_HASH.test(query.ref) ? `${query.ref.toLowerCase()}%` : null;
    // What is preferred, in order: the commit the page shows now, then the page's ref (or its hash). With a ref,
    // one of them or the default branch must match; each preference also orders the matches.
    const preferred: { sql: string; params: unknown[] }[] = [];
    if (query.commit) preferred.push({ sql: 'commit_sha = ?', params: [query.commit] });
    if (query.ref !== null) {
      preferred.push(
        commit
          ? { sql: '(ref = ? OR commit_sha LIKE ?)', params: [query.ref, commit] }
          : { sql: 'ref = ?', params: [query.ref] },
      );
      where.push(`(${[...preferred.map((p) => p.sql), 'ref IS NULL'].join(' OR ')})`);
      params.push(...preferred.flatMap((p) => p.params));
    }
    const order = [...preferred.map((p) => `${p.sql} DESC`), 'finished_at DESC', 'rowid DESC'];
    return this.one(
      `${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order.join(', ')} LIMIT 1`,
      ...params,
      ...preferred.flatMap((p) => p.params),
    );
  }

  /** The latest finished audit submitted under this source key (a byte-identical upload, same settings). */
  latestDoneBySourceKey(sourceKey: string): AuditRow | null {
    return this.one(
      `${SELECT} WHERE source_key = ? AND status = 'done' ORDER BY finished_at DESC, rowid DESC LIMIT 1`,
      sourceKey,
    );
  }

  /**
   * One page of audits, newest first, optionally of one status and with `source` contained in the source
   * (case-insensitive; LIKE wildcards in it are matched literally), with the total that matches.
   */
  list(query: AuditListQuery): { audits: AuditRow[]; total: number } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.tenant !== undefined) {
      where.push('tenant = ?');
      params.push(query.tenant);
    }
    if (query.status) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.source) {
      where.push("source LIKE ? ESCAPE '\\'");
      params.push(`%${query.source.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (
      this.db.prepare(`SELECT COUNT(*) AS n FROM audits ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.db
      .prepare(`${SELECT} ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset) as Record<string, unknown>[];
    return { audits: rows.map(withoutNulls), total };
  }

  countByStatus(): Record<AuditStatus, number> {
    const counts: Record<AuditStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
    const rows = this.db.prepare('SELECT status, COUNT(*) AS n FROM audits GROUP BY status').all() as {
      status: AuditStatus;
      n: number;
    }[];
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  /** Upload paths of queued and running audits: the uploads still needed (indexed by status, not a scan). */
  activeUploadPaths(): string[] {
    const rows = this.db
      .prepare(
        "SELECT upload_path FROM audits WHERE status IN ('queued', 'running') AND upload_path IS NOT NULL",
      )
      .all() as { upload_path: string }[];
    return rows.map((row) => row.upload_path);
  }

  /** Every row (tests and the restart check read it whole). */
  all(): AuditRow[] {
    return (this.db.prepare(`${SELECT} ORDER BY created_at, rowid`).all() as Record<string, unknown>[]).map(
      withoutNulls,
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
