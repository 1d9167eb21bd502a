import markdownIt, { type MarkdownIt, type StateBlock, type StateInline, type Token } from 'markdown-it';
import { MdNode, Unsupported } from './tree.js';

// The walker's tree built from markdown-it's tokens: the same nodes, values and offsets the micromark builder
// (tree.ts) gives, parse and walk together about six times faster (micromark was a third of a scan's CPU).
// markdown-it gives line ranges, not offsets, so every block and inline rule that makes a node the walker
// places is wrapped to note, while the parser's state is at hand, where in the file its token starts and
// ends. What this builder is not sure to read as micromark does (carriage returns, tabs in indentation, a
// fence left open in a container, frontmatter that never closes, an entity or escape in a fence's info
// string, the sequences `disagrees` lists) raises `Unsupported`, and the caller builds the tree the
// micromark way. bench/markdown-parsers.ts compares the two on a corpus.

/** File offsets [start, end) of a token, noted while its rule ran. */
const placed = new WeakMap<Token, [number, number]>();

/** How an inline token's content maps back to the file: content index → file offset. */
interface ContentMap {
  /** Index in the content where each source line's text starts (ascending). */
  at: number[];
  /** File offset of that text. */
  offset: number[];
}
const contentMaps = new WeakMap<Token, ContentMap>();

/** The content map of the inline token being parsed (its rules see only the content string). */
let current: { src: string; map: ContentMap } | null = null;

