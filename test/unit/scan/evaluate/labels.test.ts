import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PATTERNS } from '../../../../src/core/taxonomy.js';
import { type Label, loadLabelSet } from '../../../../src/scan/evaluate/index.js';

// Checks the labeled validation sets (eval/labeled, and the blind eval/holdout) against their files, so a
// label can never point at nothing after someone edits a fixture, and eval/labeled keeps the size and
// coverage the scanner is measured on.

const EVAL = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../eval');
const SET = join(EVAL, 'labeled');
const entries = Object.entries(loadLabelSet(SET).skills);

function lines(path: string): string[] {
  const all = readFileSync(path, 'utf8').split(/\r?\n/);
  if (all.at(-1) === '') all.pop();
  return all;
}

function frontmatter(skillDir: string): { data: Record<string, unknown>; nameLine: number } {
  const text = lines(join(skillDir, 'SKILL.md'));
  expect(text[0], `${skillDir}/SKILL.md starts with ---`).toBe('---');
  const end = text.indexOf('---', 1);
  expect(end, `${skillDir}/SKILL.md closes its frontmatter`).toBeGreaterThan(0);
  const data = parseYaml(text.slice(1, end).join('\n')) as Record<string, unknown>;
  return { data, nameLine: text.findIndex((l) => l.startsWith('name:')) + 1 };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(dir, f)).isFile(),
  );
}

function checkFiles(set: string, entries: [string, Label[]][]): void {
  it('lists every skill folder of the set, and only those', () => {
    const folders = readdirSync(set).filter((d) => existsSync(join(set, d, 'SKILL.md')));
    expect(entries.map(([skill]) => skill).sort()).toEqual(folders.sort());
  });

  it('points every label at an existing file and a non-blank line range inside it', () => {
    for (const [skill, labels] of entries) {
      for (const label of labels) {
        const where = `${skill}: ${label.pattern} ${label.file}:${label.line}-${label.endLine}`;
        const path = resolve(set, skill, label.file);
        expect(relative(join(set, skill), path).startsWith('..'), where).toBe(false);
        expect(existsSync(path), where).toBe(true);
        const text = lines(path);
        expect(label.endLine, where).toBeLessThanOrEqual(text.length);
        expect(text[label.line - 1]?.trim(), `${where} starts on a blank line`).not.toBe('');
        expect(label.note?.trim(), `${where} has a note`).toBeTruthy();
      }
    }
  });

  it('never labels the same pattern twice at the same place', () => {
    for (const [skill, labels] of entries) {
      const keys = labels.map((l) => `${l.pattern} ${l.file}:${l.line}-${l.endLine}`);
      expect(new Set(keys).size, skill).toBe(keys.length);
    }
  });

  it('gives every skill a frontmatter name and description; names match folders unless labeled SC4', () => {
    for (const [skill, labels] of entries) {
      const { data, nameLine } = frontmatter(join(set, skill));
      expect(typeof data.description === 'string' && data.description.length > 20, skill).toBe(true);
      expect(typeof data.name, skill).toBe('string');
      const mismatchLabeled = labels.some(
        (l) => l.pattern === 'SC4' && l.file === 'SKILL.md' && l.line <= nameLine && nameLine <= l.endLine,
      );
      expect(data.name === skill || mismatchLabeled, `${skill}: name ${String(data.name)}`).toBe(true);
    }
  });
}

for (const name of ['labeled', 'holdout']) {
  describe(`eval/${name}/labels.json`, () => {
    const dir = join(EVAL, name);
    checkFiles(dir, Object.entries(loadLabelSet(dir).skills));
  });
}

describe('eval/labeled coverage', () => {
  it('has at least 170 labels, every pattern at least 5 times, 25 injected and 12 clean skills', () => {
    const all = entries.flatMap(([, labels]) => labels);
    expect(all.length).toBeGreaterThanOrEqual(170);
    for (const p of PATTERNS) {
      expect(all.filter((l) => l.pattern === p.id).length, p.id).toBeGreaterThanOrEqual(5);
    }
    expect(entries.filter(([, labels]) => labels.length > 0).length).toBeGreaterThanOrEqual(25);
    expect(entries.filter(([, labels]) => labels.length === 0).length).toBeGreaterThanOrEqual(12);
  });

  it('covers every script language on both sides: injected and clean skills', () => {
    const extensions = (clean: boolean) =>
      new Set(
        entries
          .filter(([, labels]) => (labels.length === 0) === clean)
          .flatMap(([skill]) => filesUnder(join(SET, skill)))
          .map((f) => f.slice(f.lastIndexOf('.'))),
      );
    for (const clean of [false, true]) {
      const seen = extensions(clean);
      for (const ext of ['.sh', '.py', '.ts', '.ps1', '.md', '.json', '.txt', '.toml'])
        expect(seen.has(ext), `${ext} clean=${clean}`).toBe(true);
      expect(seen.has('.js') || seen.has('.mjs'), `javascript clean=${clean}`).toBe(true);
    }
  });
});
