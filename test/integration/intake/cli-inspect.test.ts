import { execFileSync, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Area,
  makeArea,
  skillMd,
  snapshot,
  writeSkill,
  writeTree,
} from '../../support/intake/fixtures.js';
import { buildTar } from '../../support/intake/tar-writer.js';

// `skillaudit inspect` as users run it: the built bin in a child process (build first: `npm run build`,
// which `npm ci` runs). HOME and TMPDIR point into a scratch area that is snapshotted around each run.

const repo = resolve(import.meta.dirname, '../../..');
const bin = join(repo, 'bin', 'skillaudit.js');
let area: Area;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the CLI tests');
  }
  area = makeArea('cli');
});

afterAll(() => area.cleanup());

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function inspect(args: string[], asNobody = false): Run {
  const env = { ...process.env, HOME: area.home, TMPDIR: area.tmp, NO_COLOR: '1', SKILLAUDIT_DEBUG: '' };
  const command = asNobody ? 'setpriv' : process.execPath;
  const prefix = asNobody ? ['--reuid', '65534', '--regid', '65534', '--clear-groups', process.execPath] : [];
  const result: SpawnSyncReturns<string> = spawnSync(command, [...prefix, bin, 'inspect', ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI with the sentinel checks: nothing outside TMPDIR changes, TMPDIR ends empty, no leak. */
function guarded(args: string[], asNobody = false): Run {
  const skipTmp = (p: string) => p.startsWith('tmp/');
  const before = snapshot(area.root, skipTmp);
  const run = inspect(args, asNobody);
  expect(snapshot(area.root, skipTmp)).toEqual(before);
  expect(readdirSync(area.tmp)).toEqual([]);
  expect(run.stdout + run.stderr).not.toContain(area.marker);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return run;
}

describe('skillaudit inspect', () => {
  it('prints the bundled example as text and exits 0', () => {
    const run = guarded([join(repo, 'examples', 'csv-summary')]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('csv-summary');
    expect(run.stdout).toMatch(/script \(1\)\n\s+scripts\/summarize\.py {2}python/);
    expect(run.stdout).toContain('diagnostics (0)');
  });

  it('prints the JSON contract: version 1, skills without file text or root', () => {
    const run = guarded([join(repo, 'examples', 'csv-summary'), '--format', 'json']);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.version).toBe(1);
    expect(report.skills).toHaveLength(1);
    const [skill] = report.skills;
    expect(skill).toMatchObject({
      path: '.',
      name: 'csv-summary',
      frontmatterLines: { name: 2, description: 3 },
      provenance: { source: 'folder', subdir: '.' },
      diagnostics: [],
    });
    expect(skill.root).toBeUndefined();
    expect(skill.files.map((f: { path: string }) => f.path)).toEqual([
      'SKILL.md',
      'assets/sample.csv',
      'references/output-format.md',
      'scripts/summarize.py',
    ]);
    for (const file of skill.files)
      expect(Object.keys(file).sort()).toEqual(['kind', 'language', 'path', 'sha256', 'size', 'truncated']);
  });

  it('prints every skill of a corpus and exits 2 when one failed', () => {
    const corpus = join(area.fixtures, 'corpus');
    writeSkill(join(corpus, 'good'), 'good');
    writeTree(corpus, { 'bad/SKILL.md': '' });
    const run = guarded([corpus, '--format', 'json']);
    expect(run.status).toBe(2);
    const report = JSON.parse(run.stdout);
    expect(report.skills[0]).toEqual({
      path: 'bad',
      error: { code: 'EMPTY_SKILL_MD', message: 'bad: SKILL.md is empty' },
    });
    expect(report.skills[1].name).toBe('good');
    expect(run.stderr).toBe('skillaudit: 1 of 2 skills could not be loaded\n');
    const text = guarded([corpus]);
    expect(text.status).toBe(2);
    expect(text.stdout).toContain('bad  error EMPTY_SKILL_MD\n  bad: SKILL.md is empty');
  });

  it('exits 2 with one clear line for source errors and bad flags', () => {
    const missing = guarded([join(area.fixtures, 'nope')]);
    expect(missing).toMatchObject({ status: 2, stdout: '' });
    expect(missing.stderr).toBe(`skillaudit: ${join(area.fixtures, 'nope')}: no such file or folder\n`);
    const flag = guarded([join(repo, 'examples', 'csv-summary'), '--max-files', 'lots']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain(
      "option '--max-files <n>' argument 'lots' is invalid. expected a positive whole number",
    );
    const format = guarded([join(repo, 'examples', 'csv-summary'), '--format', 'xml']);
    expect(format.status).toBe(2);
    const offline = guarded(['https://nonexistent.invalid/o/r']);
    expect(offline.status).toBe(2);
    expect(offline.stderr).toMatch(
      /^skillaudit: https:\/\/nonexistent\.invalid\/o\/r: cannot resolve nonexistent\.invalid/,
    );
  });

  it('applies the limit flags', () => {
    const dir = writeSkill(join(area.fixtures, 'limited'), 'limited', {
      'a.txt': 'a',
      'b.txt': 'b',
      'c.txt': 'c',
    });
    const run = guarded([dir, '--format', 'json', '--max-files', '2', '--max-read-bytes', '1k']);
    const [skill] = JSON.parse(run.stdout).skills;
    expect(skill.files).toHaveLength(2);
    expect(skill.diagnostics.map((d: { code: string }) => d.code)).toContain('limit-files');
  });

  it('escapes terminal control sequences from skill text', () => {
    const dir = writeTree(join(area.fixtures, 'ansi'), {
      'SKILL.md': skillMd('ansi', 'Looks safe\u001b]0;pwned\u0007\u001b[2J\u202eevil'),
      'x\u001b[31mred.sh': 'echo\n',
    });
    const run = guarded([dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('\u202e');
    expect(run.stdout).toContain('Looks safe\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{202e}evil');
  });

  it('never prints what a symlink outside the skill points at', () => {
    const dir = writeSkill(join(area.fixtures, 'leak'), 'leak');
    symlinkSync(area.secretPath, join(dir, 'secret.txt'));
    for (const format of ['text', 'json']) {
      const run = guarded([dir, '--format', format]);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('secret.txt');
    }
  });

  it('reports unreadable files when run as an unprivileged user (chmod 000)', () => {
    const dir = writeSkill(join(area.fixtures, 'locked'), 'locked', { 'scripts/run.sh': 'echo hi\n' });
    chmodSync(join(dir, 'scripts', 'run.sh'), 0o000);
    const run = guarded([dir, '--format', 'json'], true);
    expect(run.status).toBe(0);
    const [skill] = JSON.parse(run.stdout).skills;
    expect(skill.files.find((f: { path: string }) => f.path === 'scripts/run.sh')).toMatchObject({
      sha256: null,
      kind: 'script',
    });
    expect(skill.diagnostics).toContainEqual({
      code: 'unreadable',
      level: 'warning',
      message: 'scripts/run.sh could not be read (EACCES)',
      file: 'scripts/run.sh',
    });

    const lockedMd = writeSkill(join(area.fixtures, 'locked-md'), 'locked-md');
    chmodSync(join(lockedMd, 'SKILL.md'), 0o000);
    const failed = guarded([lockedMd, '--format', 'json'], true);
    expect(failed.status).toBe(2);
    expect(JSON.parse(failed.stdout).skills).toEqual([
      {
        path: '.',
        error: {
          code: 'UNREADABLE',
          message: '.: SKILL.md could not be read (permission denied or changed)',
        },
      },
    ]);

    const corpus = join(area.fixtures, 'locked-corpus');
    writeSkill(join(corpus, 'open'), 'open');
    writeSkill(join(corpus, 'team', 'hidden'), 'hidden');
    chmodSync(join(corpus, 'team'), 0o000);
    const hidden = guarded([corpus, '--format', 'json'], true);
    expect(hidden.status).toBe(2);
    expect(JSON.parse(hidden.stdout).skills).toEqual([
      expect.objectContaining({ path: 'open', name: 'open' }),
      {
        path: 'team',
        error: {
          code: 'UNREADABLE',
          message: 'team: folder could not be searched (EACCES); skills in it were not loaded',
        },
      },
    ]);

    const lockedDir = writeSkill(join(area.fixtures, 'locked-dir'), 'locked-dir', {
      'private/notes.md': 'x',
    });
    chmodSync(join(lockedDir, 'private'), 0o000);
    const partial = guarded([lockedDir, '--format', 'json'], true);
    expect(partial.status).toBe(0);
    expect(JSON.parse(partial.stdout).skills[0].diagnostics).toContainEqual({
      code: 'unreadable',
      level: 'warning',
      message: 'folder private could not be listed (EACCES)',
      file: 'private',
    });
  });

  it('removes its temp folder when interrupted with Ctrl-C during extraction', async () => {
    const entries = [{ name: 'big/SKILL.md', data: skillMd('big', 'Big archive.') }];
    for (let i = 0; i < 4000; i++)
      entries.push({ name: `big/data/f${i}.txt`, data: `row ${i}\n`.repeat(200) });
    const archive = join(area.fixtures, 'big.tgz');
    writeFileSync(archive, await buildTar(entries));
    const child = spawn(process.execPath, [bin, 'inspect', archive], {
      env: { ...process.env, HOME: area.home, TMPDIR: area.tmp },
      stdio: 'ignore',
    });
    // Interrupt as soon as the extraction folder exists.
    const started = Date.now();
    while (readdirSync(area.tmp).length === 0 && Date.now() - started < 30_000) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(readdirSync(area.tmp)).toHaveLength(1);
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    // After its cleanup the CLI exits with the conventional status for SIGINT (128 + 2).
    expect(code).toBe(130);
    expect(readdirSync(area.tmp)).toEqual([]);
  });

  it('lists inspect in --help and prints --version', () => {
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/inspect \[options\] <source>/);
    const version = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
