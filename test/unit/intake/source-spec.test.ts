import { describe, expect, it } from 'vitest';
import {
  archiveFormat,
  archiveStem,
  parseSource,
  redactUrl,
  safeFolderName,
} from '../../../src/intake/source-spec.js';
import { UserError } from '../../../src/util/errors.js';

const none = () => false;

function errorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('expected a UserError');
}

describe('parseSource', () => {
  it('reads an https URL with a ref and a subfolder', () => {
    expect(parseSource('https://github.com/o/r@v1.2#skills/pdf', none)).toEqual({
      kind: 'git',
      url: 'https://github.com/o/r',
      display: 'https://github.com/o/r',
      local: false,
      host: 'github.com',
      owner: 'o',
      ref: 'v1.2',
      subdir: 'skills/pdf',
    });
  });

  it('does not mistake URL credentials or the scp user for a ref, and redacts credentials', () => {
    const spec = parseSource('https://user:tok3n@github.com/o/r.git', none);
    expect(spec).toMatchObject({ ref: null, display: 'https://github.com/o/r.git', owner: 'o' });
    expect(parseSource('git@github.com:o/r.git@main#a/b', none)).toMatchObject({
      kind: 'git',
      url: 'git@github.com:o/r.git',
      host: 'github.com',
      owner: 'o',
      ref: 'main',
      subdir: 'a/b',
    });
  });

  it('reads GitHub page URLs pasted from the browser', () => {
    expect(parseSource('https://github.com/o/r/tree/main/skills/pdf', none)).toMatchObject({
      url: 'https://github.com/o/r',
      ref: 'main',
      subdir: 'skills/pdf',
      owner: 'o',
    });
    expect(parseSource('https://github.com/o/r/blob/v2/skills/pdf/SKILL.md', none)).toMatchObject({
      url: 'https://github.com/o/r',
      ref: 'v2',
      subdir: 'skills/pdf',
    });
    expect(parseSource('https://github.com/o/r/tree/main', none)).toMatchObject({
      ref: 'main',
      subdir: null,
    });
  });

  it('reads file:// URLs as local git sources', () => {
    expect(parseSource('file:///srv/repo@abc1234', none)).toMatchObject({
      kind: 'git',
      local: true,
      url: 'file:///srv/repo',
      ref: 'abc1234',
    });
  });

  it('prefers an existing path, then path@ref (git) and path#subdir', () => {
    expect(parseSource('./my@skill', (p) => p === './my@skill')).toEqual({
      kind: 'path',
      path: './my@skill',
      ref: null,
      subdir: null,
    });
    expect(parseSource('./repo@v2#skills/x', (p) => p === './repo')).toMatchObject({
      kind: 'git',
      local: true,
      url: './repo',
      ref: 'v2',
      subdir: 'skills/x',
    });
    // A ref with slashes, and a repository path holding `@` itself.
    expect(parseSource('./repo@feature/x#skills/pdf', (p) => p === './repo')).toMatchObject({
      kind: 'git',
      url: './repo',
      ref: 'feature/x',
      subdir: 'skills/pdf',
    });
    expect(parseSource('/home/a@b/repo@release/2.0', (p) => p === '/home/a@b/repo')).toMatchObject({
      kind: 'git',
      url: '/home/a@b/repo',
      ref: 'release/2.0',
      subdir: null,
    });
    expect(parseSource('./corpus#team/a', (p) => p === './corpus')).toEqual({
      kind: 'path',
      path: './corpus',
      ref: null,
      subdir: 'team/a',
    });
  });

  it('refuses missing paths, command transports, option-like sources and unsafe parts', () => {
    expect(errorOf(() => parseSource('./nope', none))).toMatchObject({
      code: 'NOT_FOUND',
      message: './nope: no such file or folder',
    });
    expect(errorOf(() => parseSource('ext::sh -c touch% /tmp/pwned', none)).code).toBe('UNSUPPORTED_SOURCE');
    expect(errorOf(() => parseSource('--upload-pack=evil', none)).code).toBe('USAGE');
    expect(errorOf(() => parseSource('https://h/o/r@--evil', none)).code).toBe('USAGE');
    expect(errorOf(() => parseSource('https://h/o/r#../../etc', none))).toMatchObject({
      code: 'UNSAFE_PATH',
    });
    expect(errorOf(() => parseSource('https://h/o/r#/etc', none)).code).toBe('UNSAFE_PATH');
    expect(errorOf(() => parseSource('https://h/files/skill.zip', none)).code).toBe('UNSUPPORTED_SOURCE');
  });
});

describe('source helpers', () => {
  it('names archive formats and stems', () => {
    expect(archiveFormat('a/pdf.skill')).toBe('zip');
    expect(archiveFormat('a/x.ZIP')).toBe('zip');
    expect(archiveFormat('x.tar.gz')).toBe('tar');
    expect(archiveFormat('x.tgz')).toBe('tar');
    expect(archiveFormat('SKILL.md')).toBeNull();
    expect(archiveStem('/dl/pdf.skill')).toBe('pdf');
    expect(archiveStem('my-skill.tar.gz')).toBe('my-skill');
  });

  it('never lets a source name become a path: `..`, separators and empty names are replaced', () => {
    expect(archiveStem('/dl/..skill')).toBe('skill');
    expect(archiveStem('a/.zip')).toBe('skill');
    expect(safeFolderName('..', 'repo')).toBe('repo');
    expect(safeFolderName('a/b\\c', 'repo')).toBe('a-b-c');
    expect(safeFolderName('pdf-tools', 'repo')).toBe('pdf-tools');
  });

  it('redacts credentials in URLs', () => {
    expect(redactUrl('https://x:y@host/p')).toBe('https://host/p');
    expect(redactUrl('https://host/p')).toBe('https://host/p');
  });
});
