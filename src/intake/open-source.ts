import { constants, existsSync, type Stats } from 'node:fs';
import { copyFile, mkdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, resolve } from 'node:path';
import type { Diagnostic, Provenance, Skill, SkillLink, SourceKind } from '../core/types.js';
import { errorMessage, UserError, type UserErrorCode } from '../util/errors.js';
import { makeTempDir, removeTempDir } from '../util/tempdir.js';
import type { SkippedEntry } from './archive-guard.js';
import { discoverSkills, MAX_FOLDERS } from './discover.js';
import type { GitAccess } from './git.js';
import type { IntakeLimits } from './limits.js';
import { loadSkill, resolveLimits, type SkillExtras } from './load-skill.js';
import { archiveFormat, archiveStem, parseSource, type SourceSpec, safeFolderName } from './source-spec.js';
import { isInside } from './walk.js';

// Turns any source into folders on disk (copying, extracting or cloning into temp folders when needed),
// finds the skills in it, and loads each one; a broken skill is reported alone, never failing the rest.

export interface IntakeOptions {
  limits?: Partial<IntakeLimits>;
  /** Mirrors and extra git settings for remote repositories. */
  git?: GitAccess;
  /**
   * Called with each skill as soon as it has loaded (in the order loads finish), so a consumer can start on
   * it while the rest of a corpus is read; the handle still lists every skill, sorted.
   */
  onSkill?: (result: SkillResult) => void;
  /** Called once the skills of the source are found, with how many will load, before any loads. */
  onDiscovered?: (skillCount: number) => void;
  /**
   * Awaited before each skill loads: a consumer slower than the reading (the scan pool) holds intake back,
   * so a corpus is never read into memory far ahead of its use.
   */
  beforeLoad?: () => Promise<void>;
}

export type SkillResult =
  | { ok: true; skill: Skill }
  | { ok: false; path: string; error: { code: UserErrorCode; message: string } };

export interface IntakeHandle {
  source: string;
  skills: SkillResult[];
  /**
   * How a skill at `inSource` (its provenance subdir) is shown to a person: the source without its own
   * `#subdir` or credentials, plus the skill's path once (`repo@main#skills/xlsx`, `skills/xlsx`).
   */
  where(inSource: string): string;
  dispose(): Promise<void>;
}

/** The source as a person typed it, minus the `#subdir` (the skill's path says it) and any credentials. */
function sourceBase(spec: SourceSpec): string {
  return spec.kind === 'git' ? `${spec.display}${spec.ref ? `@${spec.ref}` : ''}` : spec.path;
}

function skillWhere(spec: SourceSpec, kind: SourceKind, inSource: string): string {
  const base = sourceBase(spec);
  if (inSource === '.' || inSource === '') return base;
  return kind === 'folder' ? join(base, inSource) : `${base}#${inSource}`;
}

interface Materialised {
  base: string;
  kind: SourceKind;
  uri: string;
  ref: string | null;
  commit: string | null;
  owner: string | null;
  skipped: SkippedEntry[];
}

/** A SKILL.md bigger than this is not a skill anyone wrote by hand; refusing it keeps copies cheap. */
const MAX_SINGLE_SKILL_MD_BYTES = 16 * 1024 * 1024;

async function statSource(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'EACCES') throw new UserError('UNREADABLE', `${path}: permission denied`, path);
    throw new UserError('NOT_FOUND', `${path}: no such file or folder`, path);
  }
}

