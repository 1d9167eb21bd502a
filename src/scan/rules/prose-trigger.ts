// A cheap necessary condition for a phrase expression: literal strings, one of which every match contains.
// Testing them with `includes` on the lowercased segment skips most expressions without running them
// (profiles showed the prose rules' expressions tried on every segment). Derived from the expression
// itself, so rules stay plain data and a trigger can never drift from its expression: whatever the
// analysis does not understand yields no condition (the expression always runs).

interface Info {
  /** Every string the node can match, lowercased, when it is a small finite set of ASCII text; else null. */
  exact: string[] | null;
  /** Strings one of which occurs in every match (lowercased); null when none is known. */
  req: string[] | null;
}

const UNKNOWN: Info = { exact: null, req: null };
const EMPTY: Info = { exact: [''], req: null };
// Beyond these sizes a set costs more to test than it saves.
const MAX_SET = 24;
const MIN_TRIGGER = 3;

function literal(ch: string): Info {
  // Only ASCII: without the `u` flag no non-ASCII character matches an ASCII one case-insensitively, and
  // lowercasing ASCII maps character to character, so the lowercased text keeps a matched literal intact.
  return ch.charCodeAt(0) < 0x80 ? { exact: [ch.toLowerCase()], req: null } : UNKNOWN;
}

/** The better condition: longer shortest string first, then fewer strings. Sets with "" are no condition. */
function better(a: string[] | null, b: string[] | null): string[] | null {
  const ok = (s: string[] | null) => s !== null && s.length > 0 && s.length <= MAX_SET && !s.includes('');
  if (!ok(a)) return ok(b) ? b : null;
  if (!ok(b)) return a;
  const minA = Math.min(...a!.map((s) => s.length));
  const minB = Math.min(...b!.map((s) => s.length));
  if (minA !== minB) return minA > minB ? a : b;
  return a!.length <= b!.length ? a : b;
}

function product(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > MAX_SET) return null;
  return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
}

function concat(parts: Info[]): Info {
  let run: string[] | null = [''];
  let exact: string[] | null = [''];
  let req: string[] | null = null;
  for (const part of parts) {
    req = better(req, part.req);
    const next: string[] | null = part.exact && run ? product(run, part.exact) : null;
    if (next) run = next;
    else {
      req = better(req, run);
      run = part.exact ?? [''];
    }
    exact = exact && part.exact ? product(exact, part.exact) : null;
  }
  req = better(req, run);
  return { exact, req: better(req, exact) };
}

function alternation(alts: Info[]): Info {
  if (alts.length === 1) return alts[0]!;
  const all = (key: 'exact' | 'req') =>
    alts.every((a) => a[key] !== null) ? [...new Set(alts.flatMap((a) => a[key]!))] : null;
  const exact = all('exact');
  return { exact: exact && exact.length <= MAX_SET ? exact : null, req: better(all('req'), exact) };
}

function quantified(info: Info, min: number, max: number): Info {
  if (min === 0)
    return { exact: max === 1 && info.exact ? [...new Set(['', ...info.exact])] : null, req: null };
  return { exact: min === 1 && max === 1 ? info.exact : null, req: better(info.req, info.exact) };
}

/** Parses JavaScript regular-expression source (without the `u` flag) far enough to find required literals. */
class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Info {
    const info = this.alternatives();
    if (this.i < this.src.length) throw new Error('unbalanced )');
    return info;
  }

  private alternatives(): Info {
    const alts = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return alternation(alts);
  }

  private sequence(): Info {
    const parts: Info[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      parts.push(this.quantifier(this.atom()));
    }
    return concat(parts);
  }

  private quantifier(info: Info): Info {
    const rest = this.src.slice(this.i);
    const m = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(rest);
    if (!m) return info;
    this.i += m[0].length;
    if (m[1]) return quantified(info, m[1] === '+' ? 1 : 0, m[1] === '?' ? 1 : Number.POSITIVE_INFINITY);
    const min = Number(m[2]);
    const max = m[3] ? (m[4] ? Number(m[4]) : Number.POSITIVE_INFINITY) : min;
    return quantified(info, min, max);
  }

  private atom(): Info {
    const ch = this.src[this.i++]!;
    if (ch === '\\') return this.escape();
    if (ch === '[') return this.charClass();
    if (ch === '(') return this.group();
    if (ch === '^' || ch === '$') return EMPTY;
    if (ch === '.' || ch === '*' || ch === '+' || ch === '?') return UNKNOWN;
    return literal(ch);
  }

  private escape(): Info {
    const ch = this.src[this.i++];
    if (ch === undefined) throw new Error('trailing backslash');
    if (ch === 'b' || ch === 'B') return EMPTY;
    const hex = ch === 'x' ? /^[0-9a-f]{2}/i : ch === 'u' ? /^[0-9a-f]{4}/i : null;
    if (hex) {
      const m = hex.exec(this.src.slice(this.i));
      if (!m) return UNKNOWN;
      this.i += m[0].length;
      return literal(String.fromCharCode(Number.parseInt(m[0], 16)));
    }
    // Controls (\cJ) and back-references or octal escapes (\12) take the characters after them along.
    const tail = ch === 'c' ? /^[A-Za-z]/ : /[0-9]/.test(ch) ? /^[0-9]*/ : null;
    if (tail) {
      this.i += tail.exec(this.src.slice(this.i))?.[0].length ?? 0;
      return UNKNOWN;
    }
    if (ch === 'k') {
      const m = /^<[^>]*>/.exec(this.src.slice(this.i));
      if (m) this.i += m[0].length;
      return UNKNOWN;
    }
    // Letters and digits are classes, controls or back-references; anything else stands for itself.
    return /[A-Za-z0-9]/.test(ch) ? UNKNOWN : literal(ch);
  }

  private charClass(): Info {
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      if (this.src[this.i] === '\\') this.i++;
      this.i++;
    }
    if (this.src[this.i++] !== ']') throw new Error('unterminated class');
    return UNKNOWN;
  }

  private group(): Info {
    const rest = this.src.slice(this.i);
    const look = /^\?<?[=!]/.exec(rest);
    const head = look ?? /^\?(?::|<[^>=!]*>)/.exec(rest);
    if (head) this.i += head[0].length;
    const inner = this.alternatives();
    if (this.src[this.i++] !== ')') throw new Error('unterminated group');
    // A lookaround consumes nothing: what it checks is not part of the match.
    return look ? EMPTY : inner;
  }
}

/**
 * Lowercase strings, one of which occurs in the lowercased text wherever `re` matches; null when no useful
 * condition is known (the expression must always run).
 */
export function triggerOf(re: RegExp): readonly string[] | null {
  // With `u` or `v`, case folding maps some non-ASCII letters to ASCII ones (ſ, K): no condition then.
  if (/[uv]/.test(re.flags)) return null;
  let req: string[] | null;
  try {
    req = new Parser(re.source).parse().req;
  } catch {
    return null;
  }
  if (!req || Math.min(...req.map((s) => s.length)) < MIN_TRIGGER) return null;
  // A string containing another trigger adds nothing: any text with it also has the shorter one.
  return req.filter((s) => !req.some((t) => t !== s && s.includes(t)));
}

/** Whether `lowered` (a text already lowercased) can hold a match of an expression with this trigger. */
export function mayMatch(trigger: readonly string[] | null, lowered: string): boolean {
  return trigger === null || trigger.some((t) => lowered.includes(t));
}
