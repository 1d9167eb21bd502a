import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { lineAt, lineStarts } from '../util/lines.js';
import { timed } from '../util/timing.js';
import { buildFastTree } from './markdown/fast-tree.js';
import { type Framing, leadInFraming, sentenceFraming, trailFramingOf } from './markdown/framing.js';
import { buildTree, MdNode, Unsupported } from './markdown/tree.js';

// Markdown as the scanner sees it: prose spans, fenced code and inline code, each with its file lines, the
// heading it sits under, and how it is framed (told to the agent, an example, a documented risk, or advice
// to the human user). Positions are the file's own: frontmatter lines count.

export type { Framing } from './markdown/framing.js';

export type ProseKind =
  | 'paragraph'
  | 'heading'
  | 'list-item'
  | 'blockquote'
  | 'table'
  | 'html-comment'
  | 'html'
  | 'link-title'
  | 'image-alt'
  | 'frontmatter';

export interface ProseSpan {
  /** Visible text (markup removed); for html, frontmatter, alt text and titles, the raw value. */
  text: string;
  line: number;
  endLine: number;
  kind: ProseKind;
  /** Nearest heading text ('' before the first heading). */
  section: string;
  framing: Framing;
  /** Framing from the section and lead-in alone, before the span's own sentences were read. */
  contextFraming: Framing;
  /**
   * True when that context came from the heading trail alone, with no lead-in sentence ("Bad:", "The scanner
   * flags these:") introducing the span. A heading is the author's to choose: scan rules may not let it
   * discount an instruction the span itself gives (docs/verdicts.md, "Framing an author cannot game").
   */
  byHeading: boolean;
  /** Offsets of the span's source in the file: [start, end). For alt text and titles, the image or link. */
  start: number;
  end: number;
}

export interface CodeBlock {
  /** Normalised: bash, python, javascript, typescript, powershell, json, yaml, or '' for anything else. */
  lang: string;
  /** The info string's language as written, lower-cased ('' when absent). */
  rawLang: string;
  code: string;
  /** Line of the first code line. */
  line: number;
  endLine: number;
  section: string;
  framing: Framing;
  /** The framing came from the heading trail alone, with no lead-in sentence before the block. */
  byHeading: boolean;
}

export interface InlineCode {
  text: string;
  line: number;
  framing: Framing;
  start: number;
  /** The paragraph's framing came from the heading trail alone (see ProseSpan.byHeading). */
  byHeading: boolean;
  section: string;
}

export interface MarkdownDoc {
  spans: ProseSpan[];
  codeBlocks: CodeBlock[];
  inlineCode: InlineCode[];
  /** File offsets [start, end) of fenced, indented and inline code: text a reader sees as code, not prose. */
  codeRanges: [number, number][];
}

const LANG_ALIASES: Record<string, string> = {
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  'shell-session': 'bash',
  shellsession: 'bash',
  terminal: 'bash',
  python: 'python',
  py: 'python',
  python3: 'python',
  javascript: 'javascript',
  js: 'javascript',
  node: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  typescript: 'typescript',
  ts: 'typescript',
  tsx: 'typescript',
  powershell: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  ps: 'powershell',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
};

/** Maps a fence's info string to one of the languages the code detectors read ('' for anything else). */
export function normaliseLang(info: string | null | undefined): string {
  const raw =
    (info ?? '')
      .trim()
      .toLowerCase()
      .replace(/^\{?\.?/, '')
      .split(/[\s,{}]/)[0] ?? '';
  return LANG_ALIASES[raw] ?? '';
}

interface Walk {
  text: string;
  starts: number[];
  /** Builds the tree of a text (parseTree, or the builder a benchmark compares). */
  build: (text: string) => MdNode;
  /** How many code blocks deep the walk is reading them as markdown (see innerMarkdown). */
  indented: number;
  /** Where the frontmatter the tree found ends (0 without one): the body starts there. */
  bodyStart: number;
  /** Lines of the body with something written on them (writtenLines), once asked for. */
  written?: number;
  headings: { depth: number; text: string }[];
  /** Framing of the current heading trail; null until first asked for after the trail changed. */
  trailFraming: Framing | null;
  doc: MarkdownDoc;
}

function visibleText(node: MdNode): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value!;
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return '\n';
  if (node.children === null) return '';
  let out = '';
  for (const child of node.children) out += visibleText(child);
  return out;
}

