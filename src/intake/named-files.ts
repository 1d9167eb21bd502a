import { posix } from 'node:path';
import { readFileBounded } from './read-file.js';
import { FolderListings, INSTALL_MANIFESTS, namedFiles, type WalkedFile } from './walk.js';

// The files a skill runs, found before the walk so that padding cannot push them past its limits (walk.ts):
// the paths SKILL.md names, and what those run in turn — the manifest beside a named script (npm and pip run
// its install hooks), and the files a named file loads or runs by a relative path (`require('./lib/prep')`,
// `"postinstall": "node ./lib/prepare.js"`). Followed breadth-first, at most MAX_NAMED paths in all.

const SKILL_MD = 'SKILL.md';
const MAX_NAMED = 200;
/** How much of each named file is read to find what it names. */
const PEEK_BYTES = 256 * 1024;
// A relative path with an extension, as SKILL.md names its scripts and documents (`scripts/run.py`, `./a.sh`).
const NAMED_PATH =
  /(?<![\w./~$-])(?:\.\/)?((?:[\w@+-][\w.@+-]*\/){0,12}[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,6})(?![\w/])/g;
// A module loaded by a relative specifier, which may leave out the extension.
const RELATIVE_MODULE =
  /(?:require\s*\(\s*|import\s*\(\s*|\bfrom\s+|\bimport\s+)['"](\.{1,2}\/[^'"\n]{1,200})['"]/g;
const MODULE_SUFFIXES = ['', '.js', '.cjs', '.mjs', '.ts', '/index.js'];

/** The relative file paths a text names, in order, resolved against `dir` (the named file's folder). */
function pathsIn(text: string, dir: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAMED_PATH)) out.push(posix.join(dir, m[1]!));
  for (const m of text.matchAll(RELATIVE_MODULE))
    for (const suffix of MODULE_SUFFIXES) out.push(posix.join(dir, `${m[1]!}${suffix}`));
  return out.filter((p) => !p.startsWith('../') && p !== '..');
}

/** The start of a named file, read as intake reads every file (never through a link); empty when it cannot be. */
function peek(file: WalkedFile): string {
  try {
    const read = readFileBounded(file.abs, file.stat, PEEK_BYTES, false);
    // Unhashed, at most PEEK_BYTES are read, which is always done on the blocking path.
    return read instanceof Promise ? '' : read.head.toString('utf8');
  } catch {
    return '';
  }
}

/** The files SKILL.md names and, followed from them, what they run: existing regular files only. */
export function namedPaths(root: string, skillMd: string): WalkedFile[] {
  const found = new Map<string, WalkedFile>();
  const listings = new FolderListings(root);
  let queue = pathsIn(skillMd, '');
  while (queue.length > 0 && found.size < MAX_NAMED) {
    const next: string[] = [];
    const fresh = [...new Set(queue)].filter((p) => p !== SKILL_MD && !found.has(p));
    for (const file of namedFiles(root, fresh, listings)) {
      if (found.size >= MAX_NAMED) break;
      found.set(file.path, file);
      const dir = posix.dirname(file.path);
      next.push(...pathsIn(peek(file), dir === '.' ? '' : dir));
      if (dir !== '.') next.push(...INSTALL_MANIFESTS.map((m) => posix.join(dir, m)));
    }
    queue = next;
  }
  return [...found.values()];
}
