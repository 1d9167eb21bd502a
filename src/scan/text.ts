// Small text helpers every detector uses: offsets to lines, and quoting evidence.

/** Offsets where each line starts; index i holds the offset of line i+1. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line number of a character offset, by binary search over `lineStarts`. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const MAX_EVIDENCE = 400;

/** Evidence as users read it: trimmed, whitespace runs kept, long text cut with an ellipsis. */
export function quote(text: string, max = MAX_EVIDENCE): string {
  const t = text.replace(/\r/g, '').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The text of lines [line, endLine] (1-based, inclusive). */
export function linesOf(text: string, line: number, endLine = line): string {
  return text
    .split('\n')
    .slice(line - 1, endLine)
    .join('\n');
}