function fileOffset(map: ContentMap, index: number): number {
  let lo = 0;
  let hi = map.at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (map.at[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return map.offset[lo]! + (index - map.at[lo]!);
}

function isTrimmable(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * The lines [begin, end) as StateBlock.getLines joins them with `indent` columns stripped, with where each
 * line's text starts in the file; Unsupported where a tab had to be split into spaces (text not in the file).
 */
function linesOf(
  state: StateBlock,
  begin: number,
  end: number,
  indent: number,
): { text: string; map: ContentMap } {
  const at: number[] = [];
  const offset: number[] = [];
  let text = '';
  const src = state.src;
  for (let line = begin; line < end; line++) {
    let lineIndent = 0;
    const lineStart = state.bMarks[line]!;
    let first = lineStart;
    const last = line + 1 < end ? state.eMarks[line]! + 1 : state.eMarks[line]!;
    while (first < last && lineIndent < indent) {
      const ch = src.charCodeAt(first);
      if (ch === 32 || ch === 9) {
        if (ch === 9) lineIndent += 4 - ((lineIndent + state.bsCount[line]!) % 4);
        else lineIndent++;
      } else if (first - lineStart < state.tShift[line]!) lineIndent++;
      else break;
      first++;
    }
    if (lineIndent > indent) throw new Unsupported('a tab split into spaces');
    at.push(text.length);
    offset.push(first);
    text += src.slice(first, last);
  }
  return { text, map: { at, offset } };
}

/** Trims like markdown-it's asciiTrim and shifts the map to the trimmed text. */
function trimmed(text: string, map: ContentMap): { content: string; map: ContentMap; lead: number } {
  let start = 0;
  while (start < text.length && isTrimmable(text.charCodeAt(start))) start++;
  let end = text.length;
  while (end > start && isTrimmable(text.charCodeAt(end - 1))) end--;
  return {
    content: text.slice(start, end),
    map: { at: map.at.map((a) => a - start), offset: map.offset },
    lead: start,
  };
}

/** Notes an inline token's content map (checked against the content markdown-it made) and its node's span. */
function placeInline(tokens: Token[], from: number, text: string, map: ContentMap, nodeEnd: number): void {
  const open = tokens[from];
  const inline = tokens[from + 1];
  if (open === undefined || inline?.type !== 'inline') throw new Unsupported('block without inline content');
  const t = trimmed(text, map);
  if (t.content !== inline.content) throw new Unsupported('inline content not where expected');
  contentMaps.set(inline, t.map);
  placed.set(open, [fileOffset(t.map, 0), nodeEnd]);
}

/** Offset of the first non-space character of a line and of the end of its last non-space one. */
function lineSpan(state: StateBlock, line: number): [number, number] {
  const start = state.bMarks[line]! + state.tShift[line]!;
  let end = state.eMarks[line]!;
  while (end > start && isTrimmable(state.src.charCodeAt(end - 1))) end--;
  return [start, end];
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;

/** Places what a block rule made, from the state as it was when the rule made it. */
const BLOCK_PLACERS: Record<string, (state: StateBlock, from: number, startLine: number) => void> = {
  paragraph(state, from, startLine) {
    const { text, map } = linesOf(state, startLine, state.line, state.blkIndent);
    placeInline(state.tokens, from, text, map, state.eMarks[state.line - 1]!);
  },
  heading(state, from, startLine) {
    const start = lineSpan(state, startLine)[0];
    let pos = start;
    while (state.src.charCodeAt(pos) === 35) pos++;
    const end = state.eMarks[startLine]!;
    placeInline(state.tokens, from, state.src.slice(pos, end), { at: [0], offset: [pos] }, end);
    placed.set(state.tokens[from]!, [start, end]);
  },
  lheading(state, from, startLine) {
    const underline = state.line - 1;
    const { text, map } = linesOf(state, startLine, underline, state.blkIndent);
    placeInline(state.tokens, from, text, map, state.eMarks[underline]!);
  },
  fence(state, from, startLine) {
    placeLines(state, from, startLine);
    const token = state.tokens[from];
    const last = state.line - 1;
    if (token === undefined || (last > startLine && closesFence(state, last, token.markup))) return;
    // Where a fence left open in a container ends depends on the container, in ways not modelled here (the
    // state's lineMax is the container's last line; bMarks holds one entry past the document's last line).
    if (state.line < state.bMarks.length - 1) throw new Unsupported('a fence left open in a container');
    // One left open at the top level runs to the end of the document, its last line ending included.
    placed.set(token, [placed.get(token)![0], state.src.length]);
  },
  code: placeIndented,
  html_block: placeIndented,
  hr: placeLines,
  reference: placeLines,
  blockquote: placeFirst,
  list(state, from) {
    for (let i = from; i < state.tokens.length; i++) {
      const token = state.tokens[i]!;
      if (placed.has(token)) continue;
      if (token.type === 'list_item_open' || token.type.endsWith('_list_open')) {
        const line = token.map![0];
        placed.set(token, [state.bMarks[line]! + state.tShift[line]!, state.eMarks[token.map![1] - 1]!]);
      }
    }
  },
};

/** Whether `line` is a closing fence for `markup`: as many of its characters or more, and nothing else. */
function closesFence(state: StateBlock, line: number, markup: string): boolean {
  const [start, end] = lineSpan(state, line);
  if (end - start < markup.length) return false;
  for (let i = start; i < end; i++) if (state.src[i] !== markup[0]) return false;
  return true;
}

/** A leaf block: from its first line's first character to the end of its last line's text. */
function placeLines(state: StateBlock, from: number, startLine: number): void {
  const token = state.tokens[from];
  if (token === undefined) return;
  placed.set(token, [lineSpan(state, startLine)[0], lineSpan(state, state.line - 1)[1]]);
}

/** Indented code and HTML start where the container's indentation ends: their own indentation is in them. */
function placeIndented(state: StateBlock, from: number, startLine: number): void {
  const token = state.tokens[from];
  if (token === undefined) return;
  const start = linesOf(state, startLine, startLine + 1, state.blkIndent).map.offset[0]!;
  placed.set(token, [start, state.eMarks[state.line - 1]!]);
}

/** A container: where its first line starts (the walker needs only that it has a place). */
function placeFirst(state: StateBlock, from: number, startLine: number): void {
  const token = state.tokens[from];
  if (token === undefined) return;
  const [start] = lineSpan(state, startLine);
  placed.set(token, [start, state.eMarks[state.line - 1] ?? start]);
}

/** Inline rules whose token becomes a node the walker places, and that token's type. */
const INLINE_PLACED: Record<string, string> = {
  autolink: 'link_open',
  backticks: 'code_inline',
  html_inline: 'html_inline',
  image: 'image',
  link: 'link_open',
};

interface RuleList<T> {
  __rules__: { name: string; enabled: boolean; fn: T; alt: string[] }[];
  /** Replaces a rule's function; its alt (the chains it terminates) must be given again. */
  at(name: string, fn: T, options: { alt: string[] }): void;
}

function wrapBlockRules(md: MarkdownIt): void {
  const ruler = md.block.ruler as unknown as RuleList<BlockRule>;
  for (const { name, enabled, fn, alt } of [...ruler.__rules__]) {
    if (!enabled) continue;
    const place = BLOCK_PLACERS[name];
    if (!place) throw new Unsupported(`block rule ${name} not placed`);
    ruler.at(
      name,
      (state, startLine, endLine, silent) => {
        const from = state.tokens.length;
        const ok = fn(state, startLine, endLine, silent);
        if (ok && !silent) place(state, from, startLine);
        return ok;
      },
      { alt },
    );
  }
}

function wrapInlineRules(md: MarkdownIt): void {
  const ruler = md.inline.ruler as unknown as RuleList<InlineRule>;
  for (const { name, fn, alt } of [...ruler.__rules__]) {
    const type = INLINE_PLACED[name];
    if (!type) continue;
    ruler.at(
      name,
      (state, silent) => {
        const from = state.tokens.length;
        const start = state.pos;
        const ok = fn(state, silent);
        if (!ok || silent || current === null || state.src !== current.src) return ok;
        for (let i = from; i < state.tokens.length; i++) {
          const token = state.tokens[i]!;
          if (token.type !== type || placed.has(token)) continue;
          placed.set(token, [fileOffset(current.map, start), fileOffset(current.map, state.pos - 1) + 1]);
          if (type === 'code_inline') {
            const fence = token.markup.length;
            token.content = codeSpanValue(state.src.slice(start + fence, state.pos - fence));
          }
          break;
        }
        return ok;
      },
      { alt },
    );
  }
}

/**
 * A code span's value as micromark gives it: line endings kept (markdown-it turns them into spaces), one
 * space or line ending of padding taken from each side when both sides have one and something else is between.
 */
function codeSpanValue(value: string): string {
  const pad = (code: number) => code === 32 || code === 10;
  if (
    value.length > 2 &&
    pad(value.charCodeAt(0)) &&
    pad(value.charCodeAt(value.length - 1)) &&
    /[^ \n]/.test(value)
  ) {
    return value.slice(1, -1);
  }
  return value;
}

function makeParser(): MarkdownIt {
  // No nesting cap: micromark has none, and parse() refuses pathological nesting before either runs.
  const md = markdownIt('commonmark', { maxNesting: 1000 });
  // micromark keeps every link and autolink as written: no scheme is refused, no URL re-encoded.
  md.validateLink = () => true;
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (url) => url;
  md.core.ruler.disable('strip_references');
  wrapBlockRules(md);
  wrapInlineRules(md);
  md.core.ruler.at('inline', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'inline') continue;
      const map = contentMaps.get(token);
      if (!map) throw new Unsupported('inline content without a place');
      current = { src: token.content, map };
      try {
        state.md.inline.parse(token.content, state.md, state.env, token.children!);
      } finally {
        current = null;
      }
    }
  });
  return md;
}

const md = makeParser();

// micromark-extension-frontmatter: `---` alone on the first line, up to the next line that is `---` alone.
const FRONTMATTER_OPEN = /^---[ \t]*\n/;
const FRONTMATTER_CLOSE = /^---[ \t]*$/m;

/** Parses markdown into the walker's tree. Throws `Unsupported` when the micromark builder must decide. */
export function buildFastTree(text: string): MdNode {
  if (text.includes('\r')) throw new Unsupported('carriage returns');
  const root = new MdNode('root', [], null);
  let body = text;
  if (FRONTMATTER_OPEN.test(text)) {
    const open = text.indexOf('\n') + 1;
    const close = FRONTMATTER_CLOSE.exec(text.slice(open));
    // micromark reads the rest of a document whose frontmatter never closes in its own way.
    if (!close) throw new Unsupported('frontmatter that does not close');
    {
      const closeAt = open + close.index;
      const end = closeAt + close[0].length;
      const yaml = new MdNode('yaml', null, text.slice(open, Math.max(open, closeAt - 1)));
      yaml.end = end;
      root.children!.push(yaml);
      // Blank out the frontmatter (same length, so offsets stay the file's): markdown-it sees empty lines.
      body = text.slice(0, end).replace(/[^\n]/g, ' ') + text.slice(end);
    }
  }
  const tokens = md.parse(body, {});
  if (TAB_INDENT.test(body)) checkTabs(body, tokens);
  return new TokenTree(root, text).build(tokens);
}

const TAB_INDENT = /^ *\t/m;

/**
 * A tab in a line's indentation counts as up to four columns, which the two parsers place differently in
 * lists and lazy lines. Inside a fence a tab is only code; anywhere else, micromark decides.
 */
function checkTabs(body: string, tokens: readonly Token[]): void {
  const inFence: [number, number][] = [];
  for (const token of tokens)
    if (token.type === 'fence' && token.map) inFence.push([token.map[0] + 1, token.map[1]]);
  let line = 0;
  let at = 0;
  for (const m of body.matchAll(/^ *\t/gm)) {
    for (; at < m.index; at++) if (body.charCodeAt(at) === 10) line++;
    if (!inFence.some(([from, to]) => line >= from && line < to))
      throw new Unsupported('a tab in indentation');
  }
}

function span(token: Token): [number, number] {
  const at = placed.get(token);
  if (!at) throw new Unsupported(`${token.type} without a place`);
  return at;
}

function node(type: string, token: Token, children: MdNode[] | null, value: string | null): MdNode {
  const out = new MdNode(type, children, value);
  [out.start, out.end] = span(token);
  return out;
}

const CONTAINERS: Record<string, string> = {
  blockquote_open: 'blockquote',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  list_item_open: 'listItem',
  paragraph_open: 'paragraph',
  heading_open: 'heading',
};

/** The text of an image's label as mdast-util-to-string reads it: alt text. */
function altText(tokens: readonly Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'softbreak') out += '\n';
    else if (t.type === 'image') out += altText(t.children ?? []);
    else if (t.type !== 'hardbreak' && t.nesting === 0) out += t.content;
  }
  return out;
}

