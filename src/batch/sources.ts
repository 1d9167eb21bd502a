import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { archiveFormat, DEFAULT_LIMITS, discoverSkills, parseSource } from '../intake/index.js';
import { UserError } from '../util/errors.js';

// The corpus of a batch, one source at a time: a folder of skills becomes one source per skill folder (so a
// 10,000-skill folder is 10,000 small audits, in parallel and resumable one by one, never one load of the
// whole corpus); a list file gives one source per line (paths, archives, git URLs with @ref#subdir); anything
// else (an archive, a git URL, one skill folder) is a source as it is.

const LIST_EXTENSIONS = /\.(txt|list|lst|sources)$/i;

function kindOf(path: string): 'folder' | 'file' | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/** A URL (`https://…`, `file://…`) or an scp-like git address (`git@host:owner/repo`), not a local path. */
export function isRemoteSource(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[\w.~-]+@[\w.-]+:/.test(text);
}

/** Lines of a list file: blank lines and `#` comments skipped; relative paths are relative to the file. */
export function listFileSources(path: string): string[] {
  const base = dirname(resolve(path));
  const sources: string[] = [];
  for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    sources.push(isRemoteSource(line) || isAbsolute(line) ? line : join(base, line));
  }
  return sources;
}

/** Every source of the corpus arguments, in order; throws a usage error for an argument that names nothing. */
export async function* corpusSources(args: readonly string[]): AsyncGenerator<string> {
  for (const arg of args) {
    const kind = kindOf(arg);
    if (kind === 'file' && LIST_EXTENSIONS.test(arg) && archiveFormat(arg) === null) {
      yield* listFileSources(arg);
    } else if (kind === 'folder') {
      const found = await discoverSkills(arg, DEFAULT_LIMITS.maxDepth);
      if (found.roots.length === 0 && found.unsearched.length === 0)
        throw new UserError('NO_SKILL', `${arg}: no SKILL.md found`);
      for (const root of found.roots) yield root === '.' ? arg : join(arg, root);
      // A folder that could not be listed is still a source: its audit fails and says why.
      for (const { path } of found.unsearched) yield join(arg, path);
    } else {
      // Refused here, before anything runs: a typo in a corpus argument is a usage error, not a failed skill.
      parseSource(arg, existsSync);
      yield arg;
    }
  }
}
