import { type Dirent, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// Finds skill roots under a folder: every folder holding a SKILL.md. A SKILL.md deeper inside a skill
// belongs to that skill (harnesses install the whole folder and only read its top SKILL.md), so the
// search does not descend into a skill. Links are never followed; .git and node_modules are skipped.
// Blocking calls: each reads only metadata and costs microseconds, far less than a promise per folder.

export const SKIPPED = new Set(['.git', 'node_modules']);
/** Folders searched before giving up: far beyond any skill collection, short of walking a whole disk. */
export const MAX_FOLDERS = 100_000;

export interface Discovery {
  /** Skill roots relative to the searched folder ('.' for the folder itself), in path order. */
  roots: string[];
  /** True when folders deeper than the depth limit were not searched. */
  depthLimited: boolean;
  /** True when the search stopped after `maxFolders` folders. */
  tooManyFolders: boolean;
  /** Folders that could not be searched (permissions, names that are not UTF-8), in path order. */
  unsearched: Array<{ path: string; reason: string }>;
}

function holdsSkillMd(dir: string): boolean {
  try {
    return !lstatSync(join(dir, 'SKILL.md')).isDirectory();
  } catch {
    return false;
  }
}

export async function discoverSkills(
  root: string,
  maxDepth: number,
  maxFolders = MAX_FOLDERS,
): Promise<Discovery> {
  const found: string[] = [];
  const unsearched: Discovery['unsearched'] = [];
  let depthLimited = false;
  const done = (tooManyFolders: boolean): Discovery => ({
    roots: found.sort(),
    depthLimited,
    tooManyFolders,
    unsearched: unsearched.sort((a, b) => (a.path < b.path ? -1 : 1)),
  });
  const stack: Array<{ rel: string; depth: number }> = [{ rel: '', depth: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > maxFolders) return done(true);
    const { rel, depth } = stack.pop()!;
    const abs = rel ? join(root, rel) : root;
    if (holdsSkillMd(abs)) {
      found.push(rel || '.');
      continue;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (cause) {
      // Said out loud: a skill in a folder we cannot list must not vanish from the results.
      unsearched.push({ path: rel || '.', reason: (cause as NodeJS.ErrnoException).code ?? 'unlistable' });
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      if (entry.name.includes('\ufffd') && !existsSync(join(abs, entry.name))) {
        unsearched.push({
          path: rel ? `${rel}/${entry.name}` : entry.name,
          reason: 'name is not valid UTF-8',
        });
        continue;
      }
      if (depth + 1 > maxDepth) {
        depthLimited = true;
        continue;
      }
      stack.push({ rel: rel ? `${rel}/${entry.name}` : entry.name, depth: depth + 1 });
    }
  }
  return done(false);
}
