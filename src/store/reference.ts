import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { errorMessage, UserError } from '../util/errors.js';

// A reference set for the execution-free estimate: one SQLite file holding, per skill, the text retrieval
// reads (so vectors are rebuilt by whatever tokeniser the reading version has) and its quality profile. The
// `meta` table names the format and its schema version, so a file that is not ours, or from an incompatible
// version, is refused with a clear message instead of being half-read.

export const REFERENCE_FORMAT = 'skillaudit-reference';
export const REFERENCE_SCHEMA_VERSION = 1;

const storedScoreSchema = z.object({
  id: z.string().min(1).max(100),
  group: z.enum(['static', 'dynamic', 'rubric']),
  status: z.enum(['scored', 'not_run']),
  score: z.number().min(0).max(1).nullable(),
  /** `static`: computed by `reference build`; `imported`: read from a report or quality JSON (--profiles). */
  origin: z.enum(['static', 'imported']),
});
export type StoredScore = z.infer<typeof storedScoreSchema>;
const profileSchema = z.array(storedScoreSchema).max(100);

export interface ReferenceRecord {
  /** The skill's content hash (intake's Skill.id). */
  skillId: string;
  /** Where the skill was found in the corpus. */
  path: string;
  name: string;
  description: string;
  body: string;
  category: string;
  categorySource: string;
  profile: StoredScore[];
}

export interface ReferenceMeta {
  schemaVersion: number;
  toolVersion: string;
  createdAt: string;
  /** The corpus the set was built from, as given to `reference build`. */
  source: string;
}

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE skills (
  row INTEGER PRIMARY KEY,
  skill_id TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  body TEXT NOT NULL,
  category TEXT NOT NULL,
  category_source TEXT NOT NULL,
  profile TEXT NOT NULL
);`;

function openDb(path: string, readonly: boolean): Database.Database {
  try {
    return new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw new UserError(
      'UNREADABLE',
      `${path}: cannot open the reference set (${errorMessage(error)})`,
      path,
    );
  }
}

/** The meta table as a map, or null when the file is a database without our meta table. */
function readMetaTable(db: Database.Database, path: string): Map<string, string> | null {
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'skills')")
      .all() as { name: string }[];
    if (tables.length < 2) return null;
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: unknown; value: unknown }[];
    return new Map(rows.map((r) => [String(r.key), String(r.value)]));
  } catch (error) {
    // "file is not a database" surfaces on the first statement, not when opening.
    throw new UserError(
      'UNREADABLE',
      `${path}: not a skillaudit reference set (${errorMessage(error)})`,
      path,
    );
  }
}

function checkMeta(meta: Map<string, string> | null, path: string): ReferenceMeta {
  if (!meta || meta.get('format') !== REFERENCE_FORMAT) {
    throw new UserError(
      'UNSUPPORTED_SOURCE',
      `${path}: not a skillaudit reference set (build one with \`skillaudit reference build\`)`,
      path,
    );
  }
  const version = Number(meta.get('schema_version'));
  if (version !== REFERENCE_SCHEMA_VERSION) {
    throw new UserError(
      'UNSUPPORTED_SOURCE',
      `${path}: reference set schema version ${meta.get('schema_version')} is not supported (this version reads ${REFERENCE_SCHEMA_VERSION}); rebuild it with \`skillaudit reference build\``,
      path,
    );
  }
  return {
    schemaVersion: version,
    toolVersion: meta.get('tool_version') ?? '',
    createdAt: meta.get('created_at') ?? '',
    source: meta.get('source') ?? '',
  };
}

/** Whether `path` is a reference set this version can read (used before overwriting it). */
export function isReferenceDb(path: string): boolean {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return readMetaTable(db, path)?.get('format') === REFERENCE_FORMAT;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Refuses a path that holds anything but a reference set: `--out` must never clobber another file. */
export function assertReplaceable(path: string): void {
  if (existsSync(path) && (!statSync(path).isFile() || !isReferenceDb(path))) {
    throw new UserError(
      'USAGE',
      `${path} exists and is not a skillaudit reference set; not overwritten`,
      path,
    );
  }
}

/**
 * Writes the set to a temporary file beside `path` and renames it into place, so a failed build never leaves
 * a half-written set. An existing file is replaced only when it is itself a reference set.
 */
export function writeReferenceDb(
  path: string,
  meta: Omit<ReferenceMeta, 'schemaVersion'>,
  records: readonly ReferenceRecord[],
): void {
  assertReplaceable(path);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  rmSync(tmp, { force: true });
  const db = openDb(tmp, false);
  try {
    db.exec(SCHEMA);
    const putMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const putSkill = db.prepare(
      'INSERT INTO skills (skill_id, path, name, description, body, category, category_source, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      putMeta.run('format', REFERENCE_FORMAT);
      putMeta.run('schema_version', String(REFERENCE_SCHEMA_VERSION));
      putMeta.run('tool_version', meta.toolVersion);
      putMeta.run('created_at', meta.createdAt);
      putMeta.run('source', meta.source);
      for (const r of records) {
        putSkill.run(
          r.skillId,
          r.path,
          r.name,
          r.description,
          r.body,
          r.category,
          r.categorySource,
          JSON.stringify(r.profile),
        );
      }
    })();
    db.close();
    renameSync(tmp, path);
  } catch (error) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw error;
  }
}

interface SkillRow {
  row: number;
  skill_id: unknown;
  path: unknown;
  name: unknown;
  description: unknown;
  body: unknown;
  category: unknown;
  category_source: unknown;
  profile: unknown;
}

function recordOf(row: SkillRow, path: string): ReferenceRecord {
  const texts = [
    row.skill_id,
    row.path,
    row.name,
    row.description,
    row.body,
    row.category,
    row.category_source,
  ];
  let profile: z.infer<typeof profileSchema> | undefined;
  if (texts.every((t) => typeof t === 'string') && typeof row.profile === 'string') {
    try {
      profile = profileSchema.parse(JSON.parse(row.profile));
    } catch {
      profile = undefined;
    }
  }
  if (!profile)
    throw new UserError(
      'UNREADABLE',
      `${path}: skill row ${row.row} is damaged; rebuild the reference set`,
      path,
    );
  const [skillId, p, name, description, body, category, categorySource] = texts as string[];
  return {
    skillId: skillId!,
    path: p!,
    name: name!,
    description: description!,
    body: body!,
    category: category!,
    categorySource: categorySource!,
    profile,
  };
}

export function readReferenceDb(path: string): { meta: ReferenceMeta; records: ReferenceRecord[] } {
  if (!existsSync(path)) throw new UserError('NOT_FOUND', `${path}: no such reference set`, path);
  if (!statSync(path).isFile()) throw new UserError('UNSAFE_PATH', `${path}: not a regular file`, path);
  const db = openDb(path, true);
  try {
    const meta = checkMeta(readMetaTable(db, path), path);
    const rows = db.prepare('SELECT * FROM skills ORDER BY row').all() as SkillRow[];
    return { meta, records: rows.map((r) => recordOf(r, path)) };
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(
      'UNREADABLE',
      `${path}: cannot read the reference set (${errorMessage(error)})`,
      path,
    );
  } finally {
    db.close();
  }
}
