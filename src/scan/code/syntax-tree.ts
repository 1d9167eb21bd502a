// A plain-JS copy of a web-tree-sitter tree. Every property read on a web-tree-sitter Node crosses into wasm and
// most allocate a fresh Node; extractors read type, children and fields of each node many times. Copying the
// tree once with a TreeCursor (a few wasm calls per node, no Node objects) makes every later read a field
// access. The class mirrors the subset of the Node API the extractors use, with identical results.
import type { Language, TreeCursor, Tree as WasmTree } from 'web-tree-sitter';

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

  /** descendantsOfType(types)[0] without collecting the rest. */
  firstDescendantOfType(types: string | readonly string[]): SyntaxNode | undefined {
    const wanted = typeof types === 'string' ? [types] : types;
    const stack: SyntaxNode[] = [this];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.endIndex === 0) continue;
      if (wanted.includes(node.type)) return node;
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    return undefined;
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
      // Dense array (setting length would make it holey and slow): null for children without a field.
      const fields = this.childFields ?? [];
      this.childFields = fields;
      while (fields.length < index) fields.push(null);
      fields.push(field);
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

/**
 * The web-tree-sitter wasm module, when treesitter.ts captured it at init. Its cursor functions take the cursor
 * from a fixed transfer buffer and leave it there, so a whole traversal can call them directly: the public
 * TreeCursor re-copies the cursor through emscripten's generic setValue/getValue around every call, which was
 * half the cost of copying a tree.
 */
export interface CursorBinding {
  _ts_init(): number;
  getValue(ptr: number, type: string): number;
  setValue(ptr: number, value: number, type: string): void;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
}

/** What a TreeCursor or Tree object holds internally (web-tree-sitter 0.25+). */
interface CursorInternals {
  handles?: number[];
  tree?: { 0?: number };
}

let binding: { module: CursorBinding; transfer: number } | null = null;

const BINDING_FUNCTIONS = [
  '_ts_init',
  'getValue',
  'setValue',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
];

/** Enables the direct path when `module` looks like the wasm module; otherwise the public API is used. */
export function useBinding(module: object): void {
  const m = module as Record<string, unknown>;
  if (!BINDING_FUNCTIONS.every((f) => typeof m[f] === 'function')) return;
  const cast = module as CursorBinding;
  binding = { module: cast, transfer: cast._ts_init() };
}

/** Runs `f` with the public-API copy only (tests compare both paths). */
export function withPublicCursor<R>(f: () => R): R {
  const saved = binding;
  binding = null;
  try {
    return f();
  } finally {
    binding = saved;
  }
}

/** Whether copies take the direct path (tests check the capture works with the installed web-tree-sitter). */
export function hasDirectCursor(): boolean {
  return binding !== null;
}

/** Copies `tree` (parsed from `text`) without recursion: hostile input nests thousands deep. */
export function materialise(tree: WasmTree, text: string): SyntaxTree {
  return stitch([{ tree, start: 0 }], text);
}

/**
 * One tree over `text` from the trees of consecutive pieces of it (each parsed from `text.slice(start)` up to
 * the next piece's start): a root over the whole text adopts every piece's top-level nodes, their offsets
 * shifted by the piece's start. One piece is copied as it is. Used where a grammar misparses across a line
 * break (code/bash-misparse.ts).
 */
export function stitch(pieces: readonly { tree: WasmTree; start: number }[], text: string): SyntaxTree {
  const source = new SourceText(text);
  const first = pieces[0]!.tree.rootNode;
  // One piece: its own root. Several: a root over the whole text that each piece's top-level nodes join.
  let root: SyntaxNode | null =
    pieces.length > 1 ? new SyntaxNode(source, null, first.type, true, 0, text.length) : null;
  let hasError = false;
  for (const { tree, start } of pieces) {
    const cursor = tree.walk();
    try {
      const direct = binding && directCursor(cursor, binding.module, binding.transfer);
      root = copyTree(direct ?? publicCursor(cursor), source, tree.language, start, root);
      if (direct) direct.finish();
    } finally {
      cursor.delete();
    }
    hasError ||= tree.rootNode.hasError;
  }
  return { rootNode: root!, hasError };
}

/** The cursor operations one copy needs. */
interface CursorOps {
  typeId(): number;
  start(): number;
  end(): number;
  fieldId(): number;
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
}

function publicCursor(cursor: TreeCursor): CursorOps {
  return {
    typeId: () => cursor.nodeTypeId,
    start: () => cursor.startIndex,
    end: () => cursor.endIndex,
    fieldId: () => cursor.currentFieldId,
    firstChild: () => cursor.gotoFirstChild(),
    nextSibling: () => cursor.gotoNextSibling(),
    parent: () => cursor.gotoParent(),
  };
}

/**
 * Cursor operations on the transfer buffer. The public getter puts the cursor there; `finish` copies the moved
 * cursor back into the TreeCursor object so its delete() frees the right memory. Null when the internals are
 * not as expected (another web-tree-sitter version): the caller then takes the public path.
 */
function directCursor(
  cursor: TreeCursor,
  m: CursorBinding,
  transfer: number,
): (CursorOps & { finish(): void }) | null {
  const internals = cursor as unknown as CursorInternals;
  const handles = internals.handles;
  const treeAddress = internals.tree?.[0];
  if (!Array.isArray(handles) || handles.length !== 4 || typeof treeAddress !== 'number') return null;
  void cursor.nodeTypeId; // marshals the cursor into the transfer buffer
  for (let i = 0; i < 4; i++) if (m.getValue(transfer + 4 * i, 'i32') !== handles[i]) return null;
  return {
    typeId: () => m._ts_tree_cursor_current_node_type_id_wasm(treeAddress),
    start: () => m._ts_tree_cursor_start_index_wasm(treeAddress),
    end: () => m._ts_tree_cursor_end_index_wasm(treeAddress),
    fieldId: () => m._ts_tree_cursor_current_field_id_wasm(treeAddress),
    firstChild: () => m._ts_tree_cursor_goto_first_child_wasm(treeAddress) === 1,
    nextSibling: () => m._ts_tree_cursor_goto_next_sibling_wasm(treeAddress) === 1,
    parent: () => m._ts_tree_cursor_goto_parent_wasm(treeAddress) === 1,
    finish: () => {
      for (let i = 0; i < 4; i++) handles[i] = m.getValue(transfer + 4 * i, 'i32');
    },
  };
}

/**
 * Copies the cursor's tree, node offsets shifted by `offset`. With `under`, the tree's root is not copied:
 * its children become `under`'s (a later piece of a stitched tree).
 */
function copyTree(
  ops: CursorOps,
  source: SourceText,
  language: Language,
  offset = 0,
  under: SyntaxNode | null = null,
): SyntaxNode {
  const types = language.types;
  const fields = language.fields;
  const copy = (parent: SyntaxNode | null): SyntaxNode => {
    const typeId = ops.typeId();
    const node = new SyntaxNode(
      source,
      parent,
      types[typeId] || 'ERROR',
      isNamedType(language, typeId),
      ops.start() + offset,
      ops.end() + offset,
    );
    parent?.adopt(node, fields[ops.fieldId()] ?? null);
    return node;
  };
  const root = under ?? copy(null);
  let node = root;
  for (;;) {
    if (ops.firstChild()) {
      node = copy(node);
      continue;
    }
    while (!ops.nextSibling()) {
      if (!ops.parent()) return root;
      node = node.parent!;
    }
    node = copy(node.parent);
  }
}
