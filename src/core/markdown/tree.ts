import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import { parse, postprocess, preprocess } from 'micromark';
import { frontmatter } from 'micromark-extension-frontmatter';
import { decodeNumericCharacterReference } from 'micromark-util-decode-numeric-character-reference';
import type { Event, ParseContext, Token, TokenizeContext } from 'micromark-util-types';

// The markdown tree the scanner walks, built straight from micromark's events. It holds exactly the parts of
// an mdast tree (as mdast-util-from-markdown builds it with the yaml frontmatter extension) that the walker
// reads, with plain offsets instead of position objects: the mdast compile step allocated a context object
// per event and three position objects per node, most of the markdown cost. Anything the events do that this
// builder was not written for raises `Unsupported`, and the caller then builds the tree the mdast way.

/** One node: the fields of the mdast node of the same type that the walker reads. */
export class MdNode {
  type: string;
  /** File offsets [start, end) of the node's token. */
  start = 0;
  end = 0;
  /** null where the mdast node has no children. */
  children: MdNode[] | null;
  /** Set ('' at first) exactly where the mdast node has a value: text, inlineCode, html, code, yaml. */
  value: string | null;
  depth = 0;
  lang: string | null = null;
  /** A code block made by indentation, not a fence. */
  indented = false;
  alt: string | null = null;
  title: string | null = null;

  constructor(type: string, children: MdNode[] | null, value: string | null) {
    this.type = type;
    this.children = children;
    this.value = value;
  }
}

/** The events did something this builder does not model; build the tree with mdast-util-from-markdown. */
export class Unsupported extends Error {}

// One parser for every document: parse() merges all syntax constructs into a new table on each call, a
// cost per document, though the table is only read. Its per-document state, the identifiers defined and
// the lazy lines, is read through the parser at use time and is reset before each document.
const PARSER = parse({ extensions: [frontmatter(['yaml'])] });

function freshParser(): ParseContext {
  PARSER.defined = [];
  PARSER.lazy = {};
  return PARSER;
}

/** Parses markdown into the walker's tree. Throws `Unsupported` when the mdast path must decide. */
export function buildTree(text: string): MdNode {
  const events = postprocess(
    freshParser()
      .document()
      .write(preprocess()(text, undefined, true)),
  );
  return new Builder().run(events);
}

/** Nodes the mdast compile adds line endings to as text (its `canContainEols`). */
const HOLDS_EOLS = new Set(['emphasis', 'fragment', 'heading', 'paragraph', 'strong']);

/** Token types that open a node with children, mapped to the node type. */
const PARENTS: Record<string, string> = {
  atxHeading: 'heading',
  setextHeading: 'heading',
  blockQuote: 'blockquote',
  emphasis: 'emphasis',
  strong: 'strong',
  link: 'link',
  autolink: 'link',
  listOrdered: 'list',
  listUnordered: 'list',
  paragraph: 'paragraph',
};

/** Token types that open a node without children (and without value). */
const LEAVES: Record<string, string> = {
  definition: 'definition',
  hardBreakEscape: 'break',
  hardBreakTrailing: 'break',
  image: 'image',
  thematicBreak: 'thematicBreak',
};

/** Token types whose text is collected into a fragment and read back when they close. */
const BUFFERED = new Set([
  'codeFencedFenceInfo',
  'codeFencedFenceMeta',
  'definitionDestinationString',
  'definitionLabelString',
  'definitionTitleString',
  'label',
  'referenceString',
  'resourceDestinationString',
  'resourceTitleString',
]);

/** Token types that start a run of text. */
const DATA_ENTER = new Set([
  'autolinkProtocol',
  'autolinkEmail',
  'characterEscape',
  'characterReference',
  'codeTextData',
  'data',
  'codeFlowValue',
  'htmlFlowData',
  'htmlTextData',
]);

/** Token types whose source text is appended to the current run of text. */
const DATA_EXIT = new Set([
  'autolinkProtocol',
  'autolinkEmail',
  'characterEscapeValue',
  'codeFlowValue',
  'codeTextData',
  'data',
  'htmlFlowData',
  'htmlTextData',
]);

const FIRST_EOL = /^(\r?\n|\r)|(\r?\n|\r)$/g;
const LAST_EOL = /(\r?\n|\r)$/g;

/** mdast-util-to-string: a node's value, else its alt text when not empty, else its children's text. */
function plainText(node: MdNode): string {
  if (node.value !== null) return node.value;
  if (node.alt) return node.alt;
  if (node.children === null) return '';
  let out = '';
  for (const child of node.children) out += plainText(child);
  return out;
}

