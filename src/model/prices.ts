import type { ModelSpec } from './spec.js';

/** US dollars per million tokens. */
export interface Price {
  input: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInput: number;
  output: number;
}

/**
 * List prices per model family, matched by the longest prefix of the model id (dated snapshots such as
 * `claude-sonnet-4-5-20250929` match their family). Entries marked "estimate" are newer releases priced like
 * their family; a config file's `prices` overrides any entry. Models not listed are unpriced: a dollar cap
 * then refuses to start, because spending could not be tracked.
 */
const PRICE_TABLE: Record<'anthropic' | 'openai', Record<string, Price>> = {
  anthropic: {
    'claude-opus-4-0': { input: 15, cachedInput: 1.5, output: 75 },
    'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
    'claude-opus-4-20250514': { input: 15, cachedInput: 1.5, output: 75 },
    'claude-opus-4-5': { input: 5, cachedInput: 0.5, output: 25 },
    'claude-opus-4-6': { input: 5, cachedInput: 0.5, output: 25 }, // estimate
    'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-3-7-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-3-5-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
    'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5 },
    'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  },
  openai: {
    'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
    'gpt-5.': { input: 1.75, cachedInput: 0.175, output: 14 }, // estimate for 5.2 and later
    'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
    'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
    'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
    'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
    'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
    'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
    o3: { input: 2, cachedInput: 0.5, output: 8 },
    'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
    'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  },
};

/** The price of a model: an override keyed `provider/model` wins, then the table; null when unknown. */
export function priceOf(spec: ModelSpec, overrides: Record<string, Price> = {}): Price | null {
  const override = overrides[`${spec.provider}/${spec.model}`];
  if (override) return override;
  if (spec.provider === 'openai-compatible') return null;
  const table = PRICE_TABLE[spec.provider === 'anthropic' ? 'anthropic' : 'openai'];
  let best: string | null = null;
  for (const prefix of Object.keys(table)) {
    if (spec.model.startsWith(prefix) && (best === null || prefix.length > best.length)) best = prefix;
  }
  return best === null ? null : (table[best] ?? null);
}

/** Dollars for one call; `input` includes `cached`. */
export function costOf(price: Price, tokens: { input: number; cached: number; output: number }): number {
  const fresh = Math.max(0, tokens.input - tokens.cached);
  return (fresh * price.input + tokens.cached * price.cachedInput + tokens.output * price.output) / 1_000_000;
}
