// Syntax trees for skill scripts via web-tree-sitter and the prebuilt grammars of @vscode/tree-sitter-wasm.
// The runtime and each grammar load once, lazily. parseCode hands out wasm trees (callers must delete() them);
// parseSyntax copies the tree into plain JS objects (code/syntax-tree.ts) in one cursor pass and frees it at once.
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser, type Tree as WasmTree } from 'web-tree-sitter';
import { timed } from '../util/timing.js';
import { misparsedLineBreaks } from './code/bash-misparse.js';
import { materialise, type SyntaxTree, stitch, useBinding } from './code/syntax-tree.js';

export type { SyntaxNode as Node, SyntaxTree as Tree } from './code/syntax-tree.js';

export type CodeLanguage = 'bash' | 'python' | 'javascript' | 'typescript' | 'tsx' | 'powershell';

/** Hostile scripts can be huge; beyond this many characters only the head is parsed (callers say so). */
export const MAX_PARSE_CHARS = 1_000_000;
/** Wall-clock budget for one parse; tree-sitter is linear, but a pathological input must not stall a batch. */
const PARSE_TIMEOUT_MS = 5_000;
/** What is parsed when the whole input ran out of time. */
const FALLBACK_CHARS = 100_000;
/**
 * Text is handed to tree-sitter in chunks: given a plain string, web-tree-sitter slices the whole remainder
 * on every read (and on every node.text), which is quadratic on large files. Its buffer holds 10 KiB of UTF-16.
 */
const CHUNK_CHARS = 4096;

const ALIASES: Record<string, CodeLanguage> = {
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  ksh: 'bash',
  dash: 'bash',
  console: 'bash',
  shellscript: 'bash',
  python: 'python',
  py: 'python',
  python3: 'python',
  javascript: 'javascript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsx: 'javascript',
  typescript: 'typescript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  powershell: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  ps: 'powershell',
};

/** The grammar for a file or fenced-block language name, or null when none is bundled. */
export function codeLanguage(language: string | null | undefined): CodeLanguage | null {
  if (!language) return null;
  return ALIASES[language.trim().toLowerCase()] ?? null;
}

let runtime: Promise<void> | null = null;
const grammars = new Map<CodeLanguage, Promise<Parser>>();

function wasmDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
}

/**
 * Grammars run on V8's baseline wasm compiler only. Optimising them costs more than it saves: V8 re-compiles
 * hot grammar functions with TurboFan on a background thread, which takes about 12 s of CPU for the
 * PowerShell grammar (and half a second for bash) per thread, holds a core meanwhile, and delays the exit
 * until it finishes; parsing skill-sized scripts never earns that back. The flag is process-wide and read when
 * a module compiles, so it is set before the first grammar loads (worker threads share it).
 */
async function baselineWasmOnly(): Promise<void> {
  setFlagsFromString('--liftoff-only');
  // Emscripten builds the module on the options object it is given: keep it for fast tree copies.
  const module = {};
  await Parser.init(module);
  useBinding(module);
}

function parserFor(language: CodeLanguage): Promise<Parser> {
  let pending = grammars.get(language);
  if (!pending) {
    runtime ??= baselineWasmOnly();
    pending = runtime.then(async () => {
      const lang = await Language.load(path.join(wasmDir(), `tree-sitter-${language}.wasm`));
      const parser = new Parser();
      parser.setLanguage(lang);
      return parser;
    });
    // A failed load must not poison later attempts (e.g. a transient read error).
    pending.catch(() => grammars.delete(language));
    grammars.set(language, pending);
  }
  return pending;
}

/**
 * Parses `text` as `language` (any alias accepted by codeLanguage). Returns null for unsupported languages
 * or when the parse exceeds its time budget. Input beyond MAX_PARSE_CHARS is cut; the caller owns the tree
 * and must call `tree.delete()`.
 */
export async function parseCode(language: string, text: string): Promise<WasmTree | null> {
  return (await parseSource(language, text))?.tree ?? null;
}

