// ReDoS guard for rule expressions: a skill is hostile input, and one line of it must not stall a scan through
// regular-expression back-tracking. An expression is run against long adversarial lines (runs of what rules
// consume with `\w+`, `\s*`, `[\w.+-]+` and the like, ending in a character that makes the match fail, so an
// engine that back-tracks tries every split) and timed in CPU milliseconds.

const SEEDS = ['a', ' ', 'a ', '0', 'aA0', 'a-', 'a.', 'a/', 'a=', '\\x41', 'a:', '- ', '<a', 'a\t', '%'];
export const MB = 1 << 20;
/** What a rule expression may take on 1 MB of adversarial line. */
export const LIMIT_MS_PER_MB = 50;

function line(seed: string, length: number): string {
  return `${seed.repeat(Math.ceil(length / seed.length)).slice(0, length)}\u0001`;
}

/**
 * CPU milliseconds for one search of `text`: the fastest of up to three runs, stopping once one is under
 * `limit`. CPU time, not wall time, and the best run, so a busy machine's pauses do not count (a
 * back-tracking expression is slow every time).
 */
function bestMs(re: RegExp, text: string, limit: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3 && best > limit; i++) {
    const t = process.cpuUsage();
    re.exec(text);
    const used = process.cpuUsage(t);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** A copy without g/y, so exec always starts at 0 (the worst case: the whole line is searched). */
function fresh(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
}

/** Milliseconds per `length` characters, measured at 10 KB and 100 KB (a quadratic expression shows there). */
function scaledMs(re: RegExp, seed: string, length: number): number {
  re.exec(seed.repeat(8));
  // Ten times the per-character limit on 10 KB, where a few milliseconds are noise.
  const smallLimit = LIMIT_MS_PER_MB * (10_000 / MB) * 10;
  const small = bestMs(re, line(seed, 10_000), smallLimit);
  if (small > smallLimit) return small * (length / 10_000);
  return bestMs(re, line(seed, 100_000), LIMIT_MS_PER_MB * (100_000 / MB)) * (length / 100_000);
}

/**
 * The expressions slower than LIMIT_MS_PER_MB on some adversarial line, scaled to `length`. With `full`, the
 * slowest seed of each expression is then run at `length` itself, so the limit holds for the real size.
 */
export function slowExpressions(
  regexes: Map<string, RegExp>,
  length: number,
  full: boolean,
): Map<string, string> {
  const slow = new Map<string, string>();
  const limit = LIMIT_MS_PER_MB * (length / MB);
  for (const [name, original] of regexes) {
    const re = fresh(original);
    let worst = { seed: '', ms: -1 };
    for (const seed of SEEDS) {
      const ms = scaledMs(re, seed, length);
      if (ms > worst.ms) worst = { seed, ms };
      if (ms > limit * 2) break;
    }
    const ms = full && worst.ms <= limit * 2 ? bestMs(re, line(worst.seed, length), limit) : worst.ms;
    if (ms > limit)
      slow.set(name, `${JSON.stringify(worst.seed)}: ${ms.toFixed(0)} ms (${re.source.slice(0, 80)}…)`);
  }
  return slow;
}

/**
 * The expressions whose time grows faster than the line on some adversarial line: slow already on 10 KB, or
 * the worst seed at 100 KB taking more than 30 times as long at 1 MB (linear is 10) and more than the budget.
 * A ratio rather than a time, so that a loaded machine does not fail an expression that is merely slow-ish.
 */
export function backtrackingExpressions(regexes: Map<string, RegExp>): Map<string, string> {
  const found = new Map<string, string>();
  // On 10 KB a linear expression within budget takes half a millisecond; 50 times that is back-tracking.
  const tooSlowOnSmall = 50 * LIMIT_MS_PER_MB * (10_000 / MB);
  for (const [name, original] of regexes) {
    const re = fresh(original);
    let worst = { seed: '', ms: -1 };
    let screened: string | null = null;
    for (const seed of SEEDS) {
      const onSmall = bestMs(re, line(seed, 10_000), tooSlowOnSmall);
      if (onSmall > tooSlowOnSmall) {
        screened = `${JSON.stringify(seed)}: ${onSmall.toFixed(0)} ms on 10 KB`;
        break;
      }
      const ms = bestMs(re, line(seed, 100_000), 0);
      if (ms > worst.ms) worst = { seed, ms };
    }
    if (screened) {
      found.set(name, screened);
      continue;
    }
    const big = bestMs(re, line(worst.seed, MB), 0);
    if (big > LIMIT_MS_PER_MB && big > 30 * Math.max(worst.ms, 0.1))
      found.set(
        name,
        `${JSON.stringify(worst.seed)}: ${worst.ms.toFixed(1)} ms on 100 KB, ${big.toFixed(0)} ms on 1 MB`,
      );
  }
  return found;
}
