import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillRootsOf } from '../../../src/intake/changed-skills.js';
import { writeSkill, writeTree } from '../../support/intake/fixtures.js';

// Changed files → the skills holding them, on a real folder tree.

let repo: string;
let outside: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'skillaudit-changed-'));
  outside = mkdtempSync(join(tmpdir(), 'skillaudit-changed-outside-'));
  writeSkill(join(repo, 'skills', 'pdf'), 'pdf', { 'scripts/fill.py': 'print(1)\n' });
  writeSkill(join(repo, 'skills', 'csv'), 'csv', { 'references/guide.md': '# Guide\n' });
  // A SKILL.md deeper inside a skill belongs to that skill, as in discovery.
  writeSkill(join(repo, 'skills', 'pdf', 'examples', 'inner'), 'inner');
  writeSkill(join(repo, 'node_modules', 'pkg'), 'pkg');
  writeTree(repo, { 'README.md': '# repo\n', 'skills/notes.txt': 'not a skill\n' });
  // A folder that once held a skill: its SKILL.md was deleted, a data file stayed.
  writeTree(repo, { 'skills/gone/data.csv': 'a,b\n' });
  writeSkill(outside, 'elsewhere', { 'run.sh': 'echo hi\n' });
  symlinkSync(outside, join(repo, 'skills', 'linked'));
  mkdirSync(join(repo, 'empty'));
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('skillRootsOf', () => {
  it('maps each changed file to its skill root once, SKILL.md itself included', () => {
    const r = skillRootsOf(repo, [
      'skills/pdf/scripts/fill.py',
      'skills/pdf/SKILL.md',
      'skills/csv/references/guide.md',
      'README.md',
    ]);
    expect(r.roots).toEqual(['skills/csv', 'skills/pdf']);
    expect(r.unmatched).toEqual(['README.md']);
    expect(r.warnings).toEqual([]);
  });

  it('gives a file in a nested skill to the outer skill, as a full scan reports it', () => {
    expect(skillRootsOf(repo, ['skills/pdf/examples/inner/SKILL.md']).roots).toEqual(['skills/pdf']);
  });

  it('skips deleted skills and deleted files whose skill is gone', () => {
    const r = skillRootsOf(repo, ['skills/old/SKILL.md', 'skills/old/run.sh', 'skills/gone/SKILL.md']);
    expect(r.roots).toEqual([]);
    expect(r.unmatched).toHaveLength(3);
  });

  it('keeps a skill whose file was deleted while the skill remains', () => {
    expect(skillRootsOf(repo, ['skills/csv/scripts/removed.py']).roots).toEqual(['skills/csv']);
  });

  it('ignores paths with "..", paths outside the repository and paths through a symbolic link, with warnings', () => {
    const r = skillRootsOf(repo, [
      '../escape/SKILL.md',
      'skills/pdf/../csv/SKILL.md',
      join(outside, 'run.sh'),
      'skills/linked/run.sh',
      '/etc/passwd',
    ]);
    expect(r.roots).toEqual([]);
    expect(r.warnings).toHaveLength(5);
    expect(r.warnings.join('\n')).toMatch(/\.\.\/escape\/SKILL\.md: ignored \(a path with "\.\."\)/);
    expect(r.warnings.join('\n')).toMatch(
      /skills\/linked\/run\.sh: ignored \(reached through a symbolic link\)/,
    );
    expect(r.warnings.join('\n')).toMatch(/\/etc\/passwd: ignored \(outside/);
  });

  it('reads a repository given through a symbolic link, following only that link', () => {
    const alias = `${repo}-alias`;
    symlinkSync(repo, alias);
    try {
      const r = skillRootsOf(alias, ['skills/csv/SKILL.md', 'skills/linked/run.sh']);
      expect(r.roots).toEqual(['skills/csv']);
      expect(r.warnings).toEqual(['skills/linked/run.sh: ignored (reached through a symbolic link)']);
    } finally {
      rmSync(alias);
    }
  });

  it('accepts absolute paths inside the repository', () => {
    expect(skillRootsOf(repo, [join(repo, 'skills', 'csv', 'SKILL.md')]).roots).toEqual(['skills/csv']);
  });

  it('does not count skills inside node_modules or .git, like discovery', () => {
    const r = skillRootsOf(repo, ['node_modules/pkg/SKILL.md', '.git/SKILL.md']);
    expect(r.roots).toEqual([]);
  });

  it('reports the repository itself as "." when its root is a skill', () => {
    const single = mkdtempSync(join(tmpdir(), 'skillaudit-changed-single-'));
    try {
      writeSkill(single, 'single', { 'scripts/a.py': 'x = 1\n' });
      expect(skillRootsOf(single, ['scripts/a.py', 'SKILL.md']).roots).toEqual(['.']);
    } finally {
      rmSync(single, { recursive: true, force: true });
    }
  });

  it('treats a changed folder path like its files and ignores empty and NUL-carrying names', () => {
    const r = skillRootsOf(repo, ['skills/pdf', 'empty', '', 'skills/csv\0/SKILL.md']);
    expect(r.roots).toEqual(['skills/pdf']);
    expect(r.unmatched).toEqual(['empty']);
  });

  it('looks at each folder once for thousands of files in one skill', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `skills/pdf/scripts/gen/f${i}.py`);
    expect(skillRootsOf(repo, many).roots).toEqual(['skills/pdf']);
  });
});
