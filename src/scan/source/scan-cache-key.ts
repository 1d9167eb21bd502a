import { createHash, type Hash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTIN_RULES_DIR } from '../../core/knowledge.js';
import type { Skill } from '../../core/types.js';
import { VERSION } from '../../version.js';
import type { ScanOptions } from '../engine/scan.js';

// What a cached scan is keyed by: everything its findings and decision come from. The skill's content (intake's
// hashes of every file, with what intake made of each: kind, language, read or cut), the scanner (the code of
// the stages that shape findings and the decision, and every built-in rule file, hashed as installed, so an
// edit without a release still misses), and the options (user rule packs by content, the baseline, inline
// ignores). Where the skill sits on disk is not part of it: findings name files relative to the skill.

const SRC = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** The folders whose code decides what a scan returns (the installed build's, or the sources under tsx). */
const CODE = ['scan', 'score', 'core', 'intake'];

function hashTree(hash: Hash, dir: string, label: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    hash.update(`${label}\0missing\0`);
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) hashTree(hash, path, `${label}/${e.name}`);
    else if (e.isFile()) hash.update(`${label}/${e.name}\0`).update(readFileSync(path)).update('\0');
  }
}

let scanner: string | undefined;

/** sha256 over the scanner's version, code and built-in rules; computed once per process (a few ms). */
export function scannerFingerprint(): string {
  if (scanner === undefined) {
    const hash = createHash('sha256').update(`skillaudit ${VERSION}\0`);
    for (const dir of CODE) hashTree(hash, join(SRC, dir), dir);
    hashTree(hash, BUILTIN_RULES_DIR, 'rules');
    scanner = hash.digest('hex');
  }
  return scanner;
}

/** The cache key of a skill's scan under these options (the options and rule packs are hashed once). */
export function scanCacheKeyer(options: ScanOptions): (skill: Skill) => string {
  const base = createHash('sha256').update(scannerFingerprint());
  for (const dir of options.ruleDirs ?? []) hashTree(base, dir, 'pack');
  for (const list of options.indicatorLists ?? [])
    base.update('indicators\0').update(JSON.stringify(list.indicators)).update('\0');
  base.update(
    JSON.stringify({
      baseline: options.baseline ?? null,
      honourInline: options.honourInline ?? false,
      onlyRules: options.onlyRules ?? null,
    }),
  );
  const prefix = base.digest('hex');
  return (skill) =>
    createHash('sha256')
      .update(prefix)
      .update(
        JSON.stringify({
          id: skill.id,
          folderName: skill.folderName,
          files: skill.files.map((f) => [
            f.path,
            f.size,
            f.sha256,
            f.kind,
            f.language,
            f.text === null,
            f.truncated,
          ]),
          links: skill.links,
          diagnostics: skill.diagnostics.map((d) => [d.code, d.level, d.message]),
        }),
      )
      .digest('hex');
}
