// Required literals of a regular expression: a set of lower-case ASCII strings such that every match of the
// expression contains at least one of them. Text holding none of them cannot match, so the expression need
// not run. The analysis is conservative: anything it does not fully understand makes it give up (null), and
// the expression then always runs.

/** What is known about the text one piece of a pattern can match. */
interface Info {
  /** Every string the piece can match (lower-cased), when there are few; null when unknown or too many. */
  exact: Set<string> | null;
  /** Every match contains one of these (non-empty, lower-cased); null when nothing is required. */
  req: Set<string> | null;
}

const MAX_EXACT = 64;
const MAX_CLASS = 4;
const UNKNOWN: Info = { exact: null, req: null };
const EMPTY: Info = { exact: new Set(['']), req: null };

class GiveUp extends Error {}

/** Only ASCII is folded by a non-Unicode case-insensitive expression, so only ASCII counts as a literal. */
function literalChar(code: number): Info {
  if (code >= 0x80) return UNKNOWN;
  const s = String.fromCharCode(code).toLowerCase();
  return { exact: new Set([s]), req: new Set([s]) };
}

function shorten(set: Set<string>): Set<string> | null {
  if (set.has('')) return null;
  return set;
}

/** The strings a sequence of pieces can match, and the best requirement among its parts. */
function sequence(items: Info[]): Info {
  let exact: Set<string> | null = new Set(['']);
  let run: Set<string> = new Set(['']);
  const reqs: Set<string>[] = [];
  const closeRun = () => {
    const r = shorten(run);
    if (r) reqs.push(r);
    run = new Set(['']);
  };
  for (const it of items) {
    if (it.req) reqs.push(it.req);
    if (it.exact && run.size * it.exact.size <= MAX_EXACT) {
      run = cross(run, it.exact);
    } else {
      closeRun();
      if (it.exact) run = new Set(it.exact);
    }
    exact = exact && it.exact && exact.size * it.exact.size <= MAX_EXACT ? cross(exact, it.exact) : null;
  }
  closeRun();
  if (exact) {
    const r = shorten(exact);
    if (r) reqs.push(r);
  }
  return { exact, req: best(reqs) };
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

/** Prefers requirements whose shortest string is long (rarer), then fewer strings. */
function best(reqs: Set<string>[]): Set<string> | null {
  let chosen: Set<string> | null = null;
  let score = -1;
  for (const r of reqs) {
    let shortest = Number.POSITIVE_INFINITY;
    for (const s of r) shortest = Math.min(shortest, s.length);
    const sc = Math.min(shortest, 6) * 100 - r.size;
    if (sc > score) {
      score = sc;
      chosen = r;
    }
  }
  return chosen;
}

function alternation(alts: Info[]): Info {
  if (alts.length === 1) return alts[0]!;
  let exact: Set<string> | null = new Set();
  let req: Set<string> | null = new Set();
  for (const a of alts) {
    exact =
      exact && a.exact && exact.size + a.exact.size <= MAX_EXACT ? new Set([...exact, ...a.exact]) : null;
    const r = a.req ?? (a.exact ? shorten(a.exact) : null);
    req = req && r ? new Set([...req, ...r]) : null;
  }
  return { exact, req };
}

function repeat(it: Info, min: number, max: number): Info {
  if (min === 1 && max === 1) return it;
  if (min === 0 && max === 1) return { exact: it.exact ? new Set([...it.exact, '']) : null, req: null };
  if (min === 0) return { exact: null, req: null };
  return { exact: null, req: it.req ?? (it.exact ? shorten(it.exact) : null) };
}

/** A recursive-descent reader of RegExp source (non-Unicode syntax), producing Info. */
class Reader {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
  ) {}

  parse(): Info {
    const info = this.disjunction();
    if (this.i !== this.src.length) throw new GiveUp();
    return info;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private disjunction(): Info {
    const alts = [this.alternative()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.alternative());
    }
    return alternation(alts);
  }

  private alternative(): Info {
    const items: Info[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.quantified(this.atom()));
    }
    return sequence(items);
  }

  private quantified(atom: Info): Info {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Number.POSITIVE_INFINITY;
    } else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) throw new GiveUp();
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] ? (m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY) : min;
    } else return atom;
    if (this.peek() === '?') this.i++;
    return repeat(atom, min, max);
  }

  private atom(): Info {
    const c = this.src[this.i++]!;
    switch (c) {
      case '^':
      case '$':
        return EMPTY;
      case '.':
        return UNKNOWN;
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '\\':
        return this.escape();
      case ')':
      case ']':
      case '{':
      case '}':
      case '*':
      case '+':
      case '?':
        throw new GiveUp();
      default:
        return literalChar(c.charCodeAt(0));
    }
  }

  private group(): Info {
    let look = false;
    if (this.peek() === '?') {
      const head = this.src.slice(this.i, this.i + 3);
      if (head.startsWith('?:')) this.i += 2;
      else if (head.startsWith('?=') || head.startsWith('?!')) {
        this.i += 2;
        look = true;
      } else if (head === '?<=' || head === '?<!') {
        this.i += 3;
        look = true;
      } else if (head.startsWith('?<')) {
        const end = this.src.indexOf('>', this.i);
        if (end < 0) throw new GiveUp();
        this.i = end + 1;
      } else throw new GiveUp();
    }
    const inner = this.disjunction();
    if (this.src[this.i++] !== ')') throw new GiveUp();
    // A lookaround consumes nothing: the match itself holds none of its text.
    return look ? EMPTY : inner;
  }

  private escape(): Info {
    const c = this.src[this.i++];
    if (c === undefined) throw new GiveUp();
    if (c === 'b' || c === 'B') return EMPTY;
    // A back-reference repeats text some group matched: any string, as far as this analysis knows.
    if (/[1-9]/.test(c)) {
      while (/[0-9]/.test(this.peek() ?? '')) this.i++;
      return UNKNOWN;
    }
    // A named back-reference or a Unicode property: a bracketed name, then any string.
    if (c === 'k' || ((c === 'p' || c === 'P') && this.unicode)) {
      const close = c === 'k' ? '>' : '}';
      if (this.peek() !== (c === 'k' ? '<' : '{')) throw new GiveUp();
      const end = this.src.indexOf(close, this.i);
      if (end < 0) throw new GiveUp();
      this.i = end + 1;
      return UNKNOWN;
    }
    const code = this.escapedCode(c);
    return code === null ? UNKNOWN : literalChar(code);
  }

  /** The character an escape stands for, or null for classes, back-references and the like. */
  private escapedCode(c: string): number | null {
    if ('dDwWsS'.includes(c)) return null;
    // In a class, a property needs its braces read (u flag); a back-reference has no meaning.
    if ('pPk'.includes(c) || /[1-9]/.test(c)) throw new GiveUp();
    const fixed: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };
    if (c in fixed) {
      if (c === '0' && /[0-9]/.test(this.peek() ?? '')) throw new GiveUp();
      return fixed[c]!;
    }
    if (c === 'x' || c === 'u') {
      const m = (c === 'x' ? /^[0-9a-fA-F]{2}/ : /^[0-9a-fA-F]{4}/).exec(this.src.slice(this.i));
      if (!m) throw new GiveUp();
      this.i += m[0].length;
      return Number.parseInt(m[0], 16);
    }
    if (c === 'c') throw new GiveUp();
    // Escaped punctuation stands for itself; an escaped letter with no meaning is too odd to reason about.
    if (/[A-Za-z]/.test(c)) throw new GiveUp();
    return c.charCodeAt(0);
  }

  /** A class of a few ASCII characters is a small set of strings; anything wider is unknown. */
  private charClass(): Info {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
      // [^] is any character.
      if (this.peek() === ']') {
        this.i++;
        return UNKNOWN;
      }
    }
    const codes = new Set<number>();
    let finite = true;
    let first = true;
    for (;;) {
      const c = this.src[this.i++];
      if (c === undefined) throw new GiveUp();
      if (c === ']' && !first) break;
      if (c === ']') throw new GiveUp();
      first = false;
      const lo = this.classAtom(c);
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classAtom(this.src[this.i++]!);
        if (lo === null || hi === null || hi < lo) throw new GiveUp();
        for (let k = lo; k <= hi && finite; k++) codes.add(k);
        if (hi - lo > 128) finite = false;
      } else if (lo === null) finite = false;
      else codes.add(lo);
    }
    if (negated || !finite || codes.size === 0) return UNKNOWN;
    const strings = new Set<string>();
    for (const code of codes) {
      if (code >= 0x80) return UNKNOWN;
      strings.add(String.fromCharCode(code).toLowerCase());
    }
    if (strings.size > MAX_CLASS) return UNKNOWN;
    return { exact: strings, req: strings };
  }

  private classAtom(c: string): number | null {
    if (c !== '\\') return c.charCodeAt(0);
    const e = this.src[this.i++];
    if (e === undefined) throw new GiveUp();
    if (e === 'b') return 8;
    if (e === '-') return 45;
    return this.escapedCode(e);
  }
}

/**
 * Lower-case ASCII strings, one of which every match of `re` contains; null when none can be named (the
 * expression must then always run). Not for expressions with the v, g or y flags (global or sticky ones keep
 * state between runs). Under the u and i flags two non-ASCII letters fold onto ASCII ones (U+017F onto s,
 * the Kelvin sign onto k): whoever looks for the literals in a text must read them as those letters
 * (UNICODE_FOLDS).
 */
export function requiredLiterals(re: RegExp): string[] | null {
  if (/[vgy]/.test(re.flags)) return null;
  let info: Info;
  try {
    info = new Reader(re.source, re.flags.includes('u')).parse();
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
  const req = info.req ?? (info.exact ? shorten(info.exact) : null);
  if (!req) return null;
  // A string that contains another shorter required string adds nothing.
  const all = [...req].sort((a, b) => a.length - b.length);
  return all.filter((s, k) => !all.slice(0, k).some((t) => s.includes(t)));
}

/** The non-ASCII characters that Unicode simple case folding (the u and i flags) maps onto ASCII letters. */
export const UNICODE_FOLDS: ReadonlyMap<number, number> = new Map([
  [0x17f, 's'.charCodeAt(0)],
  [0x212a, 'k'.charCodeAt(0)],
]);
