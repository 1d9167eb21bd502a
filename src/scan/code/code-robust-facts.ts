// A second, narrow look at a syntax tree for robustness facts the language extractors leave out: polling
// loops whose only exits are "it worked" (no attempt limit or deadline), error listeners and handlers that
// turn a failure into a normal-looking value, and the functions a file defines itself (a local `fetch` is
// not the global one). Runs on the tree analyse.ts already holds, so it costs no second parse.
import type { CodeLanguage, Node, Tree } from '../treesitter.js';
import type { CodeModel, LoopFact, SwallowFact } from './model.js';
import { type Extraction, endLineOf, isNetworkCallee, lineOf } from './script.js';

/** Facts kept beside a CodeModel (the model's shape is shared by every rule; these only robustness reads). */
export interface RobustExtras {
  /** Names of functions the file defines itself; a call to one is not the library function of that name. */
  localFunctions: ReadonlySet<string>;
}

const extras = new WeakMap<CodeModel, RobustExtras>();

export function rememberRobustExtras(model: CodeModel, found: RobustExtras): void {
  extras.set(model, found);
}

export function robustExtrasOf(model: CodeModel): RobustExtras | undefined {
  return extras.get(model);
}

/** Node types the JS review reads, collected in one walk of the tree. */
const JS_LOOP_TYPES = new Set(['for_statement', 'while_statement', 'do_statement']);
const JS_SWALLOW_TYPES = new Set(['call_expression', 'catch_clause']);
const JS_FUNCTION_TYPES = new Set([
  'function_declaration',
  'generator_function_declaration',
  'variable_declarator',
]);
const JS_WANTED = [...JS_LOOP_TYPES, ...JS_SWALLOW_TYPES, ...JS_FUNCTION_TYPES];

/** A bare call named like a network API (`fetch(…)`, `got(…)`): only then can a local definition shadow one. */
function callsBareNetworkName(ex: Extraction): boolean {
  return ex.calls.some((c) => c.kind === 'call' && !c.callee.includes('.') && isNetworkCallee(c.callee));
}

/** Adds loop and swallow facts to `ex` in place and returns the facts that live beside the model. */
export function reviewRobustness(language: CodeLanguage, tree: Tree, ex: Extraction): RobustExtras {
  const root = tree.rootNode;
  if (language === 'bash') {
    reviewShellLoops(root, ex);
    return { localFunctions: new Set() };
  }
  if (language === 'python') {
    // Only infinite loops the extractor already judged to have an exit need a second look.
    if (ex.loops.some((l) => !l.conditional && l.exits)) reviewPythonLoops(root, ex);
    return { localFunctions: callsBareNetworkName(ex) ? pythonFunctions(root) : new Set() };
  }
  if (language === 'powershell') return { localFunctions: new Set() };
  const nodes = root.descendantsOfType(JS_WANTED);
  reviewJsLoops(
    nodes.filter((n) => JS_LOOP_TYPES.has(n.type)),
    ex,
  );
  recordJsSwallows(
    nodes.filter((n) => JS_SWALLOW_TYPES.has(n.type)),
    ex,
  );
  return { localFunctions: jsFunctions(nodes.filter((n) => JS_FUNCTION_TYPES.has(n.type))) };
}

// ---------------------------------------------------------------------------------------------- loops

/**
 * A condition that bounds a loop: a counter, limit or clock compared (`attempt >= 5`, `Date.now() > end`,
 * `--left === 0`). A comparison of the awaited state (`state === 'live'`) is the success exit, not a bound.
 */
const BOUND_NAME =
  /\b\w*(?:attempt|tries|retr|count|max|limit|deadline|budget|remaining|left|elapsed|timeout|expire)\w*\b|\b(?:i|n|k)\b|Date\.now\(\)|performance\.now\(\)|new Date\(\)|time\.(?:time|monotonic)\(\)|hrtime/i;
const COMPARES = /[<>]|[=!]==?|--|\+\+|^\s*!/;

function isBound(condition: string): boolean {
  return BOUND_NAME.test(condition) && COMPARES.test(condition);
}

/** Waits between attempts: `await sleep(1000)`, `setTimeout(r, ms)`, `delay()`, `backoff()`. */
const JS_SLEEP = /(?:^|\.)(?:setTimeout|sleep|delay|wait|pause|backoff|waitFor|setTimeoutPromise)$/i;
const JS_FUNCTION =
  /^(function_declaration|function_expression|function|arrow_function|method_definition|generator_function_declaration|generator_function|class_declaration|class)$/;
const JS_BREAKABLE = /^(for_statement|for_in_statement|while_statement|do_statement|switch_statement)$/;

