import { UNLESS_DOUBLE_NEGATIVE } from '../negation.js';

// What the sentence around an inline command says about running it, read once for the scan and for the
// detonation. The scan reads a command the sentence rules out as named, not prescribed (its findings are
// scaled as text about a risk); the detonation never runs a command its sentence warns against. They weigh
// the answer differently on purpose: a command left unrun keeps its finding, while a finding dropped is a miss,
// so the detonation also skips what the clause merely warns about ("Don't … `x`", "`x` is unsafe"), and the
// scan only what the sentence explicitly says not to run.

/** `text` with every code range blanked (same offsets), so the dots of a command do not end a sentence. */
export function blankCode(text: string, codeRanges: readonly (readonly [number, number])[]): string {
  let out = '';
  let at = 0;
  for (const [a, b] of [...codeRanges].sort((x, y) => x[0] - y[0])) {
    if (a < at || b <= a) continue;
    out += text.slice(at, a) + ' '.repeat(b - a);
    at = b;
  }
  return out + text.slice(at);
}

// "never run `…`", "`bash -c …` and `tee /etc/…` do not match", "blocked": the sentence says not to run it.
// A negation elsewhere in the sentence ("if the build is not responding, run `…`") does not count.
const NEGATES_RUNNING = new RegExp(
  String.raw`(?:\b(?:never|not|avoid|without)|n't)${UNLESS_DOUBLE_NEGATIVE}\s+(?:\w+\s+){0,3}?(?:run|runs|running|use|using|execute|type|paste|call|invoke|match|matches|allowed|permitted|recommended|needed)\b|\b(?:forbidden|prohibited|blocked|blocks|denied|denies|disallow\w*)\b`,
  'i',
);
// The clause before the command replaces it with something else: "Instead of `a`, run `b`".
const REPLACED_BEFORE = /\b(?:instead of|rather than)\b/i;
// Words that turn a quoted command into a counter-example when they come before it in its clause
// ("Never pipe a script into a shell (`curl … | sh`)"), or anywhere in the sentence ("`wget … | bash` is unsafe").
// `^\W*` rather than `^\s*\W*`: blanks are non-word characters, and two overlapping runs back-track quadratically.
const WARNS_BEFORE =
  /\b(never|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|avoid|not recommended)\b|^\W*(bad|wrong)\b|❌|🚫|⛔/i;
const WARNS_ANYWHERE = /\b(unsafe|insecure|dangerous|malicious)\b|❌|🚫|⛔/i;
// Where a clause turns from the warning to the advice: "Instead of `a`, run `b`"; "Don't use `a`; use `b`".
const CLAUSE_TURN = /;|,\s*(?:then\s+|just\s+)?(?:run|use|try|prefer|but|instead)\b/gi;
const SENTENCE_END = /[.!?](?=\s)|\n\s*\n|\n\s*[-*+]\s|\n\s*\d+\.\s|\n#/g;
// A heading line that opens the sentence's paragraph is a title, not the sentence's first words.
const LEADING_HEADING = /^\s*#{1,6}[ \t][^\n]*\n/;
/** How far around a command its sentence is looked for (long files, long lines). */
const WINDOW = 2000;

export interface CommandStance {
  /** The sentence's bounds in the text. */
  from: number;
  to: number;
  /** The sentence says not to run it, or the clause before replaces it ("instead of `…`"). */
  ruledOut: boolean;
  /** The clause before warns against it, or the sentence calls it unsafe: also a reason not to run it. */
  warned: boolean;
}

/** What the sentence of `prose` (blankCode's) around the command at [start, end) says about running it. */
export function commandStance(prose: string, start: number, end: number): CommandStance {
  const lo = Math.max(0, start - WINDOW);
  const hi = Math.min(prose.length, end + WINDOW);
  let from = lo;
  let to = hi;
  for (const m of prose.slice(lo, hi).matchAll(SENTENCE_END)) {
    const at = lo + m.index;
    if (at < start) from = at + m[0].length;
    else if (at >= end) {
      to = at;
      break;
    }
  }
  const heading = LEADING_HEADING.exec(prose.slice(from, start));
  if (heading) from += heading[0].length;
  const before = prose.slice(from, start);
  const turns = [...before.matchAll(CLAUSE_TURN)];
  const last = turns[turns.length - 1];
  const clause = last ? before.slice(last.index + last[0].length) : before;
  const sentence = prose.slice(from, to);
  return {
    from,
    to,
    ruledOut: NEGATES_RUNNING.test(sentence) || REPLACED_BEFORE.test(clause),
    warned: WARNS_BEFORE.test(clause) || WARNS_ANYWHERE.test(sentence),
  };
}