async function materialiseFile(path: string, info: Stats, limits: IntakeLimits, temps: string[]) {
  const format = archiveFormat(path);
  if (format !== null) {
    const tmp = makeTempDir(format);
    temps.push(tmp);
    const dest = join(tmp, archiveStem(path));
    await mkdir(dest);
    // Archive readers (and their dependencies) load only for an archive: a folder scan never needs them.
    const extract =
      format === 'zip'
        ? (await import('./extract-zip.js')).extractZip
        : (await import('./extract-tar.js')).extractTar;
    const skipped = await extract(path, dest, limits, basename(path));
    return { base: dest, kind: format, skipped };
  }
  if (!path.toLowerCase().endsWith('.md')) {
    throw new UserError(
      'UNSUPPORTED_SOURCE',
      `${path}: expected a folder, a SKILL.md file, a .zip/.skill/.tar.gz/.tgz archive or a git repository`,
      path,
    );
  }
  if (info.size > MAX_SINGLE_SKILL_MD_BYTES) {
    throw new UserError('LIMIT_EXCEEDED', `${path}: ${info.size} bytes is too large for a SKILL.md`, path);
  }
  // Only this file is loaded, never its siblings: the user did not point at them. It is copied into a
  // folder named like its own, so the name-matches-folder rule still means something.
  const tmp = makeTempDir('file');
  temps.push(tmp);
  const dest = join(tmp, safeFolderName(basename(dirname(resolve(path))), 'skill'));
  await mkdir(dest);
  try {
    await copyFile(path, join(dest, 'SKILL.md'), constants.COPYFILE_EXCL);
  } catch (cause) {
    throw new UserError(
      'UNREADABLE',
      `${path}: could not be read (${(cause as NodeJS.ErrnoException).code})`,
      path,
    );
  }
  return { base: dest, kind: 'file' as const, skipped: [] };
}

async function materialise(
  spec: SourceSpec,
  limits: IntakeLimits,
  temps: string[],
  git: GitAccess | undefined,
): Promise<Materialised> {
  if (spec.kind === 'git') {
    const tmp = makeTempDir('git');
    temps.push(tmp);
    const repoName = basename(spec.url.replace(/[/\\]+$/, '').replace(/\.git$/, '')).replace(/^.*:/, '');
    const dest = join(tmp, safeFolderName(repoName, 'repo'));
    const { cloneRepository } = await import('./git.js');
    const commit = await cloneRepository(spec, dest, git);
    return {
      base: dest,
      kind: 'git',
      uri: spec.display,
      ref: spec.ref,
      commit,
      owner: spec.owner,
      skipped: [],
    };
  }
  const info = await statSource(spec.path);
  const common = { uri: spec.path, ref: null, commit: null, owner: null };
  if (info.isDirectory()) return { base: resolve(spec.path), kind: 'folder', skipped: [], ...common };
  if (!info.isFile()) {
    // Never open a FIFO or device the user pointed at: opening a FIFO blocks forever.
    throw new UserError('UNSAFE_PATH', `${spec.path}: not a regular file or folder`, spec.path);
  }
  return { ...(await materialiseFile(spec.path, info, limits, temps)), ...common };
}

async function enterSubdir(base: string, subdir: string, source: string): Promise<string> {
  const target = join(base, subdir);
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    throw new UserError('NOT_FOUND', `${source}: no folder ${subdir} in the source`, subdir);
  }
  if (!isInside(await realpath(base), real)) {
    throw new UserError(
      'UNSAFE_PATH',
      `${source}: #${subdir} leads outside the source through a symbolic link`,
      subdir,
    );
  }
  if (!(await stat(real)).isDirectory()) {
    throw new UserError('NOT_FOUND', `${source}: ${subdir} is not a folder`, subdir);
  }
  return target;
}