interface LoopExit {
  /** Conditions of the `if`s between the loop body and the exit. */
  conditions: string[];
  /** Inside a `try` block: leaves when the attempt succeeds (`try { return await op(); }`). */
  onSuccess: boolean;
}

interface JsLoopScan {
  exits: LoopExit[];
  sleeps: boolean;
}

/** A node still to visit in a loop body: the `if` conditions above it, inside a nested loop, inside a `try`. */
interface LoopFrame {
  n: Node;
  conditions: string[];
  inner: boolean;
  inTry: boolean;
}

/**
 * Queues a node's children with what they inherit (`frame.inner` already accounts for the node itself): an
 * `if` adds its condition (its `skip`-typed condition child is not visited), a `try` marks its block's exits
 * as leaving on success.
 */
function pushChildren(stack: LoopFrame[], frame: LoopFrame, isIf: boolean, skip: string | null): void {
  const { n, conditions, inner, inTry } = frame;
  if (isIf) {
    const cond = n.childForFieldName('condition')?.text ?? '';
    for (const c of n.namedChildren)
      if (c && c.type !== skip) stack.push({ n: c, conditions: [...conditions, cond], inner, inTry });
    return;
  }
  const block = n.type === 'try_statement' ? n.childForFieldName('body') : null;
  for (const c of n.namedChildren)
    if (c) stack.push({ n: c, conditions, inner, inTry: inTry || (block !== null && c.id === block.id) });
}

function isInfiniteJsLoop(node: Node): boolean {
  const cond = node.childForFieldName('condition');
  const text = cond?.text.replace(/^\(|\)$|;$/g, '').trim() ?? '';
  if (node.type === 'for_statement') return text === '';
  return /^(true|1|!0|!false)$/.test(text);
}

/** Exits and waits in a loop body; exits inside nested functions (callbacks) do not leave the loop. */
function scanJsLoopBody(body: Node): JsLoopScan {
  const scan: JsLoopScan = { exits: [], sleeps: false };
  const stack: LoopFrame[] = [{ n: body, conditions: [], inner: false, inTry: false }];
  let budget = 5000;
  while (stack.length > 0 && budget-- > 0) {
    const { n, conditions, inner, inTry } = stack.pop()!;
    if (n !== body && JS_FUNCTION.test(n.type)) continue;
    const exit = { conditions, onSuccess: inTry };
    if (n.type === 'break_statement' && (!inner || n.namedChildCount > 0)) scan.exits.push(exit);
    if (n.type === 'return_statement' || n.type === 'throw_statement') scan.exits.push(exit);
    if (n.type === 'call_expression') {
      const callee = n.childForFieldName('function')?.text ?? '';
      if (/^process\.exit$/.test(callee)) scan.exits.push(exit);
    }
    const childInner = inner || (n !== body && JS_BREAKABLE.test(n.type));
    const isIf = n.type === 'if_statement';
    pushChildren(stack, { n, conditions, inner: childInner, inTry }, isIf, 'parenthesized_expression');
  }
  // A wait is often wrapped in a callback (`new Promise((r) => setTimeout(r, ms))`): look at every call.
  scan.sleeps = body
    .descendantsOfType('call_expression')
    .some((c) => JS_SLEEP.test(c?.childForFieldName('function')?.text ?? ''));
  return scan;
}

/**
 * Re-judges the extractor's infinite JS loops: a loop that waits or retries and leaves only when the awaited
 * thing succeeds (`for (;;) { if (await ready()) break; await sleep(1000); }`) has no reachable bound; nor
 * has one whose only `return` sits in a callback (`items.forEach((m) => { return; })`).
 */
function reviewJsLoops(loops: readonly Node[], ex: Extraction): void {
  const byLine = new Map(ex.loops.map((l) => [l.line, l]));
  for (const node of loops) {
    if (!node || !isInfiniteJsLoop(node)) continue;
    const fact = byLine.get(lineOf(node));
    const body = node.childForFieldName('body');
    if (!fact || !body) continue;
    const scan = scanJsLoopBody(body);
    const bounded = scan.exits.some(
      (e) => e.conditions.some(isBound) || (e.conditions.length === 0 && !e.onSuccess),
    );
    const polls = scan.sleeps || scan.exits.some((e) => e.onSuccess) || fact.network;
    if (scan.exits.length === 0) fact.exits = false;
    else if (polls && !bounded) fact.exits = false;
    if (polls) fact.retries = true;
  }
}

const PY_FUNCTION = /^(function_definition|lambda|class_definition)$/;
const PY_BREAKABLE = /^(for_statement|while_statement)$/;
const PY_SLEEP = /(?:^|\.)sleep$/;

