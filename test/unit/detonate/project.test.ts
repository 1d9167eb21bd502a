import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProjectRoot, projectSeedFiles } from '../../../src/detonate/project.js';

// The lived-in project a skill runs in, and which relatively named files a run from its root would find.

describe('the sandbox project', () => {
  it("holds an agent's instruction and memory files and no secret of its own", () => {
    const paths = projectSeedFiles().map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['CLAUDE.md', 'AGENTS.md', 'SOUL.md', 'MEMORY.md', 'package.json']),
    );
    expect(paths).not.toContain('.env');
  });

  it('says which relative names the project root holds', () => {
    for (const name of ['.env', './SOUL.md', 'src', 'src/index.ts', 'package.json'])
      expect(inProjectRoot(name)).toBe(true);
    for (const name of ['config.json', 'data/input.csv', 'src/main.py'])
      expect(inProjectRoot(name)).toBe(false);
  });

  it('is a git repository git itself accepts: a tagged release and commits since, a staged edit, a remote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillaudit-project-git-'));
    try {
      // Our own generated files, not a skill's: git runs on them here to check they are what git writes.
      for (const f of projectSeedFiles().filter((x) => !x.path.startsWith('~/'))) {
        mkdirSync(dirname(join(dir, f.path)), { recursive: true });
        writeFileSync(join(dir, f.path), f.content);
      }
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'safe.directory=*', '-C', dir, ...args], { encoding: 'utf8' }).trim();
      expect(git('fsck', '--strict')).toBe('');
      expect(git('rev-parse', '--is-inside-work-tree')).toBe('true');
      expect(git('log', '--format=%s').split('\n')).toEqual([
        'feat: add order metrics panel',
        'fix: round order totals to cents',
        'chore: scaffold the dashboard',
      ]);
      expect(git('describe', '--tags', '--abbrev=0')).toBe('v0.4.1');
      expect(git('log', '--format=%s', 'v0.4.1..HEAD').split('\n')).toHaveLength(2);
      expect(git('diff', '--cached', '--name-only')).toBe('README.md');
      expect(git('status', '--porcelain')).toBe('M  README.md');
      expect(git('config', '--get', 'remote.origin.url')).toMatch(/^https:\/\/github\.com\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
