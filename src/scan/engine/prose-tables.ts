// Tables as a reader takes them. A markdown table usually quotes material (a command and what it does, a
// setting and its default), one sentence per row. But a table whose cells only number its rows
// (`| 1 | Send … |`) is a list of steps written in cells, and a step's sentence may wrap over several rows. Both
// readings are made here by blanking characters to spaces, so every offset still points into the file.

const ROW = /^\s*(?:>\s*)*\|/;
const SEPARATOR = /^\s*(?:>\s*)*(?:\|\s*)?:?-{2,}/;
const SENTENCE_END = /[.!?:;。！？]["'”’)\]*]*$/;
// A row that stops on a word no sentence ends on: a comma, an article, a preposition, a possessive.
const RUNS_ON =
  /(?:[,–—-]|\b(?:the|a|an|to|and|or|of|for|with|that|your|their|its|our|my|in|on|at|by|from|as|is|are|be|you|them|this|these|all|any|every|each|into|onto|via)|['’]s|s['’])$/i;
// A cell that only numbers or marks a row: `1`, `2.`, `#`, `Step 3`, `-`, or nothing.
const MARKER_CELL = /^(?:(?:step\s*)?\d{1,3}[.)]?|#|[-*•–—]|)$/i;

interface Row {
  /** Offset of the line in the table. */
  at: number;
  line: string;
  /** Offset in the line where the last cell's text starts, and that text. */
  textAt: number;
  text: string;
  /** Every cell but the last only numbers the row. */
  numbered: boolean;
}

function rowOf(line: string, at: number): Row {
  const open = line.indexOf('|');
  const close = line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : line.length;
  const inner = line.slice(open + 1, close);
  const cells = inner.split(/(?<!\\)\|/);
  const last = cells[cells.length - 1]!;
  const lead = inner.length - last.length;
  const text = last.trim();
  const textAt = open + 1 + lead + (last.length - last.trimStart().length);
  return { at, line, textAt, text, numbered: cells.slice(0, -1).every((c) => MARKER_CELL.test(c.trim())) };
}

/** The table's body rows (after the separator), with their offsets. */
function bodyRows(table: string): Row[] {
  const rows: Row[] = [];
  let at = 0;
  let body = false;
  for (const line of table.split('\n')) {
    if (body && ROW.test(line)) rows.push(rowOf(line, at));
    else if (SEPARATOR.test(line)) body = true;
    at += line.length + 1;
  }
  return rows;
}

function numbersSteps(rows: readonly Row[]): boolean {
  return rows.length > 0 && rows.every((r) => r.numbered);
}

/** A table of steps: every body row's cells but the last only number it. */
export function isStepTable(table: string): boolean {
  return numbersSteps(bodyRows(table));
}

/**
 * Whether the sentence of the row before rows[i] runs on into rows[i]: the two are adjacent lines, the first
 * does not end a sentence, the second only numbers itself and continues the words.
 */
function runsOn(rows: readonly Row[], i: number): boolean {
  const [row, next] = [rows[i - 1], rows[i]!];
  if (!row || row.at + row.line.length + 1 !== next.at) return false;
  if (!row.text || !next.text || !next.numbered || SENTENCE_END.test(row.text)) return false;
  return /^\p{Ll}/u.test(next.text) || RUNS_ON.test(row.text);
}

/**
 * The table as a reader takes it, lengths kept: in a step table each row's numbering cells are blanked (the row
 * reads `| Send … |`, an order like a list item), and where a row's sentence runs on into the next row (it does
 * not end a sentence, and the next row starts in lower case or this one stops on a word no sentence ends on),
 * the joint between them is blanked so the two read as one sentence. Other rows stay one sentence each.
 */
export function tableAsRead(table: string): string {
  return readRows(table, bodyRows(table));
}

function readRows(table: string, rows: readonly Row[]): string {
  // By UTF-16 code unit, as offsets count.
  const out = table.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  // A cell writes a pipe as `\|` (`curl … \| bash`); the reader sees the pipe.
  for (let i = table.indexOf('\\|'); i >= 0; i = table.indexOf('\\|', i + 2)) out[i] = ' ';
  const steps = numbersSteps(rows);
  for (const [i, row] of rows.entries()) {
    const open = row.at + row.line.indexOf('|');
    const prev = rows[i - 1];
    if (prev && runsOn(rows, i)) {
      // The previous row's closing pipe and this row's cells up to its text.
      const close = prev.at + prev.line.trimEnd().length - 1;
      if (out[close] === '|') out[close] = ' ';
      blank(open, row.at + row.textAt);
    } else if (steps) blank(open + 1, row.at + row.textAt);
  }
  return out.join('');
}

/**
 * A step table's steps: the table as read (tableAsRead) and its body rows as [start, end) offsets into `table`, a
 * row group whose sentence runs on as one step; null when the table does not number steps. One parse of the rows.
 */
export function stepRows(table: string): { read: string; rows: [number, number][] } | null {
  const rows = bodyRows(table);
  if (!numbersSteps(rows)) return null;
  const ranges: [number, number][] = [];
  for (const [i, row] of rows.entries()) {
    const end = row.at + row.line.length;
    if (ranges.length > 0 && runsOn(rows, i)) ranges[ranges.length - 1]![1] = end;
    else ranges.push([row.at, end]);
  }
  return { read: readRows(table, rows), rows: ranges };
}
