// A unified line diff (the `diff -u` format git and patch read), pure and bounded. Lines are matched with
// Myers' O(ND) algorithm after trimming the common head and tail; when the texts differ in more than
// MAX_EDITS lines the middle is reported as one replacement, so a hostile pair of huge texts costs linear time
// and memory instead of quadratic.

const MAX_EDITS = 1_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

// A last line without a newline keeps a trailing '\n' as its mark: no split line can hold one, so it never
// equals the same text with a newline, and it prints with diff's "\ No newline at end of file".
const NO_EOL = '\n';

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

function printLine(op: Op): string {
  return op.line.endsWith(NO_EOL)
    ? `${op.kind}${op.line.slice(0, -1)}\n\\ No newline at end of file`
    : `${op.kind}${op.line}`;
}

/** Myers' shortest edit script over a and b, or null when it needs more than `maxEdits` edits. */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] keeps the slice v[-d..d] as it was before step d, enough to walk the path back.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d);
    }
  }
  return null;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], last: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      y--;
      ops.push({ kind: ' ', line: a[--x]! });
    }
    if (down) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    y--;
    ops.push({ kind: ' ', line: a[--x]! });
  }
  return ops.reverse();
}

function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle = myers(midA, midB, MAX_EDITS) ?? [
    ...midA.map((line): Op => ({ kind: '-', line })),
    ...midB.map((line): Op => ({ kind: '+', line })),
  ];
  const same = (line: string): Op => ({ kind: ' ', line });
  return [...a.slice(0, head).map(same), ...middle, ...b.slice(b.length - tail).map(same)];
}

/**
 * The unified diff of two texts with `context` lines around each change, headed `--- fromName` /
 * `+++ toName`; an empty string when the texts have the same lines.
 */
export function unifiedDiff(from: string, to: string, fromName: string, toName: string, context = 3): string {
  const a = splitLines(from);
  const b = splitLines(to);
  const ops = editScript(a, b);
  const changed = ops.map((op, i) => (op.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';

  // Group changes whose context windows touch into hunks.
  const hunks: { start: number; end: number }[] = [];
  for (const i of changed) {
    const start = Math.max(0, i - context);
    const end = Math.min(ops.length, i + context + 1);
    const last = hunks[hunks.length - 1];
    if (last && start <= last.end) last.end = end;
    else hunks.push({ start, end });
  }

  const out = [`--- ${fromName}`, `+++ ${toName}`];
  // Line numbers in a and b at each op index.
  const lineA: number[] = [];
  const lineB: number[] = [];
  let la = 0;
  let lb = 0;
  for (const op of ops) {
    lineA.push(la);
    lineB.push(lb);
    if (op.kind !== '+') la++;
    if (op.kind !== '-') lb++;
  }
  for (const { start, end } of hunks) {
    const slice = ops.slice(start, end);
    const countA = slice.filter((op) => op.kind !== '+').length;
    const countB = slice.filter((op) => op.kind !== '-').length;
    // diff -u numbers an empty side by the line before it.
    const startA = countA === 0 ? lineA[start]! : lineA[start]! + 1;
    const startB = countB === 0 ? lineB[start]! : lineB[start]! + 1;
    out.push(`@@ -${startA},${countA} +${startB},${countB} @@`);
    for (const op of slice) out.push(printLine(op));
  }
  return `${out.join('\n')}\n`;
}
