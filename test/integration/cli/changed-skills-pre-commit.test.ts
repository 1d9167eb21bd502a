import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT_BIN, REPO_ROOT, requireBuild } from '../../support/built-cli.js';

// The commit hooks as they run: the pre-commit hook from .pre-commit-hooks.yaml invoked the way pre-commit
// invokes it (staged files filtered by `files`, appended to `entry` and `args`), and the plain git hook from
// docs/ci.md installed in .git/hooks and run by a real `git commit`. `skillaudit` on PATH is the built CLI.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');

interface Hook {
  id: string;
  entry: string;
  language: string;
  pass_filenames: boolean;
  files: string;
  exclude?: string;
  args?: string[];
}

const [hook] = parse(readFileSync(join(repo, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
let work: string;
let shimPath: string;

function env(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${shimPath}:${process.env.PATH}`, NO_COLOR: '1' };
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: env() }).trim();
}

function newRepo(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'user.name', 'Dev');
  cpSync(join(labeled, 'weather-brief'), join(dir, 'skills', 'weather-brief'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# skills\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'base');
  return dir;
}

/** pre-commit's selection: staged, not deleted, matching `files` and not `exclude` (Python re.search). */
function hookFiles(dir: string): string[] {
  const staged = git(dir, 'diff', '--staged', '--name-only', '--no-ext-diff', '-z', '--diff-filter=ACMRTUXB')
    .split('\0')
    .filter(Boolean);
  const files = new RegExp(hook!.files);
  const exclude = hook!.exclude ? new RegExp(hook!.exclude) : null;
  return staged.filter((f) => files.test(f) && !exclude?.test(f));
}

function runHook(dir: string, args: string[] = hook!.args ?? []) {
  const files = hookFiles(dir);
  const [command, ...entryArgs] = hook!.entry.split(/\s+/);
  const r = spawnSync(command!, [...entryArgs, ...args, ...files], {
    cwd: dir,
    env: env(),
    encoding: 'utf8',
  });
  return { files, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-hooks-'));
  shimPath = join(work, 'bin');
  mkdirSync(shimPath);
  writeFileSync(join(shimPath, 'skillaudit'), `#!/bin/sh\nexec "${process.execPath}" "${BUILT_BIN}" "$@"\n`);
  chmodSync(join(shimPath, 'skillaudit'), 0o755);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('pre-commit hook skillaudit-scan', () => {
  it('is a node hook that passes file names to `skillaudit scan --skills-of`', () => {
    expect(hook).toMatchObject({
      id: 'skillaudit-scan',
      entry: 'skillaudit scan --skills-of',
      language: 'node',
      pass_filenames: true,
    });
    const files = new RegExp(hook!.files);
    for (const path of [
      'SKILL.md',
      'skills/pdf/SKILL.md',
      'skills/pdf/scripts/fill.py',
      'skills/x/scripts/run',
    ])
      expect(files.test(path), path).toBe(true);
    for (const path of ['skills/x/requirements.txt', 'skills/x/package.json', 'skills/x/.env'])
      expect(files.test(path), path).toBe(true);
    for (const path of ['assets/logo.png', 'fonts/a.woff2']) expect(files.test(path), path).toBe(false);
  });

  it('blocks a commit that stages a malicious skill', () => {
    const dir = newRepo('malicious');
    cpSync(join(labeled, 'web-scraper-pro'), join(dir, 'skills', 'web-scraper-pro'), { recursive: true });
    writeFileSync(join(dir, 'skills', 'web-scraper-pro', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    git(dir, 'add', '.');
    const r = runHook(dir);
    expect(r.files).toContain('skills/web-scraper-pro/SKILL.md');
    expect(r.files).not.toContain('skills/web-scraper-pro/logo.png');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/skills\/web-scraper-pro \(web-scraper-pro\)\s+RISKY/);
    // A user's `args` come between the entry and the file names.
    expect(runHook(dir, ['--fail-on', 'none']).status).toBe(0);
  });

  it('passes a benign edit, and a commit that touches no skill scans nothing', () => {
    const dir = newRepo('benign');
    writeFileSync(
      join(dir, 'skills', 'weather-brief', 'notes.md'),
      '# Notes\n\nCity names are case-insensitive.\n',
    );
    git(dir, 'add', '.');
    const r = runHook(dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 skill: 1 pass/);
    git(dir, 'commit', '-q', '--no-verify', '-m', 'notes');
    writeFileSync(join(dir, 'README.md'), '# skills\n\nMore.\n');
    git(dir, 'add', '.');
    const readme = runHook(dir);
    expect(readme.status).toBe(0);
    expect(readme.stderr).toMatch(/no skill changed \(1 changed file, none in a skill\)/);
  });
});

describe('plain git hook from docs/ci.md', () => {
  const docs = readFileSync(join(repo, 'docs', 'ci.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## A plain git hook'));
  const script = /```sh\n([\s\S]*?)```/.exec(section)![1]!;

  function install(dir: string): void {
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), script);
    chmodSync(join(dir, '.git', 'hooks', 'pre-commit'), 0o755);
  }

  function commit(dir: string) {
    return spawnSync('git', ['commit', '-q', '-m', 'change'], { cwd: dir, env: env(), encoding: 'utf8' });
  }

  it('stops `git commit` when a staged skill is risky and lets a benign one through', () => {
    const dir = newRepo('git-hook');
    install(dir);
    cpSync(join(labeled, 'web-scraper-pro'), join(dir, 'skills', 'web-scraper-pro'), { recursive: true });
    git(dir, 'add', '.');
    const blocked = commit(dir);
    expect(blocked.status).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toMatch(/web-scraper-pro/);
    expect(git(dir, 'rev-list', '--count', 'HEAD')).toBe('1');
    git(dir, 'rm', '-r', '-q', '--cached', 'skills/web-scraper-pro');
    rmSync(join(dir, 'skills', 'web-scraper-pro'), { recursive: true });
    writeFileSync(join(dir, 'skills', 'weather-brief', 'notes.md'), '# Notes\n');
    git(dir, 'add', '.');
    const allowed = commit(dir);
    expect(allowed.status).toBe(0);
    expect(git(dir, 'rev-list', '--count', 'HEAD')).toBe('2');
  });
});
