import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/core/types.js';
import {
  type IntakeHandle,
  loadSkillFolder,
  openSource,
  type SkillResult,
  withSource,
} from '../../../src/intake/index.js';
import { type Area, makeArea, writeSkill, writeTree } from '../../support/intake/fixtures.js';
import { buildTar } from '../../support/intake/tar-writer.js';
import { buildZip } from '../../support/intake/zip-writer.js';

// Every source kind end to end: folders, a single SKILL.md, zip/.skill/tar.gz archives and git.

let area: Area;
let savedTmp: string | undefined;

beforeAll(() => {
  area = makeArea('sources');
  savedTmp = process.env.TMPDIR;
  // os.tmpdir() reads TMPDIR on every call: every temp folder intake makes lands where the test can see it.
  process.env.TMPDIR = area.tmp;
});

afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  area.cleanup();
});

function loaded(result: SkillResult | undefined): Skill {
  if (!result?.ok) throw new Error(`skill failed: ${JSON.stringify(result)}`);
  return result.skill;
}

async function open(source: string): Promise<IntakeHandle> {
  return openSource(source);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();
}

describe('folder sources', () => {
  it('loads a folder whose root holds SKILL.md, with every field filled', async () => {
    const dir = writeSkill(join(area.fixtures, 'csv-tool'), 'csv-tool', {
      'scripts/summarize.py': '#!/usr/bin/env python3\nimport sys\n',
      'references/guide.md': '# Guide\n',
      'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]),
      'requirements.txt': 'pandas==2.2.2\n',
    });
    const handle = await open(dir);
    expect(handle.skills).toHaveLength(1);
    const skill = loaded(handle.skills[0]);
    expect(skill).toMatchObject({
      name: 'csv-tool',
      description: 'Test skill csv-tool.',
      frontmatter: { name: 'csv-tool', description: 'Test skill csv-tool.' },
      frontmatterLines: { name: 2, description: 3 },
      bodyStartLine: 5,
      folderName: 'csv-tool',
      root: dir,
      links: [],
      diagnostics: [],
      provenance: {
        source: 'folder',
        uri: dir,
        ref: null,
        commit: null,
        subdir: '.',
        owner: null,
        category: null,
      },
    });
    expect(skill.id).toMatch(/^[0-9a-f]{64}$/);
    expect(skill.files.map((f) => [f.path, f.kind, f.language])).toEqual([
      ['SKILL.md', 'doc', 'markdown'],
      ['assets/logo.png', 'binary', null],
      ['references/guide.md', 'doc', 'markdown'],
      ['requirements.txt', 'data', 'text'],
      ['scripts/summarize.py', 'script', 'python'],
    ]);
    const script = skill.files.find((f) => f.path === 'scripts/summarize.py')!;
    const source = '#!/usr/bin/env python3\nimport sys\n';
    expect(script).toEqual({
      path: 'scripts/summarize.py',
      size: source.length,
      sha256: createHash('sha256').update(source).digest('hex'),
      kind: 'script',
      language: 'python',
      text: source,
      truncated: false,
    });
    expect(skill.files.find((f) => f.kind === 'binary')!.text).toBeNull();
    await handle.dispose();
    await handle.dispose(); // idempotent
  });

  it('gives the same id to the same content and a different id when a file changes', async () => {
    const a = writeSkill(join(area.fixtures, 'same-a', 'x'), 'x', { 'run.sh': 'echo hi\n' });
    const b = writeSkill(join(area.fixtures, 'same-b', 'x'), 'x', { 'run.sh': 'echo hi\n' });
    const provenance = {
      source: 'folder' as const,
      uri: a,
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    };
    const first = await loadSkillFolder(a, provenance);
    const second = await loadSkillFolder(b, provenance);
    expect(first.id).toBe(second.id);
    writeFileSync(join(b, 'run.sh'), 'echo bye\n');
    expect((await loadSkillFolder(b, provenance)).id).not.toBe(first.id);
  });

  it('finds every skill in a corpus, skipping .git and node_modules, each failure reported alone', async () => {
    const corpus = join(area.fixtures, 'corpus');
    writeSkill(join(corpus, 'team-a', 'alpha'), 'alpha');
    writeSkill(join(corpus, 'team-b', 'beta'), 'beta', {
      'inner/gamma/SKILL.md': '---\nname: gamma\n---\nnested\n',
    });
    writeTree(corpus, {
      'broken/SKILL.md': '',
      'node_modules/pkg/SKILL.md': '---\nname: hidden\n---\n',
      '.git/x/SKILL.md': '---\nname: hidden\n---\n',
      'README.md': '# corpus\n',
    });
    const handle = await open(corpus);
    expect(handle.skills.map((r) => (r.ok ? r.skill.provenance.subdir : r.path))).toEqual([
      'broken',
      'team-a/alpha',
      'team-b/beta',
    ]);
    expect(handle.skills[0]).toEqual({
      ok: false,
      path: 'broken',
      error: { code: 'EMPTY_SKILL_MD', message: 'broken: SKILL.md is empty' },
    });
    // A SKILL.md inside a skill belongs to that skill: harnesses install the whole folder.
    const beta = loaded(handle.skills[2]);
    expect(beta.files.map((f) => f.path)).toContain('inner/gamma/SKILL.md');
    await handle.dispose();
  });

  it('narrows a folder source with #subdir', async () => {
    const corpus = join(area.fixtures, 'corpus');
    const handle = await open(`${corpus}#team-a`);
    expect(handle.skills.map((r) => loaded(r).provenance.subdir)).toEqual(['team-a/alpha']);
    await handle.dispose();
    await expect(open(`${corpus}#missing`)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails with NO_SKILL when nothing holds a SKILL.md', async () => {
    const empty = writeTree(join(area.fixtures, 'no-skill'), { 'README.md': '# nothing\n' });
    await expect(open(empty)).rejects.toMatchObject({
      code: 'NO_SKILL',
      message: `${empty}: no SKILL.md found`,
    });
  });
});

describe('single SKILL.md', () => {
  it('loads just that file, never its siblings, in a temp copy named like its folder', async () => {
    const dir = writeSkill(join(area.fixtures, 'lonely'), 'lonely', {
      'scripts/secret.sh': 'cat ~/.ssh/id_rsa\n',
    });
    let tempRoot = '';
    await withSource(join(dir, 'SKILL.md'), undefined, async (handle) => {
      const skill = loaded(handle.skills[0]);
      expect(skill.files.map((f) => f.path)).toEqual(['SKILL.md']);
      expect(skill).toMatchObject({
        name: 'lonely',
        folderName: 'lonely',
        provenance: { source: 'file', subdir: '.' },
      });
      expect(skill.diagnostics).toEqual([]);
      tempRoot = skill.root;
      expect(tempRoot.startsWith(area.tmp)).toBe(true);
    });
    expect(existsSync(tempRoot)).toBe(false);
  });

  it('refuses a file that is neither SKILL.md nor an archive', async () => {
    const file = join(area.fixtures, 'notes.txt');
    writeFileSync(file, 'hello');
    await expect(open(file)).rejects.toMatchObject({ code: 'UNSUPPORTED_SOURCE' });
  });
});

describe('archives', () => {
  const files = {
    'SKILL.md': '---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n',
    'scripts/fill.py': 'print("fill")\n',
  };

  it.each([
    ['pdf.zip', 'zip'],
    ['pdf.skill', 'zip'],
  ])('loads %s from a zip with a root-level skill, named after the archive', async (name, kind) => {
    const path = join(area.fixtures, name);
    writeFileSync(
      path,
      buildZip(
        Object.entries(files).map(([entry, data]) => ({
          name: entry,
          data,
          mode: entry.endsWith('.py') ? 0o100755 : 0o100644,
        })),
      ),
    );
    const handle = await open(path);
    const skill = loaded(handle.skills[0]);
    expect(skill).toMatchObject({
      name: 'pdf',
      folderName: 'pdf',
      provenance: { source: kind, uri: path, subdir: '.' },
    });
    expect(skill.files.map((f) => f.path)).toEqual(['SKILL.md', 'scripts/fill.py']);
    expect(skill.diagnostics).toEqual([]);
    await handle.dispose();
    expect(existsSync(skill.root)).toBe(false);
  });

  it('gives a root-level skill the same identity and findings whatever the archive is called', async () => {
    const zip = buildZip(Object.entries(files).map(([name, data]) => ({ name, data })));
    const seen = [];
    for (const name of ['pdf.zip', 'pdf-flat.zip', 'Form Filler (1).zip']) {
      const path = join(area.fixtures, name);
      writeFileSync(path, zip);
      const handle = await open(path);
      const skill = loaded(handle.skills[0]);
      seen.push({
        id: skill.id,
        name: skill.name,
        folderName: skill.folderName,
        diagnostics: skill.diagnostics,
      });
      expect(handle.where(skill.provenance.subdir)).toBe(path);
      await handle.dispose();
    }
    expect(seen[0]).toMatchObject({ name: 'pdf', folderName: 'pdf', diagnostics: [] });
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('loads a zip made by the zip CLI, with the skill in a top folder', async () => {
    const work = writeTree(join(area.fixtures, 'zip-cli', 'pdf'), files);
    const path = join(area.fixtures, 'zip-cli', 'pdf-skill.zip');
    execFileSync('zip', ['-qr', path, 'pdf'], { cwd: join(work, '..') });
    const handle = await open(path);
    expect(handle.skills.map((r) => [loaded(r).name, loaded(r).provenance.subdir])).toEqual([['pdf', 'pdf']]);
    await handle.dispose();
  });

  it.each([
    ['pdf.tar.gz', true],
    ['pdf.tgz', true],
    ['pdf.tar', false],
  ])('loads %s', async (name, gzip) => {
    const path = join(area.fixtures, name);
    writeFileSync(
      path,
      await buildTar(
        [
          { name: 'pdf/', type: 'directory' },
          ...Object.entries(files).map(([entry, data]) => ({ name: `pdf/${entry}`, data })),
        ],
        gzip,
      ),
    );
    const handle = await open(path);
    const skill = loaded(handle.skills[0]);
    expect(skill).toMatchObject({ name: 'pdf', provenance: { source: 'tar', subdir: 'pdf' } });
    expect(skill.files.map((f) => [f.path, f.kind])).toEqual([
      ['SKILL.md', 'doc'],
      ['scripts/fill.py', 'script'],
    ]);
    await handle.dispose();
  });

  it('loads a tar.gz made by the tar CLI', async () => {
    const work = writeTree(join(area.fixtures, 'tar-cli', 'pdf'), files);
    const path = join(area.fixtures, 'tar-cli', 'pdf.tgz');
    execFileSync('tar', ['-czf', path, '-C', join(work, '..'), 'pdf']);
    const handle = await open(path);
    expect(loaded(handle.skills[0]).files).toHaveLength(2);
    await handle.dispose();
  });

  it('reports a file that is not really an archive', async () => {
    const path = join(area.fixtures, 'fake.zip');
    writeFileSync(path, 'not a zip at all');
    await expect(open(path)).rejects.toMatchObject({ code: 'ARCHIVE_INVALID' });
    const tgz = join(area.fixtures, 'fake.tgz');
    writeFileSync(tgz, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    await expect(open(tgz)).rejects.toMatchObject({ code: 'ARCHIVE_INVALID' });
  });
});

describe('git sources', () => {
  let repo: string;
  let firstCommit: string;
  let secondCommit: string;

  beforeAll(() => {
    repo = join(area.fixtures, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeSkill(join(repo, 'skills', 'pdf'), 'pdf', { 'scripts/fill.py': 'print(1)\n' });
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    git(repo, 'tag', 'v1');
    firstCommit = git(repo, 'rev-parse', 'HEAD');
    writeSkill(join(repo, 'skills', 'docx'), 'docx');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'second');
    secondCommit = git(repo, 'rev-parse', 'HEAD');
    // A hook in the source repository must never run during the clone.
    writeTree(repo, { '.git/hooks/post-checkout': `#!/bin/sh\ntouch ${join(area.outside, 'hook-ran')}\n` });
    execFileSync('chmod', ['+x', join(repo, '.git/hooks/post-checkout')]);
  });

  it('clones a local repository by file:// URL and records the commit', async () => {
    const handle = await open(`file://${repo}`);
    expect(handle.skills.map((r) => loaded(r).name)).toEqual(['docx', 'pdf']);
    const pdf = loaded(handle.skills[1]);
    expect(pdf.provenance).toEqual({
      source: 'git',
      uri: `file://${repo}`,
      ref: null,
      commit: secondCommit,
      subdir: 'skills/pdf',
      owner: null,
      category: null,
    });
    expect(pdf.root.startsWith(area.tmp)).toBe(true);
    await handle.dispose();
    expect(existsSync(pdf.root)).toBe(false);
    expect(existsSync(join(area.outside, 'hook-ran'))).toBe(false);
  });

  it('checks out a tag with @ref and narrows with #subdir', async () => {
    const handle = await open(`${repo}@v1#skills`);
    expect(handle.skills.map((r) => [loaded(r).name, loaded(r).provenance.subdir])).toEqual([
      ['pdf', 'skills/pdf'],
    ]);
    expect(loaded(handle.skills[0]).provenance).toMatchObject({ ref: 'v1', commit: firstCommit });
    await handle.dispose();
  });

  it('checks out a local branch whose name holds a slash, and shows the skill path once', async () => {
    git(repo, 'branch', 'feature/x', firstCommit);
    const handle = await open(`${repo}@feature/x#skills/pdf`);
    const pdf = loaded(handle.skills[0]);
    expect(pdf.provenance).toMatchObject({ ref: 'feature/x', commit: firstCommit, subdir: 'skills/pdf' });
    expect(handle.where(pdf.provenance.subdir)).toBe(`${repo}@feature/x#skills/pdf`);
    await handle.dispose();
    const url = await open(`file://${repo}@feature/x#skills`);
    expect(url.where(loaded(url.skills[0]).provenance.subdir)).toBe(`file://${repo}@feature/x#skills/pdf`);
    await url.dispose();
  });

  it('checks out a commit sha, full or abbreviated', async () => {
    for (const ref of [firstCommit, firstCommit.slice(0, 10)]) {
      const handle = await open(`file://${repo}@${ref}`);
      expect(handle.skills.map((r) => loaded(r).name)).toEqual(['pdf']);
      expect(loaded(handle.skills[0]).provenance.commit).toBe(firstCommit);
      await handle.dispose();
    }
  });

  it('says so when no commit starts with an abbreviated hash, and leaves no temp folder behind', async () => {
    const before = readdirSync(area.tmp);
    await expect(open(`file://${repo}@0000000b`)).rejects.toMatchObject({
      code: 'GIT_FAILED',
      message: expect.stringContaining('no single commit of any branch or tag starts with 0000000b'),
    });
    expect(readdirSync(area.tmp)).toEqual(before);
  });

  it('loads a repository whose root is the skill, without the repository metadata', async () => {
    const single = writeSkill(join(area.fixtures, 'single-repo'), 'single-repo', { 'run.sh': 'echo hi\n' });
    git(single, 'init', '-q', '-b', 'main');
    git(single, 'add', '.');
    git(single, 'commit', '-q', '-m', 'only');
    const handle = await open(`${single}@main`);
    const skill = loaded(handle.skills[0]);
    expect(skill).toMatchObject({ name: 'single-repo', folderName: 'single-repo', diagnostics: [] });
    expect(skill.files.map((f) => f.path)).toEqual(['SKILL.md', 'run.sh']);
    await handle.dispose();
  });

  it('reports an unknown ref as GIT_FAILED and leaves no temp folder behind', async () => {
    const before = readdirSync(area.tmp);
    await expect(open(`file://${repo}@no-such-branch`)).rejects.toMatchObject({ code: 'GIT_FAILED' });
    expect(readdirSync(area.tmp)).toEqual(before);
  });

  it('fails fast when the host resolves but cannot be connected to', async () => {
    await expect(open('https://127.0.0.1:9/o/r')).rejects.toMatchObject({
      code: 'NETWORK_UNAVAILABLE',
      message: expect.stringContaining(
        'https://127.0.0.1:9/o/r: cannot connect to 127.0.0.1:9 (ECONNREFUSED)',
      ),
    });
  });

  it('fails fast and clearly when a network repository cannot be reached', async () => {
    const started = Date.now();
    await expect(open('https://nonexistent.invalid/o/r@main')).rejects.toMatchObject({
      code: 'NETWORK_UNAVAILABLE',
      message: expect.stringContaining('https://nonexistent.invalid/o/r: cannot resolve nonexistent.invalid'),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
