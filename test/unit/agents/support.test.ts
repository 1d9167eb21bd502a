import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinSystemPrompt } from '../../../src/agents/builtin.js';
import { emptyEvidence, mergeEvidence } from '../../../src/agents/evidence-merge.js';
import { getAgent } from '../../../src/agents/index.js';
import { installFolder, isHiddenInSandbox } from '../../../src/agents/install.js';
import { collectOutputFiles, skillFolder } from '../../../src/agents/workspace.js';
import type { Skill } from '../../../src/core/types.js';
import type { EvidenceBundle, FileState, FsChange } from '../../../src/sandbox/index.js';

const file = (sha: string): FileState => ({ type: 'file', mode: 0o644, size: 1, sha256: sha });
const change = (
  path: string,
  kind: FsChange['change'],
  before: FileState | null,
  after: FileState | null,
): FsChange => ({
  root: 'workspace',
  path,
  change: kind,
  before,
  after,
});
const bundle = (fsChanges: FsChange[], wallMs: number): EvidenceBundle => ({
  ...emptyEvidence('bubblewrap'),
  fsChanges,
  resources: { wallMs, cpuUserMs: 5, cpuSystemMs: null, maxRssBytes: 10 },
});

describe('mergeEvidence', () => {
  it('folds each path into its net change over consecutive commands', () => {
    const merged = mergeEvidence(
      [
        bundle(
          [change('a.txt', 'created', null, file('1')), change('gone.txt', 'created', null, file('x'))],
          10,
        ),
        bundle(
          [change('a.txt', 'modified', file('1'), file('2')), change('gone.txt', 'deleted', file('x'), null)],
          20,
        ),
        bundle([change('old.txt', 'modified', file('o'), file('p'))], 5),
      ],
      'bubblewrap',
    );
    expect(merged.fsChanges).toEqual([
      change('a.txt', 'created', null, file('2')),
      change('old.txt', 'modified', file('o'), file('p')),
    ]);
    expect(merged.resources).toEqual({ wallMs: 35, cpuUserMs: 15, cpuSystemMs: null, maxRssBytes: 10 });
  });

  it('gives an empty bundle when no command ran', () => {
    expect(mergeEvidence([], 'docker')).toMatchObject({ backend: 'docker', processes: [], fsChanges: [] });
  });
});

describe('agents folder', () => {
  it('names one folder per package version', () => {
    expect(installFolder({ pkg: '@openai/codex', version: '0.171.0', bin: 'x' }, '/opt/a')).toBe(
      '/opt/a/@openai+codex@0.171.0',
    );
  });

  it('knows which host folders the sandbox hides', () => {
    expect(isHiddenInSandbox('/root/.cache/skillaudit')).toBe(true);
    expect(isHiddenInSandbox('/home/u/.cache')).toBe(true);
    expect(isHiddenInSandbox('/tmp')).toBe(true);
    // Only system folders are shown: a cache anywhere else is bound in.
    expect(isHiddenInSandbox('/var/cache/skillaudit/agents')).toBe(true);
    expect(isHiddenInSandbox('/opt/node/bin')).toBe(true);
    expect(isHiddenInSandbox('/usr/lib/node_modules')).toBe(false);
    expect(isHiddenInSandbox('/usrx')).toBe(true);
  });
});

describe('getAgent', () => {
  it('knows the four agents and refuses others', () => {
    for (const name of ['builtin', 'claude-code', 'codex', 'opencode'])
      expect(getAgent(name).name).toBe(name);
    expect(() => getAgent('cursor')).toThrow(/unknown agent "cursor"/);
  });

  it('refuses a model its harness cannot speak before installing anything', async () => {
    const req = {
      task: { instruction: 'x', workspaceFiles: [] },
      skill: null,
      model: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm', provider: 'openai' as const },
    };
    await expect(getAgent('claude-code').run(req)).rejects.toThrow(/Anthropic Messages only/);
    await expect(
      getAgent('codex').run({ ...req, model: { ...req.model, provider: 'anthropic' } }),
    ).rejects.toThrow(/Responses/);
  });
});

describe('builtin system prompt', () => {
  it('lists the skill by name and description only with the skill', () => {
    const skill = { name: 'csv-report', description: 'Builds\n  CSV reports.' } as Skill;
    expect(builtinSystemPrompt(skill)).toContain('- csv-report: Builds CSV reports.');
    expect(builtinSystemPrompt(null)).not.toMatch(/skill/i);
  });
});

describe('workspace', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a safe skill folder name', () => {
    expect(skillFolder('.claude/skills', { name: '../evil/name' } as Skill)).toBe(
      '.claude/skills/-evil-name',
    );
  });

  it('collects created and modified workspace files, not harness state or deletions', () => {
    dir = mkdtempSync(join(tmpdir(), 'agents-ws-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, 'out.txt'), 'result');
    writeFileSync(join(dir, '.claude/settings.json'), '{}');
    const evidence = bundle(
      [
        change('out.txt', 'created', null, file('1')),
        change('.claude/settings.json', 'created', null, file('2')),
        change('removed.txt', 'deleted', file('3'), null),
        { ...change('home.txt', 'created', null, file('4')), root: 'home' },
      ],
      1,
    );
    expect(collectOutputFiles(evidence, dir, ['.claude'])).toEqual([{ path: 'out.txt', content: 'result' }]);
  });
});
