// Evidence rules for every judge answer: a quote counts only if it exists verbatim in the material the judge
// was shown, and a quote that talks to the evaluator is never evidence of task success.

/** Text in a quote that addresses the evaluator rather than the user's task (rules as data). */
export const ADDRESSES_EVALUATOR: readonly { id: string; pattern: RegExp }[] = [
  {
    id: 'evaluator-directive',
    pattern:
      /\b(judges?|graders?|evaluators?|assessors?|reviewers?|checker)\b[^.\n]{0,60}\b(mark|pass|score|grade|approve|accept)\w*\b/iu,
  },
  {
    id: 'override-phrase',
    pattern:
      /\b(ignore|disregard|forget|override)\b[^.\n]{0,30}\b(previous|prior|above|earlier|all|system|instructions?|rules?)\b/iu,
  },
  {
    id: 'checklist-claim',
    pattern:
      /\b(all|every)\s+(checklist\s+)?(items?|criteria|checks)\s+(are\s+|were\s+)?(passed|met|satisfied|complete)/iu,
  },
];

export const MIN_QUOTE_CHARS = 3;
/** Shorter fragments (a column name, a number) may legitimately appear in the skill and in a result. */
export const MIN_BORROWED_CHARS = 24;

const squash = (s: string) => s.replace(/\s+/gu, ' ').trim();

function stripQuotes(s: string): string {
  const t = s.trim();
  const pairs: [string, string][] = [
    ['"', '"'],
    ["'", "'"],
    ['“', '”'],
    ['`', '`'],
  ];
  for (const [open, close] of pairs) {
    if (t.length >= 2 && t.startsWith(open) && t.endsWith(close)) return t.slice(1, -1);
  }
  return t;
}

export type QuoteCheck = { ok: true; source: string } | { ok: false; reason: string };

/**
 * Verifies a quote against the shown material (whitespace-insensitive). An elided quote ("a … b") is accepted
 * when every fragment appears, in order, in one source.
 */
export function verifyQuote(
  quote: string,
  shown: ReadonlyMap<string, string>,
  notEvidence: readonly string[] = [],
): QuoteCheck {
  const q = squash(stripQuotes(quote));
  if (q.length < MIN_QUOTE_CHARS) return { ok: false, reason: 'no evidence quoted' };
  for (const rule of ADDRESSES_EVALUATOR) {
    if (rule.pattern.test(q)) return { ok: false, reason: `the quote addresses the evaluator (${rule.id})` };
  }
  const fragments = q
    .split(/\s*(?:\.\.\.|…|\[\.\.\.\])\s*/u)
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (fragments.length === 0 || fragments.some((f) => f.length < MIN_QUOTE_CHARS))
    return { ok: false, reason: 'the quote is too short to verify' };
  // An agent that read the skill has its text in the trajectory; quoting it shows reading, not a result.
  const copied = fragments.find(
    (f) => f.length >= MIN_BORROWED_CHARS && notEvidence.some((text) => squash(text).includes(f)),
  );
  if (copied) return { ok: false, reason: 'the quote is text from the skill itself, not the agent’s work' };
  for (const [source, text] of shown) {
    const hay = squash(text);
    let from = 0;
    let found = true;
    for (const f of fragments) {
      const at = hay.indexOf(f, from);
      if (at < 0) {
        found = false;
        break;
      }
      from = at + f.length;
    }
    if (found) return { ok: true, source };
  }
  return { ok: false, reason: 'the quote does not appear in the trial material' };
}
