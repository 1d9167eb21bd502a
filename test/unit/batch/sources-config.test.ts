// The plain parts of a batch: corpus arguments and list files, the source a queue job carries, the stages a user
// may ask for, the configuration key, and the queue URL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BatchConfig, configKey, parseStages } from '../../../src/batch/config.js';
import { parseQueueUrl } from '../../../src/batch/queue.js';
import { skillSource } from '../../../src/batch/run-unit.js';
import { corpusSources, listFileSources } from '../../../src/batch/sources.js';
import type { Provenance } from '../../../src/core/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-batch-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const collect = async (args: string[]) => {
  const out: string[] = [];
  for await (const s of corpusSources(args)) out.push(s);
  return out;
};

describe('corpus sources', () => {
  it('reads a list file: comments and blank lines skipped, paths relative to the file, URLs as written', () => {
    const list = join(dir, 'skills.txt');
    writeFileSync(
      list,
      '# ours\nlocal/pdf\n\n  /abs/skill  \nhttps://github.com/acme/skills@v1#skills/xlsx\ngit@github.com:acme/skills.git\n',
    );
    expect(listFileSources(list)).toEqual([
      join(dir, 'local/pdf'),
      '/abs/skill',
      'https://github.com/acme/skills@v1#skills/xlsx',
      'git@github.com:acme/skills.git',
    ]);
  });

  it('turns a folder of skills into one source per skill, and refuses an argument that names nothing', async () => {
    for (const name of ['a', 'nested/b']) {
      mkdirSync(join(dir, 'corpus', name), { recursive: true });
      writeFileSync(join(dir, 'corpus', name, 'SKILL.md'), `---\nname: ${name}\ndescription: d\n---\n`);
    }
    expect(await collect([join(dir, 'corpus')])).toEqual([
      join(dir, 'corpus', 'a'),
      join(dir, 'corpus', 'nested/b'),
    ]);
    await expect(collect([join(dir, 'missing')])).rejects.toThrow(/no such file or folder/);
    mkdirSync(join(dir, 'empty'));
    await expect(collect([join(dir, 'empty')])).rejects.toThrow(/no SKILL\.md/);
  });
});

describe('skillSource', () => {
  const provenance = (p: Partial<Provenance>): Provenance => ({
    source: 'folder',
    uri: 'corpus',
    ref: null,
    commit: null,
    subdir: '.',
    owner: null,
    category: null,
    ...p,
  });

  it('names exactly one skill, and one commit for git', () => {
    expect(
      skillSource(
        provenance({
          source: 'git',
          uri: 'https://github.com/acme/skills',
          ref: 'main',
          commit: 'abc123',
          subdir: 'skills/pdf',
        }),
      ),
    ).toBe('https://github.com/acme/skills@abc123#skills/pdf');
    expect(skillSource(provenance({ source: 'git', uri: 'repos/local', ref: 'main', subdir: 'x' }))).toBe(
      `${resolve('repos/local')}@main#x`,
    );
    expect(skillSource(provenance({ subdir: 'skills/pdf' }))).toBe(resolve('corpus', 'skills/pdf'));
    expect(skillSource(provenance({ source: 'zip', uri: 'pack.zip', subdir: 'one' }))).toBe(
      `${resolve('pack.zip')}#one`,
    );
    expect(skillSource(provenance({ source: 'zip', uri: 'pack.zip' }))).toBe(resolve('pack.zip'));
  });
});

describe('stages and the configuration key', () => {
  it('always scans and profiles; utility needs a model; unknown stages are refused', () => {
    expect(parseStages('detonate', false)).toEqual(['scan', 'detonate', 'quality']);
    expect(parseStages('scan', false)).toEqual(['scan', 'quality']);
    expect(parseStages('scan,utility', true)).toEqual(['scan', 'quality', 'utility']);
    expect(() => parseStages('scan,utility', false)).toThrow(/--model/);
    expect(() => parseStages('scan,fuzz', false)).toThrow(/unknown stage "fuzz"/);
  });

  it('changes with what decides an audit, not with where the model cache lives', () => {
    const base: BatchConfig = { stages: ['scan', 'quality'], limits: {} };
    const withModel = (cacheDir: string): BatchConfig => ({
      ...base,
      stages: ['scan', 'quality', 'utility'],
      model: {
        flags: { model: 'anthropic/x', cacheDir },
        agents: ['builtin'],
        scenarios: 3,
        concurrency: 2,
        alpha: 0.5,
      },
    });
    expect(configKey(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(configKey({ ...base })).toBe(configKey(base));
    expect(configKey({ ...base, limits: { maxFiles: 10 } })).not.toBe(configKey(base));
    expect(configKey({ ...base, stages: ['scan', 'detonate', 'quality'] })).not.toBe(configKey(base));
    expect(configKey(withModel('/a'))).toBe(configKey(withModel('/b')));
    expect(configKey(withModel('/a'))).not.toBe(configKey(base));
  });
});

describe('parseQueueUrl', () => {
  it('reads host, port, database and credentials; refuses anything but redis URLs', () => {
    expect(parseQueueUrl('redis://:s3cret@queue.internal:6380/2')).toMatchObject({
      host: 'queue.internal',
      port: 6380,
      db: 2,
      password: 's3cret',
      maxRetriesPerRequest: null,
    });
    expect(parseQueueUrl('rediss://q')).toMatchObject({ host: 'q', port: 6379, tls: {} });
    expect(() => parseQueueUrl('http://q:6379')).toThrow(/redis:\/\//);
    expect(() => parseQueueUrl('redis://q/abc')).toThrow(/database must be a number/);
    expect(() => parseQueueUrl('not a url')).toThrow(/expected redis/);
  });
});
