import { createHash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Diagnostic, Provenance, Skill, SkillFile, SkillLink } from '../core/types.js';
import { UserError } from '../util/errors.js';
import { mapInBatches } from './batches.js';
import { classifyFile } from './classify.js';
import { decodeText } from './decode-text.js';
import { parseSkillMd, skillMdFields } from './frontmatter.js';
import { DEFAULT_LIMITS, type IntakeLimits } from './limits.js';
import { namedPaths } from './named-files.js';
import { type FileBytes, FileChangedError, readFileBounded } from './read-file.js';
import { specDiagnostics } from './spec-rules.js';
import { walkSkill } from './walk.js';

// Builds the normalised Skill from a folder whose root holds SKILL.md.

/** What an archive extraction left out of the folder (links, special entries), to report on the skill. */
export interface SkillExtras {
  links: SkillLink[];
  diagnostics: Diagnostic[];
  /**
   * The skill sits at the root of an archive, so its folder is named after the archive file, which says how
   * it was packed (pdf.zip, pdf-flat.zip), not what the author called it: the frontmatter name stands in, so
   * identity and findings do not depend on the file name.
   */
  unnamedFolder?: boolean;
}

const SKILL_MD = 'SKILL.md';

/** How much further than other files the files SKILL.md names are read (still within maxTextBytes). */
export const NAMED_READ_FACTOR = 8;

function warning(code: string, message: string, file: string): Diagnostic {
  return { code, level: 'warning', message, file };
}

function statSkillMd(root: string): Stats {
  let stat: Stats;
  try {
    stat = lstatSync(join(root, SKILL_MD));
  } catch {
    throw new UserError('NO_SKILL', `no SKILL.md in ${root}`, SKILL_MD);
  }
  if (stat.isSymbolicLink()) {
    throw new UserError('UNSAFE_PATH', 'SKILL.md is a symbolic link; links are never followed', SKILL_MD);
  }
  if (!stat.isFile()) throw new UserError('UNSAFE_PATH', 'SKILL.md is not a regular file', SKILL_MD);
  return stat;
}

interface ReadState {
  limits: IntakeLimits;
  hashedBytes: number;
  textBytes: number;
  diagnostics: Diagnostic[];
  reported: Set<string>;
}

function reportOnce(state: ReadState, diagnostic: Diagnostic): void {
  if (state.reported.has(diagnostic.code)) return;
  state.reported.add(diagnostic.code);
  state.diagnostics.push(diagnostic);
}

interface ReadOutcome {
  file: SkillFile;
  /** This file's own diagnostics, appended in file order once every read is done. */
  notes: Diagnostic[];
}

async function readSkillFile(
  path: string,
  abs: string | Buffer,
  stat: Stats,
  state: ReadState,
  readLimit = state.limits.maxReadBytes,
): Promise<ReadOutcome> {
  const { limits } = state;
  // Budgets are reserved before the first await, in file order, so concurrent reads stay deterministic.
  const textRoom = Math.max(0, limits.maxTextBytes - state.textBytes);
  const readBytes = Math.min(readLimit, stat.size, textRoom);
  state.textBytes += readBytes;
  const hashing = stat.size <= limits.maxTotalBytes - state.hashedBytes;
  if (hashing) state.hashedBytes += stat.size;
  else {
    reportOnce(state, {
      code: 'limit-total-bytes',
      level: 'warning',
      message: `files past ${limits.maxTotalBytes} bytes in total were not hashed (first: ${path}, ${stat.size} bytes)`,
      file: path,
    });
  }
  if (readBytes < Math.min(readLimit, stat.size)) {
    reportOnce(state, {
      code: 'limit-text-bytes',
      level: 'warning',
      message: `text past ${limits.maxTextBytes} bytes per skill was not kept for analysis (first: ${path})`,
      file: path,
    });
  }
  const textSkipped = stat.size > 0 && readBytes === 0;
  const nameClass = classifyFile(path, '');
  const unread = { path, size: stat.size, sha256: null, kind: nameClass.kind, language: nameClass.language };
  let bytes: FileBytes;
  try {
    // Small files come back at once (read-file.ts); only large ones are a promise to wait for.
    const read = readFileBounded(abs, stat, readBytes, hashing, commentMarker(nameClass.language));
    bytes = read instanceof Promise ? await read : read;
  } catch (cause) {
    const code = cause instanceof FileChangedError ? 'changed' : (cause as NodeJS.ErrnoException).code;
    return {
      file: { ...unread, text: null, truncated: false },
      notes: [warning('unreadable', `${path} could not be read (${code})`, path)],
    };
  }
  if (textSkipped)
    return { file: { ...unread, sha256: bytes.sha256, text: null, truncated: false }, notes: [] };
  const notes: Diagnostic[] = [];
  const decoded = decodeText(bytes.head, bytes.truncated, nameClass.expectsText);
  const { kind, language } = classifyFile(path, decoded.text === null ? null : decoded.text.slice(0, 256));
  if (decoded.text === null && nameClass.expectsText) {
    notes.push(warning('binary-content', `${path} has a text file name but binary content`, path));
  }
  if (decoded.text !== null && decoded.invalidUtf8) {
    notes.push(
      warning('invalid-utf8', `${path} is not valid UTF-8; decoded with replacement characters`, path),
    );
  }
  if (decoded.text !== null && bytes.compacted)
    notes.push(
      warning(
        'comments-emptied',
        `${path} is longer than the read limit (${stat.size} bytes): its comment-only lines were emptied so its code could be read${bytes.truncated ? ', and it was still cut' : ''}`,
        path,
      ),
    );
  if (decoded.text !== null && decoded.nulBytes)
    notes.push(warning('nul-bytes', `${path} contains NUL bytes`, path));
  const file = {
    path,
    size: stat.size,
    sha256: bytes.sha256,
    kind,
    language,
    text: decoded.text,
    truncated: decoded.text !== null && bytes.truncated,
  };
  return { file, notes };
}

