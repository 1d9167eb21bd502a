import { isUtf8 } from 'node:buffer';
import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic, SkillLink } from '../core/types.js';
import { classifyFile } from './classify.js';

// Lists a skill folder without ever following a symlink or opening anything but regular files:
// every entry is lstat'ed, links are recorded (inside or outside the root), special files are skipped.
// The calls block: each only reads metadata (nothing is opened), costs microseconds, and a promise per
// entry through the thread pool cost several times more main-thread CPU than the calls themselves.

export interface WalkedFile {
  /** Relative to the skill root, forward slashes (names that are not UTF-8 shown with U+FFFD). */
  path: string;
  /** The exact bytes of the path on disk, so files whose names are not UTF-8 can still be read. */
  abs: Buffer;
  stat: Stats;
}

export interface WalkResult {
  files: WalkedFile[];
  links: SkillLink[];
  diagnostics: Diagnostic[];
}

export interface WalkLimits {
  maxFiles: number;
  maxDepth: number;
}

/** Folders that are never part of a skill's content (version-control internals). */
const SKIPPED_DIRS = new Set(['.git']);
const SLICE = 512;
/**
 * Past the entry limit the walk goes on, lstat only, for at most this many times the limit's entries, and keeps
 * only scripts and install manifests (at most MAX_SWEPT_FILES): thousands of padding files in one folder must
 * not hide the one script in another.
 */
const SWEEP_FACTOR = 4;
const MAX_SWEPT_FILES = 200;
/**
 * Past the depth limit the walk goes on to this many times the limit's levels and keeps only scripts and install
 * manifests (the entry limit still counts every folder): nesting a script 33 folders deep, where `find` reaches
 * it at run time, must not hide it from the scan. Deeper than that, paths near the system's length limit.
 */
const DEPTH_SWEEP_FACTOR = 4;
/** What an installer runs beside the code it installs (npm and pip run their hooks). */
export const INSTALL_MANIFESTS = ['package.json', 'requirements.txt', 'pyproject.toml', 'setup.py'];

/** A script or an install manifest, by its name alone (the sweep past the entry limit opens nothing). */
function sweptFile(name: string): boolean {
  return classifyFile(name, '').kind === 'script' || INSTALL_MANIFESTS.includes(name.toLowerCase());
}
const SLASH = Buffer.from('/');

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function describeLink(root: string, realRoot: string, abs: Buffer, path: string) {
  const target = readlinkSync(abs, 'utf8');
  const lexicallyInside = isInside(root, resolve(root, dirname(path), target));
  // Resolving a path only walks names: nothing is opened, so this is safe even for hostile targets.
  try {
    // The native realpath(3), as fs/promises uses: one call, the same error codes.
    const real = realpathSync.native(abs, 'utf8');
    return { link: { path, target, inside: lexicallyInside && isInside(realRoot, real) }, loop: false };
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return { link: { path, target, inside: lexicallyInside && code === 'ENOENT' }, loop: code === 'ELOOP' };
  }
}

interface Examined {
  name: string;
  path: string;
  abs: Buffer;
  utf8: boolean;
  stat?: Stats;
  error?: string | undefined;
}

/** One folder entry, lstat'ed (never followed). */
function examine(dir: string, dirAbs: Buffer, raw: Buffer): Examined {
  const name = raw.toString('utf8');
  const path = dir ? `${dir}/${name}` : name;
  const abs = Buffer.concat([dirAbs, SLASH, raw]);
  try {
    return { name, path, abs, utf8: isUtf8(raw), stat: lstatSync(abs) };
  } catch (cause) {
    return { name, path, abs, utf8: isUtf8(raw), error: (cause as NodeJS.ErrnoException).code };
  }
}

/**
 * The entries of the folders under a root, listed once each (never following a link): a text names many
 * path-like words (`os.path`, `example.com`) that are not there, and an lstat per word and per folder on the
 * way cost more than the rest of a cached re-scan.
 */
export class FolderListings {
  private readonly listed = new Map<string, Map<string, Dirent> | null>();

  constructor(readonly root: string) {}

  /** The entry at `parts` below the root, if every folder on the way is a real folder (not a link). */
  entry(parts: readonly string[]): Dirent | undefined {
    let folder = '';
    for (let i = 0; i < parts.length; i++) {
      const entry = this.list(folder)?.get(parts[i]!);
      if (i === parts.length - 1) return entry;
      if (!entry?.isDirectory()) return undefined;
      folder = folder ? `${folder}/${parts[i]}` : parts[i]!;
    }
    return undefined;
  }

  private list(folder: string): Map<string, Dirent> | null {
    let entries = this.listed.get(folder);
    if (entries === undefined) {
      try {
        const dirents = readdirSync(resolve(this.root, folder), { withFileTypes: true });
        entries = new Map(dirents.map((d) => [d.name, d]));
      } catch {
        entries = null;
      }
      this.listed.set(folder, entries);
    }
    return entries;
  }
}

/**
 * The regular files among `named` (paths relative to the root that SKILL.md names): every folder on the way
 * must be a real folder (no link is followed) and the path may not leave the root.
 */