class Builder {
  private readonly root = new MdNode('root', [], null);
  private readonly stack: MdNode[] = [this.root];
  /** Token types of the open nodes, innermost last; closing with another type is an error in mdast. */
  private readonly open: string[] = [];
  /** The open nodes themselves, to check that a close finds its node on top of the stack. */
  private readonly openNodes: MdNode[] = [];
  private atHardBreak = false;
  private slurpLineEnding = false;
  private codeInside = false;
  private inReference = false;
  private referenceMarker: string | undefined;

  run(events: readonly Event[]): MdNode {
    for (const [kind, token, context] of events) {
      if (kind === 'enter') this.enter(token);
      else this.exit(token, context);
    }
    if (this.open.length > 0) throw new Unsupported('tokens left open');
    return this.root;
  }

  private top(): MdNode {
    return this.stack[this.stack.length - 1]!;
  }

  private enter(token: Token): void {
    const type: string = token.type;
    const parentType = PARENTS[type];
    if (parentType !== undefined) {
      this.openNode(new MdNode(parentType, [], null), token);
      return;
    }
    const leafType = LEAVES[type];
    if (leafType !== undefined) {
      this.openNode(new MdNode(leafType, null, null), token);
      return;
    }
    if (DATA_ENTER.has(type)) {
      this.enterData(token);
      return;
    }
    if (BUFFERED.has(type)) {
      this.buffer();
      return;
    }
    switch (type) {
      case 'codeFenced':
        this.openNode(new MdNode('code', null, ''), token);
        return;
      case 'codeIndented': {
        const code = new MdNode('code', null, '');
        code.indented = true;
        this.openNode(code, token);
        this.buffer();
        return;
      }
      case 'codeText':
        this.openNode(new MdNode('inlineCode', null, ''), token);
        this.buffer();
        return;
      case 'htmlFlow':
      case 'htmlText':
        this.openNode(new MdNode('html', null, ''), token);
        this.buffer();
        return;
      case 'yaml':
        this.openNode(new MdNode('yaml', null, ''), token);
        this.buffer();
        return;
      case 'listItemPrefix':
        this.startListItem(token);
        return;
    }
  }

  /** `context.sliceSerialize` gives a token's source text; only tokens of text may be sliced. */
  private exit(token: Token, context: TokenizeContext): void {
    const type: string = token.type;
    if (DATA_EXIT.has(type)) {
      this.exitData(context.sliceSerialize(token));
      return;
    }
    switch (type) {
      case 'atxHeading':
      case 'autolink':
      case 'blockQuote':
      case 'definition':
      case 'emphasis':
      case 'paragraph':
      case 'strong':
      case 'thematicBreak':
        this.closeNode(token);
        return;
      case 'listOrdered':
      case 'listUnordered':
        if (this.top().type === 'listItem') this.stack.pop();
        this.closeNode(token);
        return;
      case 'atxHeadingSequence':
        if (!this.top().depth) this.top().depth = context.sliceSerialize(token).length;
        return;
      case 'characterReferenceMarkerHexadecimal':
      case 'characterReferenceMarkerNumeric':
        this.referenceMarker = type;
        return;
      case 'characterReferenceValue':
        this.characterReference(context.sliceSerialize(token));
        return;
      case 'characterReference':
        this.popText();
        return;
      case 'codeFencedFence':
        if (this.codeInside) return;
        this.buffer();
        this.codeInside = true;
        return;
      case 'codeFencedFenceInfo': {
        const lang = this.resume();
        this.top().lang = lang;
        return;
      }
      case 'codeFenced': {
        const value = this.resume();
        this.top().value = value.replace(FIRST_EOL, '');
        this.codeInside = false;
        this.closeNode(token);
        return;
      }
      case 'codeIndented': {
        const value = this.resume();
        this.top().value = value.replace(LAST_EOL, '');
        this.closeNode(token);
        return;
      }
      case 'codeText':
      case 'htmlFlow':
      case 'htmlText': {
        const value = this.resume();
        this.top().value = value;
        this.closeNode(token);
        return;
      }
      case 'yaml': {
        const value = this.resume();
        this.top().value = value.replace(FIRST_EOL, '');
        this.closeNode(token);
        return;
      }
      case 'codeFencedFenceMeta':
      case 'definitionDestinationString':
      case 'definitionLabelString':
      case 'definitionTitleString':
      case 'referenceString':
      case 'resourceDestinationString':
        this.resume();
        return;
      case 'resourceTitleString': {
        const title = this.resume();
        this.top().title = title;
        return;
      }
      case 'resource':
        this.inReference = false;
        return;
      case 'label':
        this.exitLabel();
        return;
      case 'hardBreakEscape':
      case 'hardBreakTrailing':
        this.atHardBreak = true;
        this.closeNode(token);
        return;
      case 'image':
      case 'link':
        this.exitLinkOrImage();
        this.closeNode(token);
        return;
      case 'lineEnding':
        this.lineEnding(token, context);
        return;
      case 'setextHeadingText':
        this.slurpLineEnding = true;
        return;
      case 'setextHeadingLineSequence':
        this.top().depth = context.sliceSerialize(token).codePointAt(0) === 61 ? 1 : 2;
        return;
      case 'setextHeading':
        this.slurpLineEnding = false;
        this.closeNode(token);
        return;
      case 'yamlValue':
        this.enterData(token);
        this.exitData(context.sliceSerialize(token));
        return;
    }
  }