/** Exits and waits in a python loop body, with the `if` conditions above each exit. */
function scanPythonLoopBody(body: Node): JsLoopScan {
  const scan: JsLoopScan = { exits: [], sleeps: false };
  const stack: LoopFrame[] = [{ n: body, conditions: [], inner: false, inTry: false }];
  let budget = 5000;
  while (stack.length > 0 && budget-- > 0) {
    const { n, conditions, inner, inTry } = stack.pop()!;
    if (PY_FUNCTION.test(n.type)) continue;
    const exit = { conditions, onSuccess: inTry };
    if (n.type === 'break_statement' && !inner) scan.exits.push(exit);
    if (n.type === 'return_statement' || n.type === 'raise_statement') scan.exits.push(exit);
    if (n.type === 'call') {
      const callee = n.childForFieldName('function')?.text ?? '';
      if (PY_SLEEP.test(callee)) scan.sleeps = true;
      if (/^(sys\.exit|exit|quit|os\._exit)$/.test(callee)) scan.exits.push(exit);
    }
    const childInner = inner || (n !== body && PY_BREAKABLE.test(n.type));
    const isIf = n.type === 'if_statement' || n.type === 'elif_clause';
    pushChildren(stack, { n, conditions, inner: childInner, inTry }, isIf, null);
  }
  return scan;
}

/**
 * `while True:` that sleeps between checks and leaves only when the awaited thing shows up (`if
 * os.path.exists(flag): break`) waits forever when it never does; a compared counter or clock bounds it.
 */
function reviewPythonLoops(root: Node, ex: Extraction): void {
  const byLine = new Map(ex.loops.map((l) => [l.line, l]));
  for (const node of root.descendantsOfType('while_statement')) {
    const fact = byLine.get(lineOf(node));
    const body = node.childForFieldName('body');
    if (!fact || fact.conditional || !fact.exits || !body) continue;
    const scan = scanPythonLoopBody(body);
    const bounded = scan.exits.some(
      (e) => e.conditions.some(isBound) || (e.conditions.length === 0 && !e.onSuccess),
    );
    if (!scan.sleeps || bounded) continue;
    fact.exits = false;
    fact.retries = true;
  }
}

/** `until pg_isready; do sleep 2; done`: a numeric test or the clock in the loop bounds the wait. */
const SHELL_BOUND =
  /-(?:ge|gt|le|lt|eq|ne)\s+["']?\$?\{?\w|\(\([^)]*(?:[<>]|==|!=)[^)]*\)\)|\$\{?SECONDS\b|date\s+\+%s|\$\(\(\s*\w+\s*[+-]/;
/** `[ $? -eq 0 ]` compares an exit status, not a counter. */
const STATUS_TEST = /\$\?\s*-(?:eq|ne)\b/g;
const SHELL_INFINITE = /^(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))$/;

