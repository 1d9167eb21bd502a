import { UserError } from '../util/errors.js';

/** Tokens and money spent; `input` counts every prompt token, `cached` the part read from the provider's cache. */
export interface Usage {
  input: number;
  cached: number;
  output: number;
  /** Model calls that reached the provider. */
  calls: number;
  /** Calls answered from the local response cache (they cost nothing and add no tokens). */
  cacheHits: number;
  /** US dollars, for calls whose model has a known price. */
  cost: number;
  /** Calls whose cost is unknown (model not in the price table). */
  unpricedCalls: number;
}

export function emptyUsage(): Usage {
  return { input: 0, cached: 0, output: 0, calls: 0, cacheHits: 0, cost: 0, unpricedCalls: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    cached: a.cached + b.cached,
    output: a.output + b.output,
    calls: a.calls + b.calls,
    cacheHits: a.cacheHits + b.cacheHits,
    cost: a.cost + b.cost,
    unpricedCalls: a.unpricedCalls + b.unpricedCalls,
  };
}

/** Per-stage spending since an earlier `byStage()` of the same ledger; stages that spent nothing since are left out. */
export function usageSince(now: Record<string, Usage>, before: Record<string, Usage>): Record<string, Usage> {
  const out: Record<string, Usage> = {};
  for (const [stage, u] of Object.entries(now)) {
    const b = before[stage] ?? emptyUsage();
    const d: Usage = {
      input: u.input - b.input,
      cached: u.cached - b.cached,
      output: u.output - b.output,
      calls: u.calls - b.calls,
      cacheHits: u.cacheHits - b.cacheHits,
      cost: u.cost - b.cost,
      unpricedCalls: u.unpricedCalls - b.unpricedCalls,
    };
    if (d.calls !== 0 || d.cacheHits !== 0 || d.input !== 0 || d.output !== 0) out[stage] = d;
  }
  return out;
}

/** A spending limit: dollars (needs a known price) or tokens (input + output, cached reads included). */
export type CostCap = { dollars: number } | { tokens: number };

/** Parses `--max-cost`: `2.50` or `$2.50` (dollars); `tokens:200000`, `200k tokens` or `1m tok` (tokens). */
export function parseCostCap(text: string): CostCap {
  const t = text.trim().toLowerCase();
  const tokens =
    /^tokens?:\s*(\d+(?:\.\d+)?)\s*([km]?)$/.exec(t) ??
    /^(\d+(?:\.\d+)?)\s*([km]?)\s*(?:tok|tokens)$/.exec(t);
  if (tokens) {
    const scale = tokens[2] === 'k' ? 1e3 : tokens[2] === 'm' ? 1e6 : 1;
    return { tokens: Math.round(Number(tokens[1]) * scale) };
  }
  const dollars = /^\$?\s*(\d+(?:\.\d+)?)$/.exec(t);
  if (dollars) return { dollars: Number(dollars[1]) };
  throw new UserError('USAGE', `invalid --max-cost "${text}": use dollars (2.50) or tokens (tokens:200000)`);
}

/** Thrown before a model call that the cap does not allow; callers stop cleanly and report what was left. */
export class BudgetExceeded extends Error {
  readonly cap: CostCap;
  readonly spent: Usage;

  constructor(cap: CostCap, spent: Usage, wanted: string) {
    const limit = 'dollars' in cap ? `$${cap.dollars.toFixed(2)}` : `${cap.tokens} tokens`;
    const used = 'dollars' in cap ? `$${spent.cost.toFixed(4)}` : `${spent.input + spent.output} tokens`;
    super(`cost cap ${limit} reached (spent ${used}); not starting ${wanted}`);
    this.name = 'BudgetExceeded';
    this.cap = cap;
    this.spent = spent;
  }
}

/**
 * Usage summed per stage (e.g. `scan.review`, `judge`), with an optional cap shared by every client that
 * records here. One ledger per audit run: pass it to each client so the cap covers them all.
 */
export class UsageLedger {
  readonly cap: CostCap | undefined;
  private readonly stages = new Map<string, Usage>();
  private readonly reserved = { tokens: 0, cost: 0 };

  constructor(cap?: CostCap) {
    this.cap = cap;
  }

  record(stage: string, usage: Usage): void {
    this.stages.set(stage, addUsage(this.stages.get(stage) ?? emptyUsage(), usage));
  }

  total(): Usage {
    let sum = emptyUsage();
    for (const u of this.stages.values()) sum = addUsage(sum, u);
    return sum;
  }

  byStage(): Record<string, Usage> {
    return Object.fromEntries([...this.stages].sort(([a], [b]) => a.localeCompare(b)));
  }

  /**
   * Throws BudgetExceeded when the spending so far plus the expected cost of the next call (its estimated
   * prompt, priced as fresh input) would pass the cap. Output is not estimated: a call that starts under the
   * cap may end slightly over it, and the next one is refused.
   */
  check(next: { tokens: number; cost: number }, wanted: string): void {
    if (!this.cap) return;
    const spent = this.total();
    const over =
      'dollars' in this.cap
        ? spent.cost + this.reserved.cost + next.cost > this.cap.dollars
        : spent.input + spent.output + this.reserved.tokens + next.tokens > this.cap.tokens;
    if (over) throw new BudgetExceeded(this.cap, spent, wanted);
  }

  /**
   * Like `check`, then holds the estimate until the returned release is called (after the call's usage is
   * recorded), so calls running in parallel count each other's prompts and cannot all slip under the cap.
   */
  reserve(next: { tokens: number; cost: number }, wanted: string): () => void {
    this.check(next, wanted);
    this.reserved.tokens += next.tokens;
    this.reserved.cost += next.cost;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.reserved.tokens -= next.tokens;
      this.reserved.cost -= next.cost;
    };
  }
}
