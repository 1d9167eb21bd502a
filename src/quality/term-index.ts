import { sameTerm } from './terms.js';

// Looks terms up under `sameTerm` without comparing against every term: candidates share the first five
// letters (the minimum prefix `sameTerm` accepts), and anything else must be equal.

function bucketOf(term: string): string {
  return /^[a-z]{5}/.test(term) ? term.slice(0, 5) : term;
}

export class TermIndex {
  private readonly buckets = new Map<string, string[]>();

  constructor(terms: Iterable<string> = []) {
    for (const t of terms) this.add(t);
  }

  /** The indexed term that `term` matches, or undefined. */
  find(term: string): string | undefined {
    return this.buckets.get(bucketOf(term))?.find((t) => sameTerm(t, term));
  }

  has(term: string): boolean {
    return this.find(term) !== undefined;
  }

  add(term: string): void {
    const key = bucketOf(term);
    const bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, [term]);
    else if (!bucket.includes(term)) bucket.push(term);
  }
}

/**
 * The `k` most frequent terms, variants counted under their first spelling ("summary" and "summarise" are one
 * term), ties in order of first appearance.
 */
export function topTerms(terms: readonly string[], k: number): string[] {
  const index = new TermIndex();
  const counts = new Map<string, number>();
  for (const t of terms) {
    const key = index.find(t) ?? t;
    index.add(key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([t]) => t);
}
