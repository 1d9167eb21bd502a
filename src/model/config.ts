import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { errorMessage, UserError } from '../util/errors.js';
import type { Price } from './prices.js';
import { type ModelSpec, type ProviderId, parseModelSpec } from './spec.js';
import { type CostCap, parseCostCap } from './usage.js';

/** What the command line gave (commander's `--no-cache` sets `cache: false`). */
export interface ModelFlags {
  model?: string;
  /** `--judge-model`: a separate model for the judge (default: `model`). */
  judgeModel?: string;
  baseUrl?: string;
  maxCost?: string;
  cacheDir?: string;
  cache?: boolean;
}

/** Everything needed to build a ModelClient. Holds the API key: never write it into reports. */
export interface ModelSettings {
  spec: ModelSpec;
  /** Resolved base URL, or undefined for the provider's public endpoint. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  maxCost: CostCap | undefined;
  /** Limit for one model call attempt. */
  timeoutMs: number;
  cacheDir: string;
  useCache: boolean;
  /** Price overrides keyed `provider/model`, dollars per million tokens. */
  prices: Record<string, Price>;
}

export interface SettingsContext {
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
}

const priceSchema = z.object({ input: z.number(), cachedInput: z.number(), output: z.number() });
const fileSchema = z.object({
  model: z.string().optional(),
  judgeModel: z.string().optional(),
  baseUrl: z.string().optional(),
  maxCost: z.union([z.string(), z.number()]).optional(),
  cacheDir: z.string().optional(),
  timeoutSeconds: z.number().positive().optional(),
  prices: z.record(z.string(), priceSchema).optional(),
});
type ConfigFile = z.infer<typeof fileSchema>;

