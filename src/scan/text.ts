// Small text helpers every detector uses: offsets to lines, and quoting evidence.

export { withoutEmptyQuotes } from '../util/empty-quotes.js';
export { lineAt, lineStarts } from '../util/lines.js';

const MAX_EVIDENCE = 400;

/** How much of its end a long quote keeps: where a packed line says what it does (`… | base64 -d | bash`). */
const TAIL = 100;

/**
 * Evidence as users read it: trimmed, whitespace runs kept, long text cut in its middle with an ellipsis, so
 * both how it starts and how it ends are shown.
 */
export function quote(text: string, max = MAX_EVIDENCE): string {
  const t = text.replace(/\r/g, '').trim();
  if (t.length <= max) return t;
  const tail = max >= 3 * TAIL ? TAIL : 0;
  return `${t.slice(0, max - 1 - tail)}…${tail ? t.slice(-tail) : ''}`;
}

/** The text of lines [line, endLine] (1-based, inclusive). */
export function linesOf(text: string, line: number, endLine = line): string {
  return text
    .split('\n')
    .slice(line - 1, endLine)
    .join('\n');
}

/** Restates every "line N" of a reason with `restate(N)` (lines of an embedded or joined text in their file). */
export function restateLines(text: string, restate: (line: number) => string | null): string {
  return text.replace(/\bline (\d+)/g, (m, n: string) => restate(Number(n)) ?? m);
}

/**
 * Where the run of characters matching `char` (a one-character test) that ends `text` starts; `text.length` when
 * the last character does not match. Read back from the end, so linear where `/[…]+$/` back-tracks quadratically
 * on a long line.
 */
export function trailingRunStart(text: string, char: RegExp): number {
  let i = text.length;
  while (i > 0 && char.test(text[i - 1]!)) i--;
  return i;
}