export function namedFiles(root: string, named: readonly string[], listings: FolderListings): WalkedFile[] {
  const found: WalkedFile[] = [];
  for (const path of named) {
    const parts = path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) continue;
    if (!listings.entry(parts)?.isFile()) continue;
    const abs = Buffer.from(resolve(root, ...parts));
    try {
      const stat = lstatSync(abs);
      if (stat.isFile()) found.push({ path, abs, stat });
    } catch {
      // Gone since it was listed: nothing to read.
    }
  }
  return found;
}

/**
 * Lists the skill's files. Files SKILL.md names (`named`, found by named-files.ts) come first, before any
 * limit can be reached, so padding a skill with thousands of files or nesting does not push the scripts it
 * runs out of the scan.
 */
export function walkSkill(root: string, limits: WalkLimits, named: readonly WalkedFile[] = []): WalkResult {
  const realRoot = realpathSync.native(root);
  const result: WalkResult = { files: [...named], links: [], diagnostics: [] };
  const listed = new Set(result.files.map((f) => f.path));
  const warn = (code: string, message: string, file?: string) =>
    result.diagnostics.push({ code, level: 'warning', message, ...(file ? { file } : {}) });
  let depthReported = false;
  let examined = result.files.length;
  let sweeping = false;
  let swept = 0;
  const sweepDepth = limits.maxDepth * DEPTH_SWEEP_FACTOR;
  // Depth-first in sorted order, so the same tree always yields the same list (and the same cut-off).
  const stack: Array<{ dir: string; abs: Buffer; depth: number }> = [
    { dir: '', abs: Buffer.from(root), depth: 0 },
  ];
  while (stack.length > 0) {
    const { dir, abs: dirAbs, depth } = stack.pop()!;
    let names: Buffer[];
    try {
      // Names as bytes: a name that is not UTF-8 would not round-trip through a string.
      names = readdirSync(dirAbs, { encoding: 'buffer' }).sort(Buffer.compare);
    } catch (cause) {
      warn(
        'unreadable',
        `folder ${dir || '.'} could not be listed (${(cause as NodeJS.ErrnoException).code})`,
        dir,
      );
      continue;
    }
    const subdirs: Array<{ dir: string; abs: Buffer }> = [];
    // Examined in slices so that a folder of a million entries stops costing once the file limit is hit.
    for (let start = 0; start < names.length; start += SLICE) {
      const entries = names.slice(start, start + SLICE).map((raw) => examine(dir, dirAbs, raw));
      for (const entry of entries) {
        const { name, path, abs } = entry;
        if (!entry.utf8 && !sweeping) {
          warn(
            'file-name-encoding',
            `${path}: the name is not valid UTF-8 (shown with replacement characters)`,
            path,
          );
        }
        if (!entry.stat) {
          if (!sweeping) warn('unreadable', `${path} could not be examined (${entry.error})`, path);
          continue;
        }
        const { stat } = entry;
        // Folders, links and special files count too: 100,000 empty folders or symlinks must not cost
        // more than as many files.
        if (++examined > limits.maxFiles) {
          if (!sweeping) {
            sweeping = true;
            warn(
              'limit-files',
              `the skill has more than ${limits.maxFiles} entries (files, folders, links); only the first ${limits.maxFiles} were examined, and past them only scripts and manifests were looked for`,
            );
          }
          if (examined > limits.maxFiles * SWEEP_FACTOR || swept >= MAX_SWEPT_FILES) return result;
          // Padding spent the limit: the folders it did not reach may still hold the code that runs.
          if (stat.isDirectory() && !SKIPPED_DIRS.has(name) && depth + 1 <= sweepDepth)
            subdirs.push({ dir: path, abs });
          else if (stat.isFile() && sweptFile(name) && !listed.has(toPosix(path))) {
            result.files.push({ path: toPosix(path), abs, stat });
            swept++;
          }
          continue;
        }
        if (stat.isSymbolicLink()) {
          const { link, loop } = describeLink(root, realRoot, abs, toPosix(path));
          result.links.push(link);
          if (loop)
            warn('symlink-loop', `${path} is a symbolic link loop (to ${link.target}); not followed`, path);
          else if (!link.inside) {
            warn(
              'symlink-outside',
              `${path} is a symbolic link to ${link.target}, outside the skill; not followed`,
              path,
            );
          }
        } else if (stat.isDirectory()) {
          if (SKIPPED_DIRS.has(name)) {
            result.diagnostics.push({
              code: 'skipped-dir',
              level: 'info',
              message: `${path} skipped`,
              file: path,
            });
          } else if (depth + 1 > limits.maxDepth) {
            if (!depthReported) {
              warn(
                'limit-depth',
                `folders nested deeper than ${limits.maxDepth} levels were searched only for scripts and manifests, and not past ${sweepDepth} levels (first: ${path})`,
                path,
              );
              depthReported = true;
            }
            if (depth + 1 <= sweepDepth) subdirs.push({ dir: path, abs });
          } else subdirs.push({ dir: path, abs });
        } else if (stat.isFile()) {
          const keep = depth <= limits.maxDepth || (sweptFile(name) && swept++ < MAX_SWEPT_FILES);
          if (keep && !listed.has(toPosix(path))) result.files.push({ path: toPosix(path), abs, stat });
        } else {
          warn('special-file', `${path} is ${specialKind(stat)}; skipped without opening it`, path);
        }
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ ...subdirs[i]!, depth: depth + 1 });
  }
  return result;
}
