import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ModelSettings, resolveJudgeSettings, resolveModelSettings } from '../../../src/model/index.js';
import { UserError } from '../../../src/util/errors.js';

const root = mkdtempSync(join(tmpdir(), 'skillaudit-judge-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function where(project: object | null) {
  const dir = mkdtempSync(join(root, 'case-'));
  mkdirSync(join(dir, 'home'));
  if (project) writeFileSync(join(dir, 'skillaudit.config.json'), JSON.stringify(project));
  return { cwd: dir, home: join(dir, 'home') };
}

const env = {
  OPENAI_API_KEY: 'openai-key',
  ANTHROPIC_API_KEY: 'anthropic-key',
  ANTHROPIC_BASE_URL: 'https://anthropic-proxy.example',
};

function main(model: string, ctx: ReturnType<typeof where>, baseUrl?: string): ModelSettings {
  const s = resolveModelSettings(
    { model, maxCost: 'tokens:5000', cacheDir: 'c', ...(baseUrl ? { baseUrl } : {}) },
    { env, ...ctx },
  );
  if (!s) throw new Error('no settings');
  return s;
}

describe('resolveJudgeSettings', () => {
  it('is null when no judge model is set, or when it is the main model', () => {
    const ctx = where(null);
    const m = main('openai/gpt-5.4', ctx);
    expect(resolveJudgeSettings(m, {}, { env, ...ctx })).toBeNull();
    expect(resolveJudgeSettings(m, { judgeModel: 'openai/gpt-5.4' }, { env, ...ctx })).toBeNull();
  });

  it('another provider: its own key and base-URL variable; cap, cache and prices shared', () => {
    const ctx = where(null);
    const m = main('openai/gpt-5.4', ctx, 'http://local.example/v1');
    const j = resolveJudgeSettings(m, { judgeModel: 'anthropic/claude-sonnet-4-6' }, { env, ...ctx });
    expect(j?.spec).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(j?.apiKey).toBe('anthropic-key');
    // Anthropic's base URL gets its /v1, as for the main model.
    expect(j?.baseUrl).toBe('https://anthropic-proxy.example/v1');
    expect(j?.maxCost).toEqual(m.maxCost);
    expect(j?.cacheDir).toBe(m.cacheDir);
    expect(j?.useCache).toBe(m.useCache);
  });

  it('the same provider: the same server (base URL and key), another model', () => {
    const ctx = where(null);
    const m = main('openai/agent-model', ctx, 'http://127.0.0.1:9/v1');
    const j = resolveJudgeSettings(m, { judgeModel: 'openai/judge-model' }, { env, ...ctx });
    expect(j?.spec.model).toBe('judge-model');
    expect(j?.baseUrl).toBe('http://127.0.0.1:9/v1');
    expect(j?.apiKey).toBe('openai-key');
  });

  it('flag > SKILLAUDIT_JUDGE_MODEL > judgeModel in the config file', () => {
    const ctx = where({ judgeModel: 'anthropic/from-file' });
    const m = main('openai/gpt-5.4', ctx);
    const judge = (flags: object, extra: Record<string, string> = {}) =>
      resolveJudgeSettings(m, flags, { env: { ...env, ...extra }, ...ctx })?.spec.model;
    expect(judge({})).toBe('from-file');
    expect(judge({}, { SKILLAUDIT_JUDGE_MODEL: 'anthropic/from-env' })).toBe('from-env');
    expect(judge({ judgeModel: 'anthropic/from-flag' }, { SKILLAUDIT_JUDGE_MODEL: 'anthropic/x' })).toBe(
      'from-flag',
    );
  });

  it('rejects a malformed judge model as a usage error', () => {
    const ctx = where(null);
    expect(() =>
      resolveJudgeSettings(main('openai/gpt-5.4', ctx), { judgeModel: 'sonnet' }, { env, ...ctx }),
    ).toThrow(UserError);
  });

  it('a config file judgeModel that is not a string is refused', () => {
    const ctx = where({ judgeModel: 42 });
    expect(() => resolveModelSettings({ model: 'openai/gpt-5.4' }, { env, ...ctx })).toThrow(/judgeModel/);
  });
});
