// A plain-JS copy of a web-tree-sitter tree. Every property read on a web-tree-sitter Node crosses into wasm and
// most allocate a fresh Node; extractors read type, children and fields of each node many times. Copying the
// tree once with a TreeCursor (a few wasm calls per node, no Node objects) makes every later read a field
// access. The class mirrors the subset of the Node API the extractors use, with identical results.
import type { Language, Tree as WasmTree } from 'web-tree-sitter';

export interface Point {
  row: number;
  column: number;
}

const NO_NODES: readonly SyntaxNode[] = Object.freeze([]);

/** Shared by all nodes of one tree: the parsed text and its line starts (for rows, computed on demand). */
class SourceText {
  private lineStarts: number[] | null = null;
  constructor(readonly text: string) {}

  /** Tree-sitter counts rows by '\n' only, as here. */
  point(index: number): Point {
    const starts = this.lineStarts ?? this.indexLines();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - starts[lo]! };
  }

  private indexLines(): number[] {
    const starts = [0];
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
    return starts;
  }
}

/** Ids are unique across all trees of the process (web-tree-sitter's are unique within a tree). */
let nextId = 1;

export class SyntaxNode {
  readonly id = nextId++;
  children: readonly SyntaxNode[] = NO_NODES;
  namedChildren: readonly SyntaxNode[] = NO_NODES;
  /** Field name of each child (parallel to children), or null when no child has one. */
  private childFields: (string | null)[] | null = null;

  constructor(
    private readonly source: SourceText,
    readonly parent: SyntaxNode | null,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.source.text.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): Point {
    return this.source.point(this.startIndex);
  }

  get endPosition(): Point {
    return this.source.point(this.endIndex);
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  /** First child carrying the field (as a TreeCursor reports fields). */
  childForFieldName(name: string): SyntaxNode | null {
    const fields = this.childFields;
    if (!fields) return null;
    const i = fields.indexOf(name);
    return i === -1 ? null : this.children[i]!;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const fields = this.childFields;
    const out: SyntaxNode[] = [];
    if (!fields) return out;
    for (let i = 0; i < fields.length; i++) if (fields[i] === name) out.push(this.children[i]!);
    return out;
  }

  /**
   * This node and its descendants of the given types, in document order. Like tree-sitter's walk, nodes that
   * end at offset 0 are skipped with their subtrees, and anonymous nodes match by name too.
   */
  descendantsOfType(types: string | readonly string[]): SyntaxNode[] {
    const wanted = typeof types === 'string' ? [types] : types;
    const out: SyntaxNode[] = [];
    const stack: SyntaxNode[] = [this];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.endIndex === 0) continue;
      if (wanted.includes(node.type)) out.push(node);
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    return out;
  }

  /** Used while copying: appends a child in document order. */
  adopt(child: SyntaxNode, field: string | null): void {
    if (this.children === NO_NODES) this.children = [];
    const index = this.children.length;
    (this.children as SyntaxNode[]).push(child);
    if (child.isNamed) {
      if (this.namedChildren === NO_NODES) this.namedChildren = [];
      (this.namedChildren as SyntaxNode[]).push(child);
    }
    if (field !== null) {
      this.childFields ??= [];
      this.childFields.length = index;
      this.childFields.push(field);
    }
  }
}

export interface SyntaxTree {
  rootNode: SyntaxNode;
  /** The tree holds ERROR or MISSING nodes. */
  hasError: boolean;
}

/** Whether each type id is a named node type, per grammar (asked once per id, not per node). */
const namedTypes = new WeakMap<Language, boolean[]>();

function isNamedType(language: Language, typeId: number): boolean {
  let known = namedTypes.get(language);
  if (!known) {
    known = [];
    namedTypes.set(language, known);
  }
  let named = known[typeId];
  if (named === undefined) {
    named = language.nodeTypeIsNamed(typeId);
    known[typeId] = named;
  }
  return named;
}

/** Copies `tree` (parsed from `text`) without recursion: hostile input nests thousands deep. */
export function materialise(tree: WasmTree, text: string): SyntaxTree {
  const source = new SourceText(text);
  const language = tree.language;
  const types = language.types;
  const cursor = tree.walk();
  const copy = (parent: SyntaxNode | null): SyntaxNode => {
    const typeId = cursor.nodeTypeId;
    const node = new SyntaxNode(
      source,
      parent,
      types[typeId] || 'ERROR',
      isNamedType(language, typeId),
      cursor.startIndex,
      cursor.endIndex,
    );
    parent?.adopt(node, cursor.currentFieldName ?? null);
    return node;
  };
  try {
    const root = copy(null);
    let node = root;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        node = copy(node);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return { rootNode: root, hasError: tree.rootNode.hasError };
        node = node.parent!;
      }
      node = copy(node.parent);
    }
  } finally {
    cursor.delete();
  }
}
