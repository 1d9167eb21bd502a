import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanJson } from '../../../src/report/scan-json.js';
import {
  type BuiltRun,
  REPO_ROOT,
  requireBuild,
  runBuilt,
  withoutProgress,
} from '../../support/built-cli.js';
import { sarifErrors } from '../../support/sarif-schema.js';

// `skillaudit scan --changed-since` on a real git repository: the built CLI in a child process.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');
let work: string;
let dir: string;
let base: string;

const run = (args: string[], cwd = dir) => runBuilt(args, cwd);

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

function skillPaths(r: BuiltRun): string[] {
  return (JSON.parse(r.stdout) as ScanJson).skills.map((s) => s.path).sort();
}

const HOSTILE_NAMES = ['git@localhost:evil', '-rf'];

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-changed-cli-'));
  dir = join(work, 'repo');
  mkdirSync(join(dir, 'skills'), { recursive: true });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  for (const name of ['weather-brief', 'csv-insights', 'db-backup', 'git-changelog'])
    cpSync(join(labeled, name), join(dir, 'skills', name), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# skills\n');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  base = git('rev-parse', 'HEAD');
  // The change: a new malicious skill, an edit to one script, a SKILL.md-only edit, a deleted skill, a README.
  cpSync(join(labeled, 'web-scraper-pro'), join(dir, 'skills', 'web-scraper-pro'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'csv-insights', 'NOTES.md'), '# Notes\n');
  writeFileSync(
    join(dir, 'skills', 'weather-brief', 'SKILL.md'),
    `${readFileSync(join(dir, 'skills', 'weather-brief', 'SKILL.md'), 'utf8')}\nUse metric units.\n`,
  );
  rmSync(join(dir, 'skills', 'git-changelog'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# skills\n\nMore.\n');
  // Skill folders named like a git URL and like an option: read as folders, never cloned or parsed.
  for (const name of HOSTILE_NAMES)
    cpSync(join(labeled, 'weather-brief'), join(dir, name), { recursive: true });
  git('add', '-A');
  git('commit', '-q', '-m', 'change');
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('skillaudit scan --changed-since', () => {
  it('scans exactly the added and edited skills; the deleted one and other files are skipped', async () => {
    const r = await run(['scan', '--changed-since', base, '--format', 'json', '--fail-on', 'none']);
    expect(withoutProgress(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(skillPaths(r)).toEqual(
      [
        ...HOSTILE_NAMES.map((n) => `./${n}`),
        'skills/csv-insights',
        'skills/weather-brief',
        'skills/web-scraper-pro',
      ].sort(),
    );
  });

  it('gates on the changed skills only, and reports each one as a full scan does', async () => {
    const changed = await run(['scan', '--changed-since', base, '--format', 'json']);
    expect(changed.status).toBe(1);
    const full = await run(['scan', 'skills', '--format', 'json', '--fail-on', 'none']);
    const fullByPath = new Map((JSON.parse(full.stdout) as ScanJson).skills.map((s) => [s.path, s]));
    for (const skill of (JSON.parse(changed.stdout) as ScanJson).skills.filter((s) =>
      s.path.startsWith('skills/'),
    )) {
      expect(skill).toEqual(fullByPath.get(skill.path));
    }
  });

  it('limits the change to the folder given and keeps paths relative to the working directory', async () => {
    const r = await run([
      'scan',
      '--changed-since',
      base,
      '--format',
      'sarif',
      '--out',
      'out.sarif',
      'skills',
    ]);
    expect(r.status).toBe(1);
    const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(sarifErrors(log)).toEqual([]);
    const uris: string[] = log.runs[0].results.map(
      (x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        x.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(uri).toMatch(/^skills\/(web-scraper-pro|csv-insights|weather-brief)\//);
    rmSync(join(dir, 'out.sarif'));
  });

  it('with no skill changed: says so, exits 0 and still writes valid empty output', async () => {
    const r = await run(['scan', '--changed-since', 'HEAD', '--format', 'sarif', '--out', 'empty.sarif']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/no skill changed since HEAD \(no file changed\); nothing to scan/);
    const log = JSON.parse(readFileSync(join(dir, 'empty.sarif'), 'utf8'));
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    rmSync(join(dir, 'empty.sarif'));
  });

  it('adds staged, unstaged and untracked files with --include-uncommitted', async () => {
    writeFileSync(join(dir, 'skills', 'db-backup', 'extra.sh'), 'echo hi\n');
    try {
      const without = await run(['scan', '--changed-since', 'HEAD', '--format', 'json', '--fail-on', 'none']);
      expect(skillPaths(without)).toEqual([]);
      const withIt = await run([
        'scan',
        '--changed-since',
        'HEAD',
        '--include-uncommitted',
        '--format',
        'json',
        '--fail-on',
        'none',
      ]);
      expect(withIt.status).toBe(0);
      expect(skillPaths(withIt)).toEqual(['skills/db-backup']);
    } finally {
      rmSync(join(dir, 'skills', 'db-backup', 'extra.sh'));
    }
  });

  it('honours a baseline like the plain scan', async () => {
    const baseline = join(work, 'baseline.json');
    await run(['scan', 'skills/web-scraper-pro', '--write-baseline', baseline, '--fail-on', 'none']);
    const r = await run([
      'scan',
      '--changed-since',
      base,
      '--baseline',
      baseline,
      '--format',
      'json',
      'skills',
    ]);
    const scraper = (JSON.parse(r.stdout) as ScanJson).skills.find(
      (s) => s.path === 'skills/web-scraper-pro',
    )!;
    expect(scraper.findings.length).toBeGreaterThan(0);
    expect(scraper.findings.every((f) => f.suppressed?.by === 'baseline')).toBe(true);
  });

  it('refuses unusable combinations and inputs with exit 2 and a clear message', async () => {
    const cases: [string[], RegExp][] = [
      [['scan'], /scan needs a source/],
      [['scan', '--changed-since', base, '--skills-of', 'README.md'], /not both/],
      [['scan', '--changed-since', base, 'skills', 'README.md'], /at most one folder/],
      [['scan', '--changed-since', base, '--write-baseline', 'b.json'], /--write-baseline needs a full scan/],
      [['scan', '--include-uncommitted', 'skills'], /only goes with --changed-since/],
      [
        ['scan', '--changed-since', 'no-such-ref'],
        /git diff no-such-ref\.\.\.HEAD failed \(fatal: bad revision/,
      ],
      [['scan', '--changed-since', '--upload-pack=touch pwned'], /not a git revision/],
      [['scan', '--changed-since', base, 'missing-folder'], /missing-folder: no such folder/],
      [['scan', '--changed-since', base, work], /not inside a git repository/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
    }
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    expect(existsSync(join(dir, 'b.json'))).toBe(false);
  });
});

describe('skillaudit scan --skills-of', () => {
  it('scans the skills of the files given and warns about paths outside the repository', async () => {
    const r = await run([
      'scan',
      '--skills-of',
      '--format',
      'json',
      'skills/web-scraper-pro/scripts/scrape.js',
      'skills/weather-brief/SKILL.md',
      'README.md',
      '../outside/SKILL.md',
      join(work, 'baseline.json'),
    ]);
    expect(r.status).toBe(1);
    expect(skillPaths(r)).toEqual(['skills/weather-brief', 'skills/web-scraper-pro']);
    expect(r.stderr).toMatch(/warning: \.\.\/outside\/SKILL\.md: ignored \(a path with "\.\."\)/);
    expect(r.stderr).toMatch(/baseline\.json: ignored \(outside \.\)/);
  });

  it('passes with a clear message when no given file is in a skill', async () => {
    const r = await run(['scan', '--skills-of', 'README.md']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/no skill changed \(1 changed file, none in a skill\); nothing to scan/);
    expect(r.stdout).toMatch(/0 skills/);
  });
});
