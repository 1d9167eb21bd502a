import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A synthetic corpus with the size mix seen in public skill collections: most skills are a SKILL.md and a
// script or two; some carry references and several scripts; a few are large. Deterministic (seeded).

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PY = `#!/usr/bin/env python3
"""Summarise a CSV file: row count, columns, numeric means."""
import argparse
import csv
import json
import statistics
import sys


def summarise(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    columns = rows[0].keys() if rows else []
    out = {"rows": len(rows), "columns": list(columns), "means": {}}
    for column in columns:
        values = []
        for row in rows:
            try:
                values.append(float(row[column]))
            except (TypeError, ValueError):
                continue
        if values:
            out["means"][column] = statistics.fmean(values)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv")
    args = parser.parse_args()
    json.dump(summarise(args.csv), sys.stdout, indent=2)


if __name__ == "__main__":
    main()
`;

const SH = `#!/usr/bin/env bash
set -euo pipefail
# Build the docs site into ./site and report broken links.
OUT_DIR="\${1:-site}"
mkdir -p "$OUT_DIR"
for page in docs/*.md; do
  name=$(basename "$page" .md)
  pandoc "$page" -o "$OUT_DIR/$name.html"
done
grep -rho 'href="[^"]*"' "$OUT_DIR" | sort -u > "$OUT_DIR/links.txt"
echo "built $(ls "$OUT_DIR" | wc -l) pages"
`;

const JS = `import { readFile } from 'node:fs/promises';

// Validate a JSON config against a few required keys and print problems.
const required = ['name', 'version', 'entry'];

export async function check(path) {
  const data = JSON.parse(await readFile(path, 'utf8'));
  return required.filter((key) => !(key in data)).map((key) => \`missing \${key}\`);
}

const problems = await check(process.argv[2] ?? 'config.json');
for (const p of problems) console.log(p);
process.exitCode = problems.length ? 1 : 0;
`;

const SECTION = `## Workflow

1. Read the input the user names and confirm its format before changing anything.
2. Run \`python scripts/summarize.py <file>\` to get row counts and column statistics.
3. Explain the results in plain language, with the three most important numbers first.
4. When a column has missing values, say how many and suggest how to handle them.

## Guidelines

- Keep the original file untouched; write derived files next to it with a clear suffix.
- Prefer short tables over long prose. Cite the column names exactly as they appear.
- If the data looks sensitive (names, emails, health data), remind the user before sharing results.
`;

function skillMd(name: string, sections: number): string {
  return `---\nname: ${name}\ndescription: Summarise and explain tabular data files for ${name.replace(/-/g, ' ')} work, with statistics and plain-language findings.\n---\n\n# ${name}\n\n${SECTION.repeat(sections)}`;
}

export interface CorpusStats {
  skills: number;
  files: number;
  bytes: number;
}

/** Writes `count` skills under `dir` and returns what was written. */
export function writeCorpus(dir: string, count: number, seed = 42): CorpusStats {
  const rand = rng(seed);
  let files = 0;
  let bytes = 0;
  const write = (path: string, text: string): void => {
    writeFileSync(path, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  for (let i = 0; i < count; i++) {
    const r = rand();
    const size = r < 0.6 ? 'small' : r < 0.9 ? 'medium' : 'large';
    const name = `skill-${i}-${size}`;
    const root = join(dir, name);
    mkdirSync(join(root, 'scripts'), { recursive: true });
    const sections = size === 'small' ? 1 : size === 'medium' ? 3 : 8;
    write(
      join(root, 'SKILL.md'),
      `${skillMd(name, sections)}\nRevision ${i}: keep outputs next to the input.\n`,
    );
    const scripts = size === 'small' ? 1 + Math.floor(rand() * 2) : size === 'medium' ? 4 : 10;
    for (let s = 0; s < scripts; s++) {
      const kind = s % 3;
      const body = size === 'large' ? 3 : 1;
      // Unique text per file (names differ), as in a real corpus: no parse cache can hit across skills.
      const unique = (text: string) =>
        text.replace(/\b(summarise|check|OUT_DIR|required|values|page)\b/g, `$1_${i}_${s}`);
      if (kind === 0) write(join(root, 'scripts', `tool${s}.py`), unique(PY.repeat(body)));
      else if (kind === 1) write(join(root, 'scripts', `tool${s}.sh`), unique(SH.repeat(body)));
      else write(join(root, 'scripts', `tool${s}.mjs`), unique(JS.repeat(body)));
    }
    if (size !== 'small') {
      mkdirSync(join(root, 'references'), { recursive: true });
      write(
        join(root, 'references', 'guide.md'),
        `# Guide ${i}\n\n${SECTION.repeat(size === 'large' ? 20 : 5)}`,
      );
      write(join(root, 'requirements.txt'), 'pandas==2.2.3\nrequests==2.32.3\n');
    }
  }
  return { skills: count, files, bytes };
}