  private openNode(node: MdNode, token: Token): void {
    const siblings = this.top().children;
    if (siblings === null) throw new Unsupported(`${token.type} inside a leaf`);
    node.start = token.start.offset;
    siblings.push(node);
    this.stack.push(node);
    this.open.push(token.type);
    this.openNodes.push(node);
  }

  private closeNode(token: Token): void {
    const type = this.open.pop();
    if (type !== token.type) throw new Unsupported(`${token.type} closes ${type ?? 'nothing'}`);
    const node = this.stack.pop()!;
    if (node !== this.openNodes.pop()) throw new Unsupported(`${token.type} closes over an unclosed part`);
    node.end = token.end.offset;
  }

  /** A list item starts at each marker of the innermost list; the previous item ends there. */
  private startListItem(token: Token): void {
    if (this.top().type === 'listItem') this.stack.pop();
    if (this.top().type !== 'list') throw new Unsupported('list marker outside a list');
    const item = new MdNode('listItem', [], null);
    item.start = token.start.offset;
    this.top().children!.push(item);
    this.stack.push(item);
  }

  private buffer(): void {
    this.stack.push(new MdNode('fragment', [], null));
  }

  /** Closes a fragment and returns its text. */
  private resume(): string {
    const fragment = this.stack.pop()!;
    if (fragment.type !== 'fragment') throw new Unsupported(`resume on ${fragment.type}`);
    return plainText(fragment);
  }

  private enterData(token: Token): void {
    const siblings = this.top().children;
    if (siblings === null) throw new Unsupported(`${token.type} inside a leaf`);
    let tail = siblings[siblings.length - 1];
    if (tail === undefined || tail.type !== 'text') {
      tail = new MdNode('text', null, '');
      tail.start = token.start.offset;
      siblings.push(tail);
    }
    this.stack.push(tail);
  }

  private popText(): MdNode {
    const tail = this.stack.pop()!;
    if (tail.type !== 'text') throw new Unsupported(`text run ends on ${tail.type}`);
    return tail;
  }

  private exitData(sliced: string): void {
    this.popText().value += sliced;
  }

  private characterReference(sliced: string): void {
    const marker = this.referenceMarker;
    this.referenceMarker = undefined;
    const value = marker
      ? decodeNumericCharacterReference(sliced, marker === 'characterReferenceMarkerNumeric' ? 10 : 16)
      : decodeNamedCharacterReference(sliced);
    const tail = this.top();
    if (tail.type !== 'text') throw new Unsupported('character reference outside text');
    tail.value += String(value);
  }

  private lineEnding(token: Token, tokenizer: TokenizeContext): void {
    const context = this.top();
    if (this.atHardBreak) {
      // The line ending after a hard break belongs to the break.
      const tail = context.children?.[context.children.length - 1];
      if (tail === undefined) throw new Unsupported('hard break without a node');
      tail.end = token.end.offset;
      this.atHardBreak = false;
      return;
    }
    if (!this.slurpLineEnding && HOLDS_EOLS.has(context.type)) {
      const siblings = context.children!;
      const tail = siblings[siblings.length - 1];
      const sliced = tokenizer.sliceSerialize(token);
      if (tail !== undefined && tail.type === 'text') tail.value += sliced;
      else siblings.push(new MdNode('text', null, sliced));
    }
  }

  /** A label closes: a link takes its content as children, an image its text as alt. */
  private exitLabel(): void {
    const fragment = this.top();
    if (fragment.type !== 'fragment') throw new Unsupported(`label closes on ${fragment.type}`);
    this.stack.pop();
    const node = this.top();
    this.inReference = true;
    if (node.type === 'link') node.children = fragment.children;
    else node.alt = plainText(fragment);
  }

  /** Without a resource after its label, a link or image is a reference, which has no title. */
  private exitLinkOrImage(): void {
    if (!this.inReference) return;
    const node = this.top();
    node.type = node.type === 'link' ? 'linkReference' : 'imageReference';
    node.title = null;
  }
}