function shellCommandNames(node: Node): string[] {
  const out: string[] = [];
  for (const c of node.descendantsOfType('command')) {
    const name = c?.childForFieldName('name')?.text.replace(/^["']|["']$/g, '');
    if (name) out.push(name.split('/').pop() ?? name);
  }
  return out;
}

/** A break/exit/return at the top level of the loop body (not under an `if`, `&&` or `||`). */
function hasUnconditionalShellExit(body: Node): boolean {
  return body.namedChildren.some(
    (c) => c?.type === 'command' && /^(break|exit|return)$/.test(c.childForFieldName('name')?.text ?? ''),
  );
}

/**
 * Waiting loops in shell: `until <cmd>; do sleep N; done`, `while ! <cmd>; do sleep N; done`,
 * `while true; do <cmd> && break; sleep N; done`. They end only when the awaited service, file or job shows
 * up; with no attempt counter or deadline they hang forever when it never does.
 */
function reviewShellLoops(root: Node, ex: Extraction): void {
  const byLine = new Map(ex.loops.map((l) => [l.line, l]));
  for (const node of root.descendantsOfType('while_statement')) {
    const body = node?.childForFieldName('body');
    const cond = node?.childForFieldName('condition');
    if (!node || !body || !cond) continue;
    const inner = shellCommandNames(body);
    if (!inner.includes('sleep')) continue;
    if (SHELL_BOUND.test(node.text.replace(STATUS_TEST, ''))) continue;
    const infinite = SHELL_INFINITE.test(cond.text.replace(/;$/, '').trim());
    const exitsInBody = inner.some((n) => /^(break|exit|return)$/.test(n));
    // A conditional loop that also leaves from its body gives up on some failure: that is a bound.
    if (!infinite && exitsInBody) continue;
    if (infinite && hasUnconditionalShellExit(body)) continue;
    const known = byLine.get(lineOf(node));
    if (known) {
      known.exits = false;
      known.retries = true;
      continue;
    }
    const fact: LoopFact = {
      line: lineOf(node),
      endLine: endLineOf(node),
      text: node.text.split('\n')[0] ?? '',
      exits: false,
      network: false,
      retries: true,
      conditional: !infinite,
    };
    ex.loops.push(fact);
  }
}

// ------------------------------------------------------------------------------------------ swallows

/** A value that reads as "nothing there" (`null`, `[]`, `{}`, `''`, `false`, `0`). */
const NEUTRAL_VALUE =
  /^\(?\s*(?:undefined|null|void 0|false|0|''|""|``|\[\s*\]|\{\s*\}|new (?:Map|Set)\(\))\s*\)?;?$/;

function statementsOf(block: Node): Node[] {
  return block.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

/** A handler body that does nothing, or only returns a neutral value (`{ return null; }`, `() => []`). */
function isNeutralHandler(fn: Node): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  if (body.type !== 'statement_block') return NEUTRAL_VALUE.test(body.text.trim());
  const stmts = statementsOf(body);
  if (stmts.length === 0) return true;
  if (stmts.length !== 1 || stmts[0]!.type !== 'return_statement') return false;
  const value = stmts[0]!.namedChildren.find((c) => c && c.type !== 'comment');
  return !value || NEUTRAL_VALUE.test(value.text.trim());
}

const JS_HANDLER = /^(arrow_function|function_expression|function)$/;

/**
 * `req.on('error', () => {})`, `socket.once('error', function () {})`, `process.on('uncaughtException', …)`:
 * the error event is consumed and dropped. `catch (e) { return null; }` and `.catch(() => [])`: the failure
 * becomes an empty result the caller cannot tell from a real one.
 */
function recordJsSwallows(candidates: readonly Node[], ex: Extraction): void {
  const seen = new Set(ex.swallows.map((s) => s.line));
  const push = (s: SwallowFact) => {
    if (seen.has(s.line)) return;
    seen.add(s.line);
    ex.swallows.push(s);
  };
  for (const node of candidates) {
    if (!node) continue;
    if (node.type === 'catch_clause') {
      const body = node.childForFieldName('body');
      const stmts = body ? statementsOf(body) : [];
      const only = stmts.length === 1 ? stmts[0]! : null;
      const value =
        only?.type === 'return_statement' ? only.namedChildren.find((c) => c?.type !== 'comment') : null;
      if (only?.type === 'return_statement' && (!value || NEUTRAL_VALUE.test(value.text.trim())))
        push({
          line: lineOf(node),
          endLine: endLineOf(node),
          text: node.text,
          kind: 'empty-catch',
        });
      continue;
    }
    const fn = node.childForFieldName('function');
    if (fn?.type !== 'member_expression') continue;
    const method = fn.childForFieldName('property')?.text ?? '';
    const args = node.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a) ?? [];
    const errorEvent =
      /^(on|once|addListener|addEventListener)$/.test(method) &&
      /^['"`](error|uncaughtException|unhandledRejection)['"`]$/.test(args[0]?.text ?? '');
    const handler = errorEvent ? args[1] : method === 'catch' ? args[0] : undefined;
    if (!handler || !JS_HANDLER.test(handler.type) || !isNeutralHandler(handler)) continue;
    const at = fn.childForFieldName('property') ?? node;
    push({
      line: lineOf(at),
      endLine: endLineOf(node),
      text: errorEvent
        ? `.${method}(${args[0]!.text}, ${handler.text})`
        : (node.text.split('\n').pop()?.trim() ?? ''),
      kind: 'empty-catch',
    });
  }
}

// ----------------------------------------------------------------------------------- local functions

function jsFunctions(declarations: readonly Node[]): Set<string> {
  const out = new Set<string>();
  for (const n of declarations) {
    if (n.type !== 'variable_declarator') {
      const name = n.childForFieldName('name')?.text;
      if (name) out.add(name);
      continue;
    }
    const value = n?.childForFieldName('value');
    const name = n?.childForFieldName('name');
    if (value && name?.type === 'identifier' && JS_HANDLER.test(value.type)) out.add(name.text);
  }
  return out;
}

function pythonFunctions(root: Node): Set<string> {
  const out = new Set<string>();
  for (const n of root.descendantsOfType('function_definition')) {
    const name = n?.childForFieldName('name')?.text;
    if (name) out.add(name);
  }
  return out;
}
