import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/server/rate-limit.js';

describe('RateLimiter', () => {
  it('allows a burst of the per-minute rate, then refuses with the wait until the next slot', () => {
    const limiter = new RateLimiter(6); // one slot every 10 s
    const t0 = 1_000_000;
    for (let i = 0; i < 6; i++) expect(limiter.take('a', t0).ok).toBe(true);
    expect(limiter.take('a', t0)).toEqual({ ok: false, retryAfter: 10 });
    expect(limiter.take('a', t0 + 4_000)).toEqual({ ok: false, retryAfter: 6 });
    expect(limiter.take('a', t0 + 10_000).ok).toBe(true);
    expect(limiter.take('a', t0 + 10_000).ok).toBe(false);
  });

  it('keeps one bucket per key and refills to the burst size at most', () => {
    const limiter = new RateLimiter(2);
    const t0 = 0;
    expect(limiter.take('a', t0).ok).toBe(true);
    expect(limiter.take('a', t0).ok).toBe(true);
    expect(limiter.take('a', t0).ok).toBe(false);
    expect(limiter.take('b', t0).ok).toBe(true);
    // An hour later the bucket holds two, not 120.
    const later = t0 + 3_600_000;
    expect(limiter.take('a', later).ok).toBe(true);
    expect(limiter.take('a', later).ok).toBe(true);
    expect(limiter.take('a', later).ok).toBe(false);
  });

  it('drops idle buckets under a flood of distinct keys', () => {
    const limiter = new RateLimiter(60);
    for (let i = 0; i < 10_001; i++) limiter.take(`k${i}`, 0);
    expect(limiter.size).toBeGreaterThan(10_000);
    // Once the early buckets have refilled they are idle and go.
    limiter.take('late', 120_000);
    expect(limiter.size).toBe(1);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new RateLimiter(0)).toThrow(/positive/);
  });
});
