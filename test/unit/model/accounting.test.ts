import { describe, expect, it } from 'vitest';
import { BudgetExceeded, costOf, emptyUsage, priceOf, UsageLedger } from '../../../src/model/index.js';
import { canonicalJson, requestKey } from '../../../src/model/request-key.js';
import { backoff, DEFAULT_RETRY, retryAfterMs } from '../../../src/model/retry.js';
import { usageSince } from '../../../src/model/usage.js';

const use = (input: number, output: number, cost = 0) => ({ ...emptyUsage(), input, output, cost, calls: 1 });

describe('prices', () => {
  it('matches the longest prefix, so dated snapshots and mini models get their own price', () => {
    expect(priceOf({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' })?.input).toBe(3);
    expect(priceOf({ provider: 'openai', model: 'gpt-5-mini' })?.input).toBe(0.25);
    expect(priceOf({ provider: 'openai', model: 'gpt-5' })?.input).toBe(1.25);
    expect(priceOf({ provider: 'openai-chat', model: 'gpt-4o-mini-2024-07-18' })?.output).toBe(0.6);
  });

  it('knows no price for unknown or local models unless the config gives one', () => {
    expect(priceOf({ provider: 'anthropic', model: 'my-proxy-model' })).toBeNull();
    expect(priceOf({ provider: 'openai-compatible', model: 'qwen3' })).toBeNull();
    const override = { input: 0.1, cachedInput: 0.01, output: 0.2 };
    expect(
      priceOf({ provider: 'openai-compatible', model: 'qwen3' }, { 'openai-compatible/qwen3': override }),
    ).toBe(override);
  });

  it('charges cached input at the cached rate', () => {
    const price = { input: 3, cachedInput: 0.3, output: 15 };
    expect(costOf(price, { input: 1_000_000, cached: 0, output: 0 })).toBeCloseTo(3);
    expect(costOf(price, { input: 1_000_000, cached: 1_000_000, output: 0 })).toBeCloseTo(0.3);
    expect(costOf(price, { input: 0, cached: 0, output: 1_000_000 })).toBeCloseTo(15);
  });
});

describe('UsageLedger', () => {
  it('sums per stage and in total', () => {
    const ledger = new UsageLedger();
    ledger.record('judge', use(10, 2));
    ledger.record('judge', use(5, 1));
    ledger.record('schemes', use(100, 20));
    expect(ledger.byStage().judge).toMatchObject({ input: 15, output: 3, calls: 2 });
    expect(ledger.total()).toMatchObject({ input: 115, output: 23, calls: 3 });
    expect(Object.keys(ledger.byStage())).toEqual(['judge', 'schemes']);
  });

  it('refuses a call whose estimated prompt would pass a token cap', () => {
    const ledger = new UsageLedger({ tokens: 1000 });
    ledger.check({ tokens: 900, cost: 0 }, 'first');
    ledger.record('a', use(800, 100));
    ledger.check({ tokens: 100, cost: 0 }, 'exactly at the cap');
    expect(() => ledger.check({ tokens: 101, cost: 0 }, 'the judge')).toThrow(BudgetExceeded);
    expect(() => ledger.check({ tokens: 101, cost: 0 }, 'the judge')).toThrow(/1000 tokens.*the judge/);
  });

  it('refuses by dollars with a dollar cap', () => {
    const ledger = new UsageLedger({ dollars: 1 });
    ledger.record('a', use(0, 0, 0.95));
    ledger.check({ tokens: 1_000_000, cost: 0.05 }, 'ok');
    expect(() => ledger.check({ tokens: 1, cost: 0.06 }, 'next')).toThrow(/\$1\.00/);
  });

  it('counts reserved estimates of calls in flight until they are released', () => {
    const ledger = new UsageLedger({ tokens: 1000 });
    const release = ledger.reserve({ tokens: 600, cost: 0 }, 'first');
    expect(() => ledger.reserve({ tokens: 600, cost: 0 }, 'parallel')).toThrow(BudgetExceeded);
    ledger.record('a', use(300, 50));
    release();
    release();
    expect(() => ledger.reserve({ tokens: 600, cost: 0 }, 'after')).not.toThrow();
  });

  it('tells what one skill of a shared ledger spent: the difference since a snapshot, idle stages left out', () => {
    const ledger = new UsageLedger();
    ledger.record('judge', use(10, 2));
    ledger.record('schemes', use(100, 20));
    const before = ledger.byStage();
    ledger.record('judge', use(5, 1));
    ledger.record('trials.builtin', use(40, 4));
    const since = usageSince(ledger.byStage(), before);
    expect(Object.keys(since)).toEqual(['judge', 'trials.builtin']);
    expect(since.judge).toMatchObject({ input: 5, output: 1, calls: 1 });
    expect(since['trials.builtin']).toMatchObject({ input: 40, output: 4, calls: 1 });
  });

  it('never refuses without a cap', () => {
    const ledger = new UsageLedger();
    ledger.record('a', use(1e9, 1e9, 1e6));
    expect(() => ledger.check({ tokens: 1e9, cost: 1e6 }, 'x')).not.toThrow();
  });
});

describe('retry timing', () => {
  it('reads retry-after in seconds, as a date, and retry-after-ms', () => {
    expect(retryAfterMs({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterMs({ 'Retry-After-Ms': '250' })).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });

  it('backs off exponentially with jitter inside [step/2, step], capped', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    for (let i = 0; i < 50; i++) {
      const d0 = backoff(policy, 0);
      const d3 = backoff(policy, 3);
      const d9 = backoff(policy, 9);
      expect(d0).toBeGreaterThanOrEqual(50);
      expect(d0).toBeLessThanOrEqual(100);
      expect(d3).toBeGreaterThanOrEqual(400);
      expect(d3).toBeLessThanOrEqual(800);
      expect(d9).toBeLessThanOrEqual(1000);
    }
  });
});

describe('request keys', () => {
  it('ignore key order and undefined fields, and differ on content', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: 1, y: 2 }] } })).toBe(
      '{"a":{"c":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(requestKey({ a: 1, b: 2 })).toBe(requestKey({ b: 2, a: 1 }));
    expect(requestKey({ a: 1 })).not.toBe(requestKey({ a: 2 }));
    expect(requestKey({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
