// The one vocabulary of the verdict (docs/verdicts.md): a status (pass, caution, risky) and the advice that
// goes with it. Every place a person reads a verdict (scan and audit text, Markdown, HTML, the service pages,
// the browser extension's badge) takes its words from here, so no output can speak a second vocabulary.
// No imports: this module runs in Node, in the bundled HTML report and in the extension.

export const VERDICT_STATUSES = ['pass', 'caution', 'risky'] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];

/** The status as a word in a sentence or a badge. */
export const STATUS_LABEL: Record<VerdictStatus, string> = {
  pass: 'Pass',
  caution: 'Caution',
  risky: 'Risky',
};

/** What the reader should do, one sentence per status (the "what to do" column of docs/verdicts.md). */
export const STATUS_ADVICE: Record<VerdictStatus, string> = {
  pass: 'Nothing found makes installing it dangerous; the findings listed, if any, are worth fixing, not fearing.',
  caution:
    'Something here deserves a look: read the findings listed and try it in a sandbox before relying on it.',
  risky:
    'There is evidence that installing it is dangerous: keep it off your machine unless you have reviewed every finding.',
};

/** Colour family of a status for every renderer: good (green), warn (amber), bad (red). */
export const STATUS_TONE: Record<VerdictStatus, 'good' | 'warn' | 'bad'> = {
  pass: 'good',
  caution: 'warn',
  risky: 'bad',
};

export const STATUS_ICON: Record<VerdictStatus, string> = { pass: '🟢', caution: '🟡', risky: '🔴' };

export function isVerdictStatus(value: unknown): value is VerdictStatus {
  return typeof value === 'string' && (VERDICT_STATUSES as readonly string[]).includes(value);
}
