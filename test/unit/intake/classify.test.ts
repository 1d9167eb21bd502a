import { describe, expect, it } from 'vitest';
import { classifyFile, shebangLanguage } from '../../../src/intake/classify.js';

describe('classifyFile', () => {
  it.each([
    ['SKILL.md', 'doc', 'markdown'],
    ['references/guide.rst', 'doc', 'text'],
    ['docs/page.html', 'doc', 'html'],
    ['scripts/run.sh', 'script', 'bash'],
    ['scripts/run.zsh', 'script', 'bash'],
    ['scripts/tool.py', 'script', 'python'],
    ['scripts/a.mjs', 'script', 'javascript'],
    ['scripts/a.cjs', 'script', 'javascript'],
    ['scripts/a.tsx', 'script', 'typescript'],
    ['scripts/setup.ps1', 'script', 'powershell'],
    ['scripts/x.rb', 'script', 'ruby'],
    ['scripts/x.pl', 'script', 'perl'],
    // Source without a parser here is still code, not a document for the prose rules.
    ['scripts/sync.go', 'script', null],
    ['src/lib.rs', 'script', null],
    ['ci/Jenkinsfile.groovy', 'script', null],
    ['scripts/fit.R', 'script', null],
    ['data/config.json', 'data', 'json'],
    ['data/config.yml', 'data', 'yaml'],
    ['pyproject.toml', 'data', 'toml'],
    ['data/table.csv', 'data', 'text'],
    ['data/layout.xml', 'data', 'xml'],
    ['settings.ini', 'data', 'text'],
    ['requirements.txt', 'data', 'text'],
    ['package-lock.json', 'data', 'json'],
    ['yarn.lock', 'data', 'text'],
    ['Makefile', 'script', 'make'],
    ['build/rules.mk', 'script', 'make'],
    ['.envrc', 'script', 'bash'],
  ])('%s → %s / %s', (path, kind, language) => {
    expect(classifyFile(path, 'plain text')).toMatchObject({ kind, language });
  });

  it('lets the shebang decide for extensionless files', () => {
    expect(classifyFile('scripts/run', '#!/usr/bin/env python3\nprint(1)')).toEqual({
      kind: 'script',
      language: 'python',
      expectsText: false,
    });
    expect(classifyFile('bin/tool', '#!/bin/bash -e\n')).toMatchObject({ kind: 'script', language: 'bash' });
    expect(classifyFile('bin/tool', '#!/usr/bin/env -S node --no-warnings\n')).toMatchObject({
      kind: 'script',
      language: 'javascript',
    });
    expect(classifyFile('bin/odd', '#!/opt/weird/interp\n')).toMatchObject({
      kind: 'script',
      language: null,
    });
  });

  it('prefers the shebang over a script extension that disagrees', () => {
    expect(classifyFile('run.sh', '#!/usr/bin/python3\n')).toMatchObject({
      kind: 'script',
      language: 'python',
    });
  });

  it('treats extensionless text without a shebang as a text doc and binary content as binary', () => {
    expect(classifyFile('NOTES', 'hello')).toMatchObject({ kind: 'doc', language: 'text' });
    expect(classifyFile('assets/logo.png', null)).toEqual({
      kind: 'binary',
      language: null,
      expectsText: false,
    });
    expect(classifyFile('scripts/run.sh', null)).toEqual({
      kind: 'binary',
      language: null,
      expectsText: true,
    });
  });
});

describe('shebangLanguage', () => {
  it.each([
    ['#!/bin/sh', 'bash'],
    ['#!/usr/bin/env python3.12', 'python'],
    ['#! /usr/bin/perl -w', 'perl'],
    ['#!/usr/bin/env pwsh', 'powershell'],
    ['#!/usr/bin/env ruby', 'ruby'],
    ['#!/usr/bin/env tsx', 'typescript'],
    ['#!/usr/bin/env', null],
    ['no shebang', null],
  ])('%s → %s', (line, language) => {
    expect(shebangLanguage(line)).toBe(language);
  });
});
