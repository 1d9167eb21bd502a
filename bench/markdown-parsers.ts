// The two markdown tree builders side by side on the markdown files of one or more folders: how long each
// takes (the walk that reads their trees included), how many files the fast builder hands back to micromark,
// and every file where the scanner would read the two differently (first difference printed). The fast
// builder is kept only while that count is zero on the corpora it is measured on.
// Run: npx tsx bench/markdown-parsers.ts [DIR ...]   (default: ../shared/corpus/skills, eval, test/fixtures)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { buildFastTree } from '../src/core/markdown/fast-tree.js';
import { Unsupported } from '../src/core/markdown/tree.js';
import { parseTreeMicromark, parseUncached } from '../src/core/markdown.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) dirs.push('../shared/corpus/skills', 'eval', 'test/fixtures');

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(md|markdown)$/i.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    if (statSync(path).size <= 4 * 1024 * 1024) out.push(path);
  }
  return out;
}

/** The first place two values differ, as a path and both sides. */
function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (d) return d;
    }
  }
  return `${path}: micromark ${JSON.stringify(a)?.slice(0, 300)} | fast ${JSON.stringify(b)?.slice(0, 300)}`;
}

for (const dir of dirs) {
  const paths = markdownFiles(resolve(dir));
  const texts = paths.map((p) => readFileSync(p, 'utf8'));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  let fallbacks = 0;
  const reasons = new Map<string, number>();
  const fast = (text: string) => {
    try {
      return buildFastTree(text);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      fallbacks++;
      reasons.set(error.message, (reasons.get(error.message) ?? 0) + 1);
      return parseTreeMicromark(text);
    }
  };
  // Warm both once, then time each over every file.
  for (const text of texts.slice(0, 50)) {
    parseUncached(text, parseTreeMicromark);
    parseUncached(text, fast);
  }
  fallbacks = 0;
  reasons.clear();
  let t = performance.now();
  const slow = texts.map((text) => parseUncached(text, parseTreeMicromark));
  const slowMs = performance.now() - t;
  t = performance.now();
  const quick = texts.map((text) => parseUncached(text, fast));
  const fastMs = performance.now() - t;
  let differ = 0;
  for (let i = 0; i < texts.length; i++) {
    const d = firstDifference(slow[i], quick[i]);
    if (!d) continue;
    differ++;
    if (differ <= 15) console.log(`DIFF ${paths[i]}\n  ${d}`);
  }
  console.log(
    `\n## ${dir}: ${paths.length} markdown files, ${(chars / 1e6).toFixed(1)} M chars\n` +
      `micromark ${slowMs.toFixed(0)} ms, fast ${fastMs.toFixed(0)} ms (${(slowMs / fastMs).toFixed(1)}x); ` +
      `fast builder handed back ${fallbacks} files; read differently: ${differ}`,
  );
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]))
    console.log(`  handed back: ${reason} (${n})`);
}