function offsets(node: MdNode): [number, number] | null {
  return node.start < 0 || node.end < 0 ? null : [node.start, node.end];
}

function currentSection(w: Walk): string {
  return w.headings[w.headings.length - 1]?.text ?? '';
}

/** The heading trail's framing, read once per trail rather than once per block under it. */
function trailFraming(w: Walk): Framing {
  w.trailFraming ??= trailFramingOf(w.headings);
  return w.trailFraming;
}

function paragraphKind(w: Walk, start: number, end: number, container: ProseKind): ProseKind {
  // Every line of a table starts with a pipe: without one anywhere, this is no table.
  const pipe = w.text.indexOf('|', start);
  if (pipe < 0 || pipe >= end) return container;
  const lines = w.text.slice(start, end).split('\n');
  if (lines.length > 0 && lines.every((l) => /^\s*(>\s*)*\|/.test(l))) return 'table';
  return container;
}

function pushSpan(
  w: Walk,
  kind: ProseKind,
  text: string,
  start: number,
  end: number,
  context: Framing,
  byHeading = false,
): void {
  const line = lineAt(w.starts, start);
  const endLine = Math.max(line, lineAt(w.starts, Math.max(start, end - 1)));
  const framing =
    kind === 'html-comment' || kind === 'frontmatter' ? context : sentenceFraming(text, context);
  w.doc.spans.push({
    text,
    line,
    endLine,
    kind,
    section: currentSection(w),
    framing,
    contextFraming: context,
    byHeading,
    start,
    end,
  });
}

/** Inline parts of a paragraph or heading: inline code, alt text, link titles, inline HTML. */
function walkInline(w: Walk, node: MdNode, framing: Framing, byHeading = false): void {
  if (node.children === null) return;
  for (const child of node.children) {
    const range = offsets(child);
    if (!range) continue;
    const [start, end] = range;
    if (child.type === 'inlineCode') {
      const line = lineAt(w.starts, start);
      w.doc.inlineCode.push({
        text: child.value!,
        line,
        framing,
        start,
        byHeading,
        section: currentSection(w),
      });
      w.doc.codeRanges.push([start, end]);
    } else if (child.type === 'image') {
      if (child.alt) pushSpan(w, 'image-alt', child.alt, start, end, framing);
      if (child.title) pushSpan(w, 'link-title', child.title, start, end, framing);
    } else if (child.type === 'link') {
      if (child.title) pushSpan(w, 'link-title', child.title, start, end, framing);
      walkInline(w, child, framing, byHeading);
    } else if (child.type === 'html') {
      const kind = child.value!.trimStart().startsWith('<!--') ? 'html-comment' : 'html';
      pushSpan(w, kind, child.value!, start, end, framing);
    } else {
      walkInline(w, child, framing, byHeading);
    }
  }
}