const HASH_COMMENT = Buffer.from('#');
const SLASH_COMMENT = Buffer.from('//');

const HASH_COMMENTED = new Set(['python', 'bash', 'ruby', 'powershell', 'make']);

/** The line-comment marker of a script language whose comment lines may be emptied to fit the read limit. */
function commentMarker(language: string | null): Buffer | null {
  if (language !== null && HASH_COMMENTED.has(language)) return HASH_COMMENT;
  if (language === 'javascript' || language === 'typescript') return SLASH_COMMENT;
  return null;
}

/** sha256 over the sorted (path, sha256) pairs and the SKILL.md text: equal content gives an equal id. */
function skillId(files: SkillFile[], skillMdText: string): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\0${file.sha256 ?? `unhashed:${file.size}`}\n`);
  }
  hash.update(skillMdText);
  return hash.digest('hex');
}

export async function loadSkill(
  dir: string,
  provenance: Provenance,
  limits: IntakeLimits,
  extras: SkillExtras = { links: [], diagnostics: [] },
): Promise<Skill> {
  const root = resolve(dir);
  const skillMdStat = statSkillMd(root);
  const state: ReadState = { limits, hashedBytes: 0, textBytes: 0, diagnostics: [], reported: new Set() };
  const first = await readSkillFile(SKILL_MD, join(root, SKILL_MD), skillMdStat, state);
  const skillMd = first.file;
  if (first.notes.some((d) => d.code === 'unreadable')) {
    throw new UserError('UNREADABLE', 'SKILL.md could not be read (permission denied or changed)', SKILL_MD);
  }
  if (skillMd.size === 0 || (skillMd.text !== null && skillMd.text.trim() === '')) {
    throw new UserError('EMPTY_SKILL_MD', 'SKILL.md is empty', SKILL_MD);
  }
  if (skillMd.text === null) throw new UserError('BINARY_SKILL_MD', 'SKILL.md is binary, not text', SKILL_MD);
  const notes = [...first.notes];
  if (skillMd.truncated) {
    notes.push(
      warning(
        'skill-md-truncated',
        `SKILL.md is larger than ${limits.maxReadBytes} bytes; only the start was read`,
        SKILL_MD,
      ),
    );
  }

  const named = namedPaths(root, skillMd.text);
  const walked = walkSkill(root, limits, named);
  const others = walked.files.filter((entry) => entry.path !== SKILL_MD);
  const wanted = new Set(named.map((file) => file.path));
  // What SKILL.md names is read further than the rest: a megabyte of filler ahead of a script's payload must
  // not push the payload past what the scan reads.
  const outcomes = await mapInBatches(others, (entry) =>
    readSkillFile(
      entry.path,
      entry.abs,
      entry.stat,
      state,
      wanted.has(entry.path) ? limits.maxReadBytes * NAMED_READ_FACTOR : limits.maxReadBytes,
    ),
  );
  const files = [skillMd, ...outcomes.map((o) => o.file)];
  for (const outcome of outcomes) notes.push(...outcome.notes);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const parsed = parseSkillMd(skillMd.text);
  const declared = parsed.frontmatter.name;
  const folderName =
    extras.unnamedFolder === true
      ? typeof declared === 'string' && declared.trim() !== ''
        ? declared
        : 'skill'
      : basename(root);
  const spec = specDiagnostics({
    frontmatter: parsed.frontmatter,
    frontmatterLines: parsed.frontmatterLines,
    hasFrontmatter: !parsed.diagnostics.some((d) => d.level === 'error'),
    body: parsed.body,
    folderName,
    lineCount: skillMd.text.split('\n').length,
  });
  return {
    id: skillId(files, skillMd.text),
    ...skillMdFields(parsed, folderName),
    files,
    links: [...extras.links, ...walked.links].sort((a, b) => (a.path < b.path ? -1 : 1)),
    diagnostics: [
      ...parsed.diagnostics,
      ...spec,
      ...state.diagnostics,
      ...notes,
      ...extras.diagnostics,
      ...walked.diagnostics,
    ],
    provenance,
    root,
    folderName,
  };
}

export function resolveLimits(limits: Partial<IntakeLimits> | undefined): IntakeLimits {
  const merged = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (value !== undefined) (merged as Record<string, number>)[key] = value;
  }
  return merged;
}