/** Drops the line ending micromark does not count as a fence's or block's content. */
function withoutLastEol(value: string): string {
  return value.endsWith('\n') ? value.slice(0, -1) : value;
}

/**
 * Sequences the two parsers read differently (found by bench/markdown-parsers.ts and the generated-document
 * test): an ordered list not at 1 opening a list item or after indented code (micromark: text), and an
 * indented line after a definition (micromark: the paragraph the definition came from goes on).
 */
function disagrees(previous: Token | undefined, token: Token): boolean {
  if (previous === undefined) return false;
  if (token.type === 'ordered_list_open') {
    const start = Number(token.attrGet('start') ?? 1);
    return start !== 1 && (previous.type === 'list_item_open' || previous.type === 'code_block');
  }
  return (
    token.type === 'code_block' &&
    previous.type === 'reference_definition' &&
    token.map?.[0] === previous.map?.[1]
  );
}

class TokenTree {
  private readonly stack: MdNode[];

  constructor(
    root: MdNode,
    private readonly text: string,
  ) {
    this.stack = [root];
  }

  private top(): MdNode {
    return this.stack[this.stack.length - 1]!;
  }

  private add(child: MdNode): void {
    this.top().children!.push(child);
  }

  build(tokens: readonly Token[]): MdNode {
    let previous: Token | undefined;
    for (const token of tokens) {
      if (disagrees(previous, token)) throw new Unsupported(`${token.type} after ${previous!.type}`);
      previous = token;
      const container = CONTAINERS[token.type];
      if (container !== undefined) {
        const opened = node(container, token, [], null);
        if (container === 'heading') opened.depth = Number(token.tag.slice(1));
        this.add(opened);
        this.stack.push(opened);
        continue;
      }
      if (token.nesting === -1) {
        this.stack.pop();
        continue;
      }
      switch (token.type) {
        case 'inline':
          this.inline(token.children ?? []);
          break;
        case 'fence': {
          if (/[\\&]/.test(token.info)) throw new Unsupported('escape or entity in a fence info string');
          const code = node('code', token, null, withoutLastEol(token.content));
          code.lang = token.info.trim().split(/[ \t]/)[0] || null;
          this.add(code);
          break;
        }
        case 'code_block': {
          const code = node('code', token, null, withoutLastEol(token.content));
          code.indented = true;
          this.add(code);
          break;
        }
        case 'html_block':
          this.add(node('html', token, null, withoutLastEol(token.content)));
          break;
        case 'hr':
          this.add(node('thematicBreak', token, null, null));
          break;
        case 'reference_definition':
          this.add(node('definition', token, null, null));
          break;
        default:
          throw new Unsupported(`block token ${token.type}`);
      }
    }
    if (this.stack.length !== 1) throw new Unsupported('blocks left open');
    return this.stack[0]!;
  }

