import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeSettings,
  normaliseBaseUrl,
  parseCostCap,
  parseModelSpec,
  resolveModelSettings,
} from '../../../src/model/index.js';
import { UserError } from '../../../src/util/errors.js';

const root = mkdtempSync(join(tmpdir(), 'skillaudit-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function layout(project: object | null, user: object | null) {
  const dir = mkdtempSync(join(root, 'case-'));
  const cwd = join(dir, 'project');
  const home = join(dir, 'home');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(home, '.config', 'skillaudit'), { recursive: true });
  if (project) writeFileSync(join(cwd, 'skillaudit.config.json'), JSON.stringify(project));
  if (user) writeFileSync(join(home, '.config', 'skillaudit', 'config.json'), JSON.stringify(user));
  return { cwd, home };
}

describe('parseModelSpec', () => {
  it('splits provider and model, keeping slashes in the model', () => {
    expect(parseModelSpec('anthropic/claude-sonnet-4-6')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(parseModelSpec('openai/gpt-5.4')).toEqual({ provider: 'openai', model: 'gpt-5.4' });
    expect(parseModelSpec('openai-compatible/Qwen/Qwen3-8B')).toEqual({
      provider: 'openai-compatible',
      model: 'Qwen/Qwen3-8B',
    });
  });

  it.each(['claude-sonnet-4-6', 'google/gemini', 'anthropic/', '/gpt-5', ''])('rejects "%s"', (text) => {
    expect(() => parseModelSpec(text)).toThrow(UserError);
  });
});

describe('parseCostCap', () => {
  it.each([
    ['2.50', { dollars: 2.5 }],
    ['$3', { dollars: 3 }],
    ['tokens:200000', { tokens: 200000 }],
    ['200k tokens', { tokens: 200000 }],
    ['1.5m tok', { tokens: 1500000 }],
  ])('reads %s', (text, cap) => {
    expect(parseCostCap(text)).toEqual(cap);
  });

  it.each(['-1', 'ten dollars', 'tokens:', '5€'])('rejects %s', (text) => {
    expect(() => parseCostCap(text)).toThrow(/invalid --max-cost/);
  });
});

describe('resolveModelSettings precedence: flag > env > project file > user file', () => {
  const user = {
    model: 'openai/gpt-5',
    maxCost: '9',
    baseUrl: 'https://user.example/v1',
    cacheDir: 'ucache',
  };
  const project = { model: 'anthropic/claude-sonnet-4-6', maxCost: 3 };

  it('returns null when no model is configured anywhere', () => {
    expect(resolveModelSettings({}, { env: {}, ...layout(null, null) })).toBeNull();
  });

  it('takes the project file over the user file, key by key', () => {
    const where = layout(project, user);
    const s = resolveModelSettings({}, { env: { ANTHROPIC_API_KEY: 'k' }, ...where });
    expect(s?.spec).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(s?.maxCost).toEqual({ dollars: 3 });
    // Not set by the project file: the user file's value, its relative path resolved against that file.
    expect(s?.cacheDir).toBe(join(where.home, '.config', 'skillaudit', 'ucache'));
    expect(s?.apiKey).toBe('k');
  });

  it('takes the environment over files and flags over the environment', () => {
    const where = layout(project, user);
    const env = {
      SKILLAUDIT_MODEL: 'openai/gpt-5-mini',
      OPENAI_BASE_URL: 'https://env.example/v1/',
      OPENAI_API_KEY: 'o',
    };
    const fromEnv = resolveModelSettings({}, { env, ...where });
    expect(fromEnv?.spec.model).toBe('gpt-5-mini');
    expect(fromEnv?.baseUrl).toBe('https://env.example/v1');
    const fromFlags = resolveModelSettings(
      { model: 'openai/gpt-5', baseUrl: 'http://flag.example/v1', maxCost: 'tokens:10', cache: false },
      { env, ...where },
    );
    expect(fromFlags).toMatchObject({
      spec: { model: 'gpt-5' },
      baseUrl: 'http://flag.example/v1',
      maxCost: { tokens: 10 },
      useCache: false,
    });
  });

  it('uses the base-URL variable of the chosen provider only', () => {
    const where = layout(null, null);
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999', OPENAI_BASE_URL: 'http://openai.local/v1' };
    const s = resolveModelSettings({ model: 'anthropic/claude-haiku-4-5' }, { env, ...where });
    expect(s?.baseUrl).toBe('http://127.0.0.1:9999/v1');
    const compat = resolveModelSettings({ model: 'openai-compatible/qwen3' }, { env, ...where });
    expect(compat?.baseUrl).toBeUndefined();
  });

  it('defaults the cache under XDG_CACHE_HOME or ~/.cache', () => {
    const where = layout(null, null);
    expect(resolveModelSettings({ model: 'openai/gpt-5' }, { env: {}, ...where })?.cacheDir).toBe(
      join(where.home, '.cache', 'skillaudit'),
    );
    expect(
      resolveModelSettings({ model: 'openai/gpt-5' }, { env: { XDG_CACHE_HOME: '/var/c' }, ...where })
        ?.cacheDir,
    ).toBe('/var/c/skillaudit');
  });

  it('names the file and key of an invalid config', () => {
    const where = layout({ model: 5 }, null);
    expect(() => resolveModelSettings({}, { env: {}, ...where })).toThrow(/skillaudit\.config\.json: model/);
    const broken = layout(null, null);
    writeFileSync(join(broken.cwd, 'skillaudit.config.json'), '{ "model": ');
    expect(() => resolveModelSettings({}, { env: {}, ...broken })).toThrow(/not valid JSON/);
  });
});

describe('normaliseBaseUrl', () => {
  it('adds /v1 to Anthropic base URLs written the Claude Code way', () => {
    expect(normaliseBaseUrl('anthropic', 'http://localhost:8080')).toBe('http://localhost:8080/v1');
    expect(normaliseBaseUrl('anthropic', 'https://gw.example/anthropic/')).toBe(
      'https://gw.example/anthropic/v1',
    );
    expect(normaliseBaseUrl('anthropic', 'https://api.anthropic.com/v1')).toBe(
      'https://api.anthropic.com/v1',
    );
  });

  it('keeps OpenAI-style base URLs as given, without a trailing slash', () => {
    expect(normaliseBaseUrl('openai-compatible', 'http://localhost:11434/v1/')).toBe(
      'http://localhost:11434/v1',
    );
  });

  it.each(['not a url', 'file:///etc/passwd'])('rejects %s', (url) => {
    expect(() => normaliseBaseUrl('openai', url)).toThrow(UserError);
  });
});

describe('call timeout', () => {
  it('defaults to 5 minutes, 15 for local OpenAI-compatible servers', () => {
    const where = layout(null, null);
    expect(resolveModelSettings({ model: 'openai/gpt-5' }, { env: {}, ...where })?.timeoutMs).toBe(300_000);
    expect(resolveModelSettings({ model: 'openai-compatible/qwen3' }, { env: {}, ...where })?.timeoutMs).toBe(
      900_000,
    );
  });

  it('takes SKILLAUDIT_MODEL_TIMEOUT over the config file', () => {
    const where = layout({ model: 'openai/gpt-5', timeoutSeconds: 60 }, null);
    expect(resolveModelSettings({}, { env: {}, ...where })?.timeoutMs).toBe(60_000);
    expect(resolveModelSettings({}, { env: { SKILLAUDIT_MODEL_TIMEOUT: '2.5' }, ...where })?.timeoutMs).toBe(
      2500,
    );
    expect(() => resolveModelSettings({}, { env: { SKILLAUDIT_MODEL_TIMEOUT: 'soon' }, ...where })).toThrow(
      /positive number of seconds/,
    );
  });
});

describe('describeSettings', () => {
  it('never shows the API key', () => {
    const where = layout(null, null);
    const s = resolveModelSettings(
      { model: 'anthropic/claude-haiku-4-5', maxCost: '1' },
      { env: { ANTHROPIC_API_KEY: 'sk-ant-very-secret' }, ...where },
    );
    const shown = describeSettings(s!);
    expect(JSON.stringify(shown)).not.toContain('very-secret');
    expect(shown).toMatchObject({
      model: 'anthropic/claude-haiku-4-5',
      apiKeySet: true,
      maxCost: { dollars: 1 },
    });
  });
});