/** Lines `first`..`last` of each top-level key of the frontmatter at [start, end). */
function frontmatterKeys(w: Walk, start: number, end: number): { first: number; last: number }[] {
  const opening = lineAt(w.starts, start);
  const closing = lineAt(w.starts, Math.max(start, end - 1));
  const keys: { first: number; last: number }[] = [];
  for (let n = opening + 1; n < closing; n++) {
    const line = w.text.slice(w.starts[n - 1]!, w.starts[n] ?? w.text.length);
    if (!/^[^\s#-][^:]*:/.test(line)) continue;
    const previous = keys[keys.length - 1];
    if (previous) previous.last = n - 1;
    keys.push({ first: n, last: closing - 1 });
  }
  return keys;
}

/**
 * One span per top-level key, so a multi-line description is read as one text. A value written over several
 * lines (`instructions: |` and the lines under it) is loaded with the skill and read by the agent like its body:
 * each is also walked as markdown, so the fences, links and steps in it are read as they would be below.
 */
function walkFrontmatter(w: Walk, start: number, end: number): void {
  const keys = frontmatterKeys(w, start, end);
  for (const { first, last } of keys) {
    const from = w.starts[first - 1]!;
    const to = (w.starts[last] ?? w.text.length) - 1;
    if (to > from) pushSpan(w, 'frontmatter', w.text.slice(from, to).trimEnd(), from, to, 'instruction');
  }
  for (const { first, last } of keys) {
    const tree = last > first + 1 ? innerMarkdown(w, first + 1, last, true) : null;
    if (tree) walkInner(w, tree, null, 'paragraph');
  }
}

function codeBlock(
  w: Walk,
  node: MdNode,
  start: number,
  end: number,
  framing: Framing,
  byHeading: boolean,
): void {
  w.doc.codeRanges.push([start, end]);
  const opening = lineAt(w.starts, start);
  const last = lineAt(w.starts, Math.max(start, end - 1));
  const fenced =
    !node.indented && /^\s*(`{3,}|~{3,})/.test(w.text.slice(start, start + 64 + (node.lang?.length ?? 0)));
  const closed = fenced && /^\s*(`{3,}|~{3,})\s*$/.test(w.text.slice(w.starts[last - 1] ?? start, end));
  const line = fenced ? opening + 1 : opening;
  const endLine = Math.max(line, closed ? last - 1 : last);
  w.doc.codeBlocks.push({
    lang: normaliseLang(node.lang),
    rawLang: (node.lang ?? '').toLowerCase(),
    code: node.value!,
    line,
    endLine,
    section: currentSection(w),
    framing,
    byHeading,
  });
}

// An agent reads an indented block's text, or a block fenced as text, as it reads the rest: indenting a whole
// document (fences, headings, comments and all) turned every instruction into one code sample that nothing
// scanned as such.
const MAX_INDENTED_DEPTH = 2;
/** Fence labels of text rather than code: the agent reads what they hold as prose. */
export const TEXT_FENCES: ReadonlySet<string> = new Set([
  '',
  'text',
  'txt',
  'markdown',
  'md',
  'plain',
  'plaintext',
  'prompt',
  'none',
]);

/**
 * The tree of a code block's lines `first`..`last` read as markdown, dedented by the whitespace they share, its
 * offsets those of the file; null past the depth limit, or for an indented block whose lines carry a container's
 * prefix (a quote's `>`).
 */
function innerMarkdown(w: Walk, first: number, last: number, indented: boolean): MdNode | null {
  if (w.indented >= MAX_INDENTED_DEPTH || last < first) return null;
  const lineStart = (line: number) => w.starts[line - 1]!;
  const lineEnd = (line: number) => (line < w.starts.length ? w.starts[line]! - 1 : w.text.length);
  const lines: string[] = [];
  for (let n = first; n <= last; n++) lines.push(w.text.slice(lineStart(n), lineEnd(n)));
  const leading = (line: string) => /^[ \t]*/.exec(line)![0].length;
  let cut = Number.POSITIVE_INFINITY;
  for (const line of lines) if (line.trim() !== '') cut = Math.min(cut, leading(line));
  if (!Number.isFinite(cut) || (indented && cut < 1)) return null;
  const removed = lines.map((l) => Math.min(cut, leading(l)));
  const inner = lines.map((l, i) => l.slice(removed[i])).join('\n');
  const innerStarts = lineStarts(inner);
  const toFile = (offset: number): number => {
    const k = lineAt(innerStarts, offset) - 1;
    return lineStart(first + k) + removed[k]! + (offset - innerStarts[k]!);
  };
  const tree = buildOrStepAside(w.build, inner);
  // A block's first line of dashes is no frontmatter of the file.
  if (tree.children?.[0]?.type === 'yaml') tree.children.shift();
  const shift = (node: MdNode) => {
    if (node.start >= 0) node.start = toFile(node.start);
    if (node.end >= 0) node.end = toFile(node.end);
    for (const child of node.children ?? []) shift(child);
  };
  shift(tree);
  return tree;
}

/** Walks a block's text read as markdown (innerMarkdown): its headings frame its own text only. */
function walkInner(w: Walk, tree: MdNode, inherited: Framing | null, container: ProseKind): void {
  const headings = w.headings.slice();
  w.indented++;
  walkBlocks(w, tree, inherited, container);
  w.indented--;
  w.headings = headings;
  w.trailFraming = null;
}

/**
 * Lines of the document's body with something written on them, counted once per walk. The frontmatter is not
 * counted: a short body fenced whole is most of what the agent reads, however long the frontmatter above it.
 */
function writtenLines(w: Walk): number {
  w.written ??= w.text
    .slice(w.bodyStart)
    .split('\n')
    .filter((line) => line.trim() !== '').length;
  return w.written;
}

/** The tree `build` makes of `text`; micromark's where that builder steps aside (as parseTree does). */
function buildOrStepAside(build: (text: string) => MdNode, text: string): MdNode {
  try {
    return build(text);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return parseTreeMicromark(text);
  }
}

/** Framing from the list lead-in around a block, else from its heading trail. */
function sectionOf(w: Walk, inherited: Framing | null): Framing {
  return inherited ?? trailFraming(w);
}

/** Framing the paragraph just before a block gave it, else its section's. */
function contextOf(w: Walk, lead: Framing | null, inherited: Framing | null): Framing {
  return lead ?? sectionOf(w, inherited);
}

/**
 * Walks a container's children in order. `inherited` is the framing a list's lead-in gave its items (null
 * when none); `container` is the span kind for paragraphs here.
 */
function walkBlocks(w: Walk, parent: MdNode, inherited: Framing | null, container: ProseKind): void {
  let lead: Framing | null = null;
  // A paragraph frames the next paragraph only when it introduces it ("Bad example:").
  let introduces = false;
  for (const child of parent.children ?? []) {
    const range = offsets(child);
    if (!range) continue;
    const [start, end] = range;
    const introduced = introduces;
    introduces = false;
    switch (child.type) {
      case 'yaml':
        w.bodyStart = end;
        walkFrontmatter(w, start, end);
        lead = null;
        break;
      case 'heading': {
        const text = visibleText(child);
        while ((w.headings[w.headings.length - 1]?.depth ?? 0) >= child.depth) w.headings.pop();
        w.headings.push({ depth: child.depth, text });
        w.trailFraming = null;
        pushSpan(w, 'heading', text, start, end, sectionOf(w, inherited));
        walkInline(w, child, sectionOf(w, inherited));
        lead = null;
        break;
      }
      case 'paragraph': {
        const text = visibleText(child);
        const led = (introduced && lead !== null) || inherited !== null;
        const framing = introduced ? contextOf(w, lead, inherited) : sectionOf(w, inherited);
        pushSpan(w, paragraphKind(w, start, end, container), text, start, end, framing, !led);
        walkInline(w, child, w.doc.spans[w.doc.spans.length - 1]!.framing, !led);
        // What a paragraph says about the block after it ("Run:", "Bad example:").
        lead = leadInFraming(text);
        introduces = /:\s*$/.test(text);
        break;
      }
      case 'code': {
        codeBlock(w, child, start, end, contextOf(w, lead, inherited), lead === null && inherited === null);
        const block = w.doc.codeBlocks[w.doc.codeBlocks.length - 1]!;
        const text = TEXT_FENCES.has(block.rawLang.split(/\s/)[0] ?? '');
        const inner =
          child.indented || text ? innerMarkdown(w, block.line, block.endLine, child.indented) : null;
        if (inner) {
          // An indented block is also read as what it is to the agent, markdown framed by what introduced it. A
          // block fenced as text often holds a prompt or a template for some other reader: only the code fenced
          // inside it is read, as code, unless the block is most of the document (a body fenced whole).
          const outer = w.doc;
          const whole = child.indented || (block.endLine - block.line + 1) * 2 >= writtenLines(w);
          if (!whole) w.doc = { spans: [], codeBlocks: [], inlineCode: [], codeRanges: [] };
          walkInner(w, inner, lead ?? inherited, container);
          if (w.doc !== outer) {
            outer.codeBlocks.push(...w.doc.codeBlocks.filter((b) => b.lang !== ''));
            w.doc = outer;
          }
        }
        lead = null;
        break;
      }
      case 'list':
        // Items take the lead-in's framing; with none (null) they read the heading trail as they go.
        walkBlocks(w, child, lead ?? inherited, container === 'blockquote' ? 'blockquote' : 'list-item');
        lead = null;
        break;
      case 'listItem':
        walkBlocks(w, child, inherited, container);
        break;
      case 'blockquote':
        walkBlocks(w, child, contextOf(w, lead, inherited), 'blockquote');
        lead = null;
        break;
      case 'html': {
        const kind = child.value!.trimStart().startsWith('<!--') ? 'html-comment' : 'html';
        pushSpan(w, kind, child.value!, start, end, contextOf(w, lead, inherited));
        break;
      }
      default:
        if (child.children !== null) walkBlocks(w, child, inherited, container);
    }
  }
}

// Built once: the extensions are static descriptions of syntax, the same for every document.
const PARSE_OPTIONS = {
  extensions: [frontmatter(['yaml'])],
  mdastExtensions: [frontmatterFromMarkdown(['yaml'])],
};

/** The walker's tree from markdown-it's tokens; from micromark's events where that builder cannot say. */
function parseTree(text: string): MdNode {
  return buildOrStepAside(buildFastTree, text);
}

/** The walker's tree built from micromark's events; through mdast where that builder cannot say. */
export function parseTreeMicromark(text: string): MdNode {
  try {
    return buildTree(text);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return fromMdast(fromMarkdown(text, PARSE_OPTIONS));
  }
}

/** An mdast tree in the walker's shape (offsets -1 where a node has no position). */
export function fromMdast(node: Root | Nodes): MdNode {
  const out = new MdNode(
    node.type,
    'children' in node ? (node.children as Nodes[]).map(fromMdast) : null,
    'value' in node ? node.value : null,
  );
  out.start = node.position?.start.offset ?? -1;
  out.end = node.position?.end.offset ?? -1;
  if (node.type === 'heading') out.depth = node.depth;
  if (node.type === 'code') out.lang = node.lang ?? null;
  if (node.type === 'image' || node.type === 'imageReference') out.alt = node.alt ?? null;
  if (node.type === 'image' || node.type === 'link') out.title = node.title ?? null;
  return out;
}

/** Without a tree (the parser failed), every run of non-blank lines is a paragraph in an instruction section. */
function fallbackDoc(text: string): MarkdownDoc {
  const doc: MarkdownDoc = { spans: [], codeBlocks: [], inlineCode: [], codeRanges: [] };
  const starts = lineStarts(text);
  for (const m of text.matchAll(/[^\n]+(?:\n[^\S\n]*\S[^\n]*)*/g)) {
    const start = m.index;
    const end = start + m[0].length;
    doc.spans.push({
      text: m[0],
      line: lineAt(starts, start),
      endLine: lineAt(starts, Math.max(start, end - 1)),
      kind: 'paragraph',
      section: '',
      framing: 'instruction',
      contextFraming: 'instruction',
      byHeading: false,
      start,
      end,
    });
  }
  return doc;
}

// Containers nested this deep are never real prose, and the parser slows down sharply on them.
const PATHOLOGICAL_NESTING = /^[ \t]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+|>[ \t]*){9,}/m;

const CACHE_SIZE = 32;
const cache = new Map<string, MarkdownDoc>();

/** Parses markdown into framed spans and code blocks. Cached per text; never throws. */
export function parseMarkdown(text: string): MarkdownDoc {
  const hit = cache.get(text);
  if (hit) return hit;
  const doc = timed('markdown', () => parseUncached(text));
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, doc);
  return doc;
}

/**
 * Walks the tree `build` makes of `text` (parseMarkdown's tree by default; bench/markdown-parsers.ts compares
 * builders). Never throws: without a tree every paragraph is read as an instruction.
 */
export function parseUncached(text: string, build: (text: string) => MdNode = parseTree): MarkdownDoc {
  let doc: MarkdownDoc;
  try {
    if (PATHOLOGICAL_NESTING.test(text)) throw new Error('nesting too deep to parse');
    const w: Walk = {
      text,
      starts: lineStarts(text),
      build,
      indented: 0,
      bodyStart: 0,
      headings: [],
      trailFraming: null,
      doc: { spans: [], codeBlocks: [], inlineCode: [], codeRanges: [] },
    };
    walkBlocks(w, build(text), null, 'paragraph');
    doc = w.doc;
  } catch {
    doc = fallbackDoc(text);
  }
  return doc;
}
