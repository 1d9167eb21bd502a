// Token buckets keyed by client (a token, an IP address): each holds up to `perMinute` submissions and refills
// continuously at that rate, so a burst is allowed once and a steady flood is held to the rate. Time is
// passed in, so the arithmetic is testable without waiting.

export interface RateDecision {
  ok: boolean;
  /** Whole seconds until one submission is available again (0 when ok). */
  retryAfter: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

// Buckets kept before full (idle) ones are dropped: bounds memory under a flood of distinct addresses.
const MAX_BUCKETS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly perMs: number;

  constructor(perMinute: number) {
    if (!(perMinute > 0)) throw new Error('the rate limit must be positive');
    this.capacity = perMinute;
    this.perMs = perMinute / 60_000;
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
  }

  /** Takes one submission for `key` if there is one. */
  take(key: string, now: number = Date.now()): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const tokens = this.refilled(bucket, now);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      if (this.buckets.size > MAX_BUCKETS) this.dropIdle(now);
      return { ok: true, retryAfter: 0 };
    }
    this.buckets.set(key, { tokens, at: now });
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)) };
  }

  private dropIdle(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.capacity) this.buckets.delete(key);
    }
  }

  get size(): number {
    return this.buckets.size;
  }
}