/** Where each provider's key and base URL come from in the environment. */
const ENV: Record<ProviderId, { key: string; baseUrl: string }> = {
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  'openai-chat': { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_COMPATIBLE_API_KEY', baseUrl: 'OPENAI_COMPATIBLE_BASE_URL' },
};

export function apiKeyVariable(provider: ProviderId): string {
  return ENV[provider].key;
}

/**
 * Resolves model settings; each value is taken from the first place that sets it:
 * 1. flags (`--model`, `--base-url`, `--max-cost`, `--cache-dir`, `--no-cache`);
 * 2. environment (`SKILLAUDIT_MODEL`, the provider's base-URL variable — ANTHROPIC_BASE_URL, OPENAI_BASE_URL,
 *    OPENAI_COMPATIBLE_BASE_URL — `SKILLAUDIT_MAX_COST`, `SKILLAUDIT_CACHE_DIR`, `SKILLAUDIT_NO_CACHE=1`,
 *    `SKILLAUDIT_MODEL_TIMEOUT` in seconds);
 * 3. `./skillaudit.config.json`, then `$XDG_CONFIG_HOME/skillaudit/config.json` (default `~/.config`), with
 *    keys { model, judgeModel, baseUrl, maxCost, cacheDir, timeoutSeconds, prices }; relative paths resolve against the
 *    file's folder.
 * The call timeout defaults to 5 minutes, 15 for openai-compatible servers (local CPU inference is slow).
 * API keys come only from the environment. Returns null when no model is configured anywhere.
 */
export function resolveModelSettings(
  flags: ModelFlags,
  context?: Partial<SettingsContext>,
): ModelSettings | null {
  const { env, cwd, home, files, fromFile } = loadSources(context);
  const modelText = flags.model ?? env.SKILLAUDIT_MODEL ?? fromFile('model')?.value;
  if (!modelText) return null;
  const spec = parseModelSpec(modelText);
  const vars = ENV[spec.provider];

  const rawBaseUrl = flags.baseUrl ?? env[vars.baseUrl] ?? fromFile('baseUrl')?.value;
  const maxCostText = flags.maxCost ?? env.SKILLAUDIT_MAX_COST ?? fromFile('maxCost')?.value;
  const cache = cacheFrom(flags, { env, cwd, home, fromFile });
  const timeoutSeconds = timeoutFor(spec, env, fromFile('timeoutSeconds')?.value);

  // The lower file's prices fill in what the project file does not set.
  const prices: Record<string, Price> = {};
  for (const f of [...files].reverse()) Object.assign(prices, f.config.prices ?? {});

  return {
    spec,
    baseUrl: rawBaseUrl ? normaliseBaseUrl(spec.provider, rawBaseUrl) : undefined,
    apiKey: env[vars.key] || undefined,
    maxCost: maxCostText === undefined ? undefined : parseCostCap(String(maxCostText)),
    timeoutMs: timeoutSeconds * 1000,
    cacheDir: cache.dir,
    useCache: cache.use,
    prices,
  };
}

/**
 * The judge's own model, when one is set apart from the agents' model: `--judge-model`, then
 * `SKILLAUDIT_JUDGE_MODEL`, then `judgeModel` in a config file (seed 000 judges every configuration with one
 * shared model). Its key and base URL come from its provider's variables; a judge of the same provider as the
 * main model shares that model's base URL (the same server, another model). Cost cap, cache and prices are the
 * main settings' (one cap covers the whole audit). Null when no judge model is set, or it is the main model.
 */
export function resolveJudgeSettings(
  main: ModelSettings,
  flags: ModelFlags,
  context?: Partial<SettingsContext>,
): ModelSettings | null {
  const { env, fromFile } = loadSources(context);
  const text = flags.judgeModel ?? env.SKILLAUDIT_JUDGE_MODEL ?? fromFile('judgeModel')?.value;
  if (!text) return null;
  const spec = parseModelSpec(text);
  if (spec.provider === main.spec.provider && spec.model === main.spec.model) return null;
  const vars = ENV[spec.provider];
  const rawBaseUrl = spec.provider === main.spec.provider ? main.baseUrl : env[vars.baseUrl];
  return {
    ...main,
    spec,
    baseUrl: rawBaseUrl ? normaliseBaseUrl(spec.provider, rawBaseUrl) : undefined,
    apiKey: env[vars.key] || undefined,
    timeoutMs: timeoutFor(spec, env, fromFile('timeoutSeconds')?.value) * 1000,
  };
}

/** The environment, folders and config files settings are read from; `fromFile` takes the first file setting a key. */
/**
 * The cache folder (model responses and scan results) and whether to use it: `--cache-dir`,
 * `SKILLAUDIT_CACHE_DIR`, a config file's `cacheDir`, else `$XDG_CACHE_HOME/skillaudit` (`~/.cache`);
 * `--no-cache` or `SKILLAUDIT_NO_CACHE=1` turn it off.
 */
export function resolveCache(
  flags: Pick<ModelFlags, 'cacheDir' | 'cache'>,
  context?: Partial<SettingsContext>,
): { dir: string; use: boolean } {
  return cacheFrom(flags, loadSources(context));
}

function cacheFrom(
  flags: Pick<ModelFlags, 'cacheDir' | 'cache'>,
  { env, cwd, home, fromFile }: Pick<ReturnType<typeof loadSources>, 'env' | 'cwd' | 'home' | 'fromFile'>,
): { dir: string; use: boolean } {
  const fileCacheDir = fromFile('cacheDir');
  const dir =
    flags.cacheDir ??
    env.SKILLAUDIT_CACHE_DIR ??
    (fileCacheDir ? resolve(fileCacheDir.dir, fileCacheDir.value) : undefined) ??
    join(env.XDG_CACHE_HOME || join(home, '.cache'), 'skillaudit');
  return { dir: resolve(cwd, dir), use: flags.cache !== false && env.SKILLAUDIT_NO_CACHE !== '1' };
}

function loadSources(context: Partial<SettingsContext> | undefined) {
  const env = context?.env ?? process.env;
  const cwd = context?.cwd ?? process.cwd();
  const home = context?.home ?? homedir();
  const userDir = env.XDG_CONFIG_HOME || join(home, '.config');
  const files = [join(cwd, 'skillaudit.config.json'), join(userDir, 'skillaudit', 'config.json')]
    .map(readConfigFile)
    .filter((f): f is { path: string; config: ConfigFile } => f !== null);
  const fromFile = <K extends keyof ConfigFile>(key: K) => {
    const hit = files.find((f) => f.config[key] !== undefined);
    return hit ? { value: hit.config[key] as NonNullable<ConfigFile[K]>, dir: dirname(hit.path) } : undefined;
  };
  return { env, cwd, home, files, fromFile };
}

/** Seconds allowed for one call: the variable, the file, else 5 minutes (15 for local OpenAI-compatible servers). */
function timeoutFor(spec: ModelSpec, env: SettingsContext['env'], fromFile: number | undefined): number {
  return (
    positiveNumber(env.SKILLAUDIT_MODEL_TIMEOUT, 'SKILLAUDIT_MODEL_TIMEOUT') ??
    fromFile ??
    (spec.provider === 'openai-compatible' ? 900 : 300)
  );
}

/** The settings as a report may show them: no key, only whether one was set. */
export function describeSettings(settings: ModelSettings): Record<string, unknown> {
  return {
    model: `${settings.spec.provider}/${settings.spec.model}`,
    baseUrl: settings.baseUrl ?? null,
    apiKeySet: settings.apiKey !== undefined,
    maxCost: settings.maxCost ?? null,
    timeoutMs: settings.timeoutMs,
    cache: settings.useCache ? settings.cacheDir : false,
  };
}

/**
 * Anthropic's convention (Claude Code, the official SDKs) is a base URL without the version, while the ai SDK
 * appends `/messages` to its base URL; so `/v1` is added when missing. OpenAI-style base URLs already carry
 * their version path (`https://api.openai.com/v1`, `http://localhost:11434/v1`) and are used as given.
 */
export function normaliseBaseUrl(provider: ProviderId, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new UserError('USAGE', `invalid base URL "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UserError('USAGE', `invalid base URL "${url}": only http and https are supported`);
  }
  const trimmed = parsed.toString().replace(/\/+$/, '');
  if (provider === 'anthropic' && !/\/v1$/.test(trimmed)) return `${trimmed}/v1`;
  return trimmed;
}

function positiveNumber(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new UserError('USAGE', `${name} must be a positive number of seconds`);
  return n;
}

function readConfigFile(path: string): { path: string; config: ConfigFile } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UserError('UNREADABLE', `cannot read config file ${path}: ${errorMessage(error)}`, path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError('USAGE', `config file ${path} is not valid JSON: ${errorMessage(error)}`, path);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      'USAGE',
      `config file ${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
      path,
    );
  }
  return { path, config: parsed.data };
}