/**
 * Like parseCode, but returns the tree as plain JS objects: walking them costs no wasm calls or per-visit
 * allocations, which dominated code analysis. Nothing to delete.
 */
export async function parseSyntax(language: string, text: string): Promise<SyntaxTree | null> {
  const lang = codeLanguage(language);
  if (!lang) return null;
  const parser = await parserFor(lang);
  return timed('parse', () => {
    const parsed = parseWith(parser, text);
    if (!parsed) return null;
    let tree: SyntaxTree;
    try {
      tree = materialise(parsed.tree, parsed.source);
    } finally {
      parsed.tree.delete();
    }
    if (lang !== 'bash') return tree;
    return repairBash(parser, tree, parsed.source) ?? tree;
  });
}

/** How often a piece is checked and cut again (a cut can reveal another misparse inside a piece). */
const MAX_RECUTS = 4;

/**
 * The tree of a bash script that tree-sitter misparsed across line breaks (code/bash-misparse.ts): the text is
 * cut at every such break and each piece parsed alone, so the cost stays linear however many there are. A
 * piece is checked again (up to MAX_RECUTS deep, within the parse budget). Null when nothing was misparsed or
 * a piece could not be parsed.
 */
function repairBash(parser: Parser, whole: SyntaxTree, source: string): SyntaxTree | null {
  const cuts = misparsedLineBreaks(whole.rootNode, source);
  if (cuts.length === 0) return null;
  const deadline = performance.now() + PARSE_TIMEOUT_MS;
  const pieces: { tree: WasmTree; start: number }[] = [];
  // Parses [start, end) into pieces, in order; false when a parse failed (out of time).
  const parsePieces = (bounds: number[], depth: number): boolean => {
    for (let i = 0; i + 1 < bounds.length; i++) {
      const start = bounds[i]!;
      const end = bounds[i + 1]!;
      const tree = parseWithin(parser, source.slice(start, end));
      if (!tree) return false;
      if (depth < MAX_RECUTS && performance.now() < deadline) {
        const inner = misparsedLineBreaks(stitch([{ tree, start }], source).rootNode, source).filter(
          (cut) => cut > start && cut < end,
        );
        if (inner.length > 0) {
          tree.delete();
          if (!parsePieces([start, ...inner, end], depth + 1)) return false;
          continue;
        }
      }
      pieces.push({ tree, start });
    }
    return true;
  };
  try {
    return parsePieces([0, ...cuts, source.length], 0) ? stitch(pieces, source) : null;
  } finally {
    for (const piece of pieces) piece.tree.delete();
  }
}

/** The tree with the exact text it was parsed from (node indices point into it). */
async function parseSource(
  language: string,
  text: string,
): Promise<{ tree: WasmTree; source: string } | null> {
  const lang = codeLanguage(language);
  if (!lang) return null;
  return parseWith(await parserFor(lang), text);
}

function parseWith(parser: Parser, text: string): { tree: WasmTree; source: string } | null {
  const source = text.length > MAX_PARSE_CHARS ? text.slice(0, MAX_PARSE_CHARS) : text;
  const tree = parseWithin(parser, source);
  if (tree) return { tree, source };
  if (source.length <= FALLBACK_CHARS) return null;
  const head = source.slice(0, FALLBACK_CHARS);
  const fallback = parseWithin(parser, head);
  return fallback ? { tree: fallback, source: head } : null;
}

function parseWithin(parser: Parser, source: string): WasmTree | null {
  const deadline = performance.now() + PARSE_TIMEOUT_MS;
  // The progress callback cancels the parse when it returns true (the .d.ts types it as void).
  const progressCallback = (() => performance.now() > deadline) as unknown as () => void;
  const read = (index: number) => source.slice(index, index + CHUNK_CHARS);
  const tree = parser.parse(read, null, { progressCallback });
  // After a cancelled parse the parser would resume the old document on the next call.
  if (!tree) parser.reset();
  return tree;
}