  /** The text run a line ending or text joins (mdast merges adjacent text). */
  private appendText(text: string): void {
    const siblings = this.top().children!;
    const tail = siblings[siblings.length - 1];
    if (tail !== undefined && tail.type === 'text') tail.value += text;
    else siblings.push(new MdNode('text', null, text));
  }

  private inline(tokens: readonly Token[]): void {
    const parent = this.top();
    for (const token of tokens) {
      switch (token.type) {
        case 'text':
        case 'text_special':
          this.appendText(token.content);
          break;
        case 'softbreak':
          this.appendText('\n');
          break;
        case 'hardbreak': {
          const brk = new MdNode('break', null, null);
          brk.start = parent.start;
          brk.end = parent.start;
          this.add(brk);
          break;
        }
        case 'code_inline':
          this.add(node('inlineCode', token, null, token.content));
          break;
        case 'html_inline':
          this.add(node('html', token, null, token.content));
          break;
        case 'image': {
          const [start, end] = span(token);
          const image = new MdNode(this.isReference(end) ? 'imageReference' : 'image', null, null);
          image.start = start;
          image.end = end;
          image.alt = altText(token.children ?? []);
          if (image.type === 'image') image.title = titleOf(token);
          this.add(image);
          break;
        }
        case 'link_open': {
          const [start, end] = span(token);
          const link = new MdNode(this.isReference(end) ? 'linkReference' : 'link', [], null);
          link.start = start;
          link.end = end;
          if (link.type === 'link') link.title = titleOf(token);
          this.add(link);
          this.stack.push(link);
          break;
        }
        case 'em_open':
        case 'strong_open': {
          // The walker only descends into emphasis: its own place is never read.
          const emphasis = new MdNode(token.type === 'em_open' ? 'emphasis' : 'strong', [], null);
          emphasis.start = parent.start;
          emphasis.end = parent.end;
          this.add(emphasis);
          this.stack.push(emphasis);
          break;
        }
        case 'link_close':
        case 'em_close':
        case 'strong_close':
          this.stack.pop();
          break;
        default:
          throw new Unsupported(`inline token ${token.type}`);
      }
    }
    if (this.top() !== parent) throw new Unsupported('inline nodes left open');
  }

  /** A link or image ends with `]` when it refers to a definition (mdast's linkReference, imageReference). */
  private isReference(end: number): boolean {
    return this.text.charCodeAt(end - 1) === 93;
  }
}

function titleOf(token: Token): string | null {
  const title = token.attrGet('title');
  return title === null ? null : String(title);
}
