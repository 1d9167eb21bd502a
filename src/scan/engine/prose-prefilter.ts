import { requiredLiterals, UNICODE_FOLDS } from './prose-literals.js';
import type { Variant } from './prose-phrase.js';

// Which variants could match a text, found in one pass over it: an Aho-Corasick automaton over the required
// literals of every variant's leading expression (prose-literals.ts). A variant none of whose literals occur
// cannot match, so its expression is not run; this replaces one regular-expression run per variant and
// segment with one walk over the segment.

const ALPHABET = 128;

export class Prefilter {
  /** Transition table: state * ALPHABET + lower-cased ASCII code. */
  private readonly next: Int32Array;
  /** Per state, the variant slots whose literal ends there (failure links folded in). */
  private readonly out: (readonly number[] | null)[];
  /** Per variant slot, the generation of the last text it was seen in. */
  private readonly seen: Int32Array;
  private readonly slot = new Map<Variant, number>();
  private generation = 0;

  constructor(variants: readonly Variant[]) {
    const literals: { text: string; slot: number }[] = [];
    for (const v of variants) {
      const lits = requiredLiterals(v.all[0]!);
      if (!lits) continue;
      const slot = this.slot.size;
      this.slot.set(v, slot);
      for (const text of lits) literals.push({ text, slot });
    }
    this.seen = new Int32Array(this.slot.size);
    const built = build(literals);
    this.next = built.next;
    this.out = built.out;
  }

  /** Marks the variants whose literals occur in `text`; call before `mayMatch` for that text. */
  scan(text: string): void {
    const gen = ++this.generation;
    const { next, out, seen } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= ALPHABET) {
        // No literal holds a non-ASCII character, but a case-insensitive Unicode expression reads two as ASCII.
        const folded = UNICODE_FOLDS.get(c);
        if (folded === undefined) {
          state = 0;
          continue;
        }
        c = folded;
      }
      if (c >= 65 && c <= 90) c += 32;
      state = next[state * ALPHABET + c]!;
      const slots = out[state];
      if (slots) for (const s of slots) seen[s] = gen;
    }
  }

  /** False only when `v` provably cannot match the text last scanned. */
  mayMatch(v: Variant): boolean {
    return this.maySlot(this.slotOf(v));
  }

  /** The slot of `v`'s literals (-1 when it has none and may always match), for `maySlot`. */
  slotOf(v: Variant): number {
    return this.slot.get(v) ?? -1;
  }

  /** `mayMatch` by slot: a typed-array read, for loops over every variant of every segment. */
  maySlot(slot: number): boolean {
    return slot < 0 || this.seen[slot] === this.generation;
  }
}

function build(literals: readonly { text: string; slot: number }[]): {
  next: Int32Array;
  out: (readonly number[] | null)[];
} {
  const goto: Map<number, number>[] = [new Map()];
  const outSets: Set<number>[] = [new Set()];
  for (const { text, slot } of literals) {
    let s = 0;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      let t = goto[s]!.get(c);
      if (t === undefined) {
        t = goto.length;
        goto.push(new Map());
        outSets.push(new Set());
        goto[s]!.set(c, t);
      }
      s = t;
    }
    outSets[s]!.add(slot);
  }
  const next = new Int32Array(goto.length * ALPHABET);
  const fail = new Int32Array(goto.length);
  // Breadth first, so a state's failure state is complete before the state itself.
  const queue: number[] = [];
  for (const [c, t] of goto[0]!) {
    next[c] = t;
    queue.push(t);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    const f = fail[s]!;
    for (const o of outSets[f]!) outSets[s]!.add(o);
    // Missing transitions behave as from the failure state, whose row is already complete.
    next.copyWithin(s * ALPHABET, f * ALPHABET, f * ALPHABET + ALPHABET);
    for (const [c, t] of goto[s]!) {
      fail[t] = next[f * ALPHABET + c]!;
      next[s * ALPHABET + c] = t;
      queue.push(t);
    }
  }
  return { next, out: outSets.map((o) => (o.size > 0 ? [...o] : null)) };
}