/** Archive entries that were not extracted, reported on the skill whose folder held them. */
function extrasFor(rootRel: string, skipped: SkippedEntry[]): SkillExtras {
  const prefix = rootRel === '.' ? '' : `${rootRel}/`;
  const links: SkillLink[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of skipped) {
    if (!entry.path.startsWith(prefix)) continue;
    const path = entry.path.slice(prefix.length);
    if (entry.kind === 'special') {
      diagnostics.push({
        code: 'special-file',
        level: 'warning',
        message: `${path} is a device or FIFO entry in the archive; not extracted`,
        file: path,
      });
      continue;
    }
    const target = entry.target ?? '';
    // Symlink targets are relative to the link; hard-link targets are archive paths.
    const resolved =
      entry.kind === 'symlink'
        ? posix.normalize(posix.join(posix.dirname(entry.path), target))
        : posix.normalize(target);
    const inside =
      !posix.isAbsolute(target) && (prefix === '' ? !resolved.startsWith('..') : resolved.startsWith(prefix));
    links.push({ path, target, inside });
    diagnostics.push({
      code: 'archive-link-skipped',
      level: 'warning',
      message: `${path} is a ${entry.kind === 'symlink' ? 'symbolic' : 'hard'} link in the archive (to ${target}); not extracted`,
      file: path,
    });
  }
  return { links, diagnostics };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// Skills of a corpus loaded at once (each reads its files in batches of its own).
const LOAD_CONCURRENCY = 8;

export async function openSource(source: string, options: IntakeOptions = {}): Promise<IntakeHandle> {
  const limits = resolveLimits(options.limits);
  const temps: string[] = [];
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    for (const dir of temps) removeTempDir(dir);
  };
  try {
    const spec = parseSource(source, (path) => existsSync(path));
    const found = await materialise(spec, limits, temps, options.git);
    const subdir = spec.subdir;
    const shown = spec.kind === 'git' ? spec.display : source;
    const base = subdir ? await enterSubdir(found.base, subdir, shown) : found.base;
    const discovery = await discoverSkills(base, limits.maxDepth);
    if (discovery.tooManyFolders) {
      // Loading only the skills found so far would silently skip the rest: refuse instead.
      throw new UserError(
        'LIMIT_EXCEEDED',
        `${shown}: more than ${MAX_FOLDERS} folders to search for SKILL.md; point at a narrower folder or use #subdir`,
      );
    }
    if (discovery.roots.length === 0 && discovery.unsearched.length === 0) {
      const deeper = discovery.depthLimited
        ? ` (folders deeper than ${limits.maxDepth} levels were not searched)`
        : '';
      throw new UserError('NO_SKILL', `${shown}: no SKILL.md found${deeper}`);
    }
    // Skills load several at a time: each is mostly waiting on the file system, so a corpus loads in a
    // fraction of the time a sequential loop takes. Results are sorted below, so order does not matter here.
    options.onDiscovered?.(discovery.roots.length);
    const skills: SkillResult[] = [];
    const pending = [...discovery.roots];
    const loadNext = async (): Promise<void> => {
      for (;;) {
        await options.beforeLoad?.();
        const rootRel = pending.shift();
        if (rootRel === undefined) return;
        const result = await loadOne(rootRel);
        skills.push(result);
        options.onSkill?.(result);
        // Reading a skill hardly ever waits on the thread pool (read-file.ts): give the event loop a turn
        // (the scan pool, worker messages, Ctrl-C) between two skills.
        await nextTurn();
      }
    };
    const loadOne = async (rootRel: string): Promise<SkillResult> => {
      const inSource = subdir ? (rootRel === '.' ? subdir : `${subdir}/${rootRel}`) : rootRel;
      const provenance: Provenance = {
        source: found.kind,
        uri: found.uri,
        ref: found.ref,
        commit: found.commit,
        subdir: inSource,
        owner: found.owner,
        category: null,
      };
      const dir = rootRel === '.' ? base : join(base, rootRel);
      try {
        return {
          ok: true,
          skill: await loadSkill(dir, provenance, limits, {
            ...extrasFor(inSource, found.skipped),
            unnamedFolder: inSource === '.' && (found.kind === 'zip' || found.kind === 'tar'),
          }),
        };
      } catch (cause) {
        const code: UserErrorCode = cause instanceof UserError ? cause.code : 'UNREADABLE';
        return { ok: false, path: inSource, error: { code, message: `${inSource}: ${errorMessage(cause)}` } };
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, pending.length) }, loadNext));
    for (const folder of discovery.unsearched) {
      const path = subdir ? (folder.path === '.' ? subdir : `${subdir}/${folder.path}`) : folder.path;
      skills.push({
        ok: false,
        path,
        error: {
          code: 'UNREADABLE',
          message: `${path}: folder could not be searched (${folder.reason}); skills in it were not loaded`,
        },
      });
    }
    skills.sort((a, b) => {
      const pa = a.ok ? a.skill.provenance.subdir : a.path;
      const pb = b.ok ? b.skill.provenance.subdir : b.path;
      return pa < pb ? -1 : pa > pb ? 1 : 0;
    });
    return { source: shown, skills, where: (inSource) => skillWhere(spec, found.kind, inSource), dispose };
  } catch (cause) {
    await dispose();
    throw cause;
  }
}

export async function withSource<T>(
  source: string,
  options: IntakeOptions | undefined,
  fn: (handle: IntakeHandle) => Promise<T>,
): Promise<T> {
  const handle = await openSource(source, options);
  try {
    return await fn(handle);
  } finally {
    await handle.dispose();
  }
}
