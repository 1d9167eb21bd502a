// A line scanner for the parts of a SKILL.md body the quality dimensions read: headings, list items, fenced
// code, tables and link targets. It follows CommonMark where it matters here (fences up to three spaces
// indented and closed by a fence of the same character at least as long, ATX and setext headings, unclosed
// fences running to the end) and runs in linear time, so a hostile multi-megabyte body costs milliseconds;
// a full markdown parser took seconds on 2 MB.

export interface Heading {
  depth: number;
  text: string;
  line: number;
}

export interface OutlineItem {
  text: string;
  line: number;
}

export interface CodeBlock {
  lang: string;
  text: string;
  line: number;
}

export interface Outline {
  /** The markdown that was outlined. */
  text: string;
  headings: Heading[];
  /** Bullet and numbered list items outside code: the body's steps. */
  listItems: OutlineItem[];
  /** Table rows outside code (header and body rows; delimiter rows left out). */
  tableRows: OutlineItem[];
  codeBlocks: CodeBlock[];
  /** The body with fenced code blanked out (lines kept, so line numbers still match the body). */
  prose: string;
  /** Link and image targets, and reference definitions, in order. */
  links: string[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
// Every pattern below is anchored or bounded so that a hostile line cannot make it backtrack quadratically.
const ATX_OPEN = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TASK_BOX = /^\[[ xX]\][ \t]+/;
const TABLE_ROW = /^\s*\|/;
const TABLE_DELIMITER = /^[\s:|-]+$/;
const BLOCKQUOTE = /^ {0,3}>/;
const INLINE_LINK = /!?\[[^\][\n]*\]\(\s*(?:<([^>\n]*)>|([^)\s]+))/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;

export function outlineMarkdown(body: string): Outline {
  const lines = body.split(/\r?\n/);
  const headings: Heading[] = [];
  const listItems: OutlineItem[] = [];
  const tableRows: OutlineItem[] = [];
  const codeBlocks: CodeBlock[] = [];
  const links: string[] = [];
  const proseLines: string[] = [];
  let fence: { marker: string; lang: string; line: number; lines: string[] } | null = null;
  // Whether the previous line can be the text of a setext heading (a plain paragraph line).
  let paragraphLine: string | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (fence) {
      if (closesFence(line, fence.marker)) {
        codeBlocks.push({ lang: fence.lang, text: fence.lines.join('\n'), line: fence.line });
        fence = null;
      } else fence.lines.push(line);
      proseLines.push('');
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { marker: open[1]!, lang: open[2] ?? '', line: lineNo, lines: [] };
      paragraphLine = null;
      proseLines.push('');
      continue;
    }
    proseLines.push(line);
    for (const m of line.matchAll(INLINE_LINK)) links.push(m[1] ?? m[2]!);
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition) links.push(definition[1]!);

    const atx = ATX_OPEN.exec(line);
    const setext = SETEXT.exec(line);
    if (atx) {
      headings.push({ depth: atx[1]!.length, text: atxText(line.slice(atx[0].length)), line: lineNo });
      paragraphLine = null;
    } else if (setext && paragraphLine !== null) {
      headings.push({
        depth: setext[1]!.startsWith('=') ? 1 : 2,
        text: paragraphLine.trim(),
        line: lineNo - 1,
      });
      paragraphLine = null;
    } else if (line.trim() === '') {
      paragraphLine = null;
    } else {
      const item = LIST_ITEM.exec(line);
      const itemText = item ? item[1]!.replace(TASK_BOX, '').trim() : '';
      if (itemText) listItems.push({ text: itemText, line: lineNo });
      else if (TABLE_ROW.test(line) && !TABLE_DELIMITER.test(line))
        tableRows.push({ text: line.trim(), line: lineNo });
      // A list item, table row or quote cannot be underlined into a heading; a paragraph continuation can.
      paragraphLine = item || TABLE_ROW.test(line) || BLOCKQUOTE.test(line) ? null : line;
    }
  }
  // CommonMark: an unclosed fence runs to the end of the document.
  if (fence) codeBlocks.push({ lang: fence.lang, text: fence.lines.join('\n'), line: fence.line });

  return { text: body, headings, listItems, tableRows, codeBlocks, prose: proseLines.join('\n'), links };
}

/** Heading text without its optional closing run of `#` (which must follow a space, or be all there is). */
function atxText(rest: string): string {
  const text = rest.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t'))
    return text.slice(0, end).trim();
  return text;
}

function closesFence(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1]![0] === marker[0] && m[1]!.length >= marker.length;
}
