// JavaScript/TypeScript extractor: imports and require() aliases, destructuring of process/env, constant
// strings through concatenation and template literals, calls with their option objects as named arguments.
import type { Node, Tree } from '../treesitter.js';
import { refilledWorklist } from './loop-bounds.js';
import type { Call, Value } from './model.js';
import { T, Taint } from './model.js';
import { READ_CALL_RE, WRITE_CALL_RE } from './names.js';
import { shellQuote } from './python.js';
import {
  commandWords,
  type Extraction,
  endLineOf,
  fedCommand,
  isDecodeCallee,
  isExecCallee,
  isNetworkCallee,
  isShellCallee,
  lineOf,
  type ProgramScope,
  ScriptExtractor,
  shellOutputTaint,
  sourceCallTaint,
  taintOfBits,
} from './script.js';
import {
  candidates,
  decodeLiteral,
  EMPTY_VALUE,
  envNameBits,
  joinParts,
  pathTaint,
  readTaint,
  unescapeLiteral,
  unionTaint,
} from './values.js';

const MODULE_ALIASES: Record<string, string> = {
  'node-fetch': 'fetch',
  'cross-fetch': 'fetch',
  'isomorphic-fetch': 'fetch',
  'undici.fetch': 'fetch',
  'fs/promises': 'fs.promises',
  'fs-extra': 'fs',
  'graceful-fs': 'fs',
  'child-process-promise': 'child_process',
};
const GLOBAL_PREFIX = /^(globalThis|window|global|self)\./;
const MUTATORS = new Set(['push', 'unshift', 'set', 'add', 'assign', 'write', 'append', 'concat']);
/** Signs that a retry loop counts attempts or watches a deadline. */
const RETRY_BOUND =
  /\b(attempts?|retries|tries|tries_left|max\w*|limit|deadline)\b|\+\+|[+-]=\s*1\b|Date\.now\(|performance\.now\(/i;
const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
]);
const PASS_TYPES = new Set([
  'parenthesized_expression',
  'await_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'type_assertion',
]);

export function extractJavaScript(tree: Tree, program?: ProgramScope): Extraction {
  const x = new JavaScriptExtractor(program);
  x.walk(tree.rootNode);
  return x.finish();
}

function moduleName(spec: string): string {
  const bare = spec.replace(/^node:/, '');
  return MODULE_ALIASES[bare] ?? bare;
}

function canonicalName(name: string): string {
  let n = name;
  while (GLOBAL_PREFIX.test(n)) n = n.replace(GLOBAL_PREFIX, '');
  for (const [from, to] of Object.entries(MODULE_ALIASES))
    if (n === from || n.startsWith(`${from}.`)) n = to + n.slice(from.length);
  return n.replace(/^new /, '');
}

/** A parameter's name (`x`, `x = 1`, `...rest`, TS `x: T`); '' for a destructuring pattern. */
function parameterName(p: Node | null): string {
  if (!p) return '';
  if (p.type === 'identifier') return p.text;
  if (p.type === 'assignment_pattern') return parameterName(p.childForFieldName('left'));
  if (p.type === 'rest_pattern') {
    const inner = parameterName(p.namedChildren[0] ?? null);
    return inner ? `*${inner}` : '';
  }
  if (p.type === 'required_parameter' || p.type === 'optional_parameter')
    return parameterName(p.childForFieldName('pattern'));
  return '';
}

/** Objects every runtime provides: `console.log` is not the script's own `log`. */
const RUNTIME_GLOBALS = [
  'console',
  'JSON',
  'Math',
  'Object',
  'Array',
  'Promise',
  'Buffer',
  'process',
  'Reflect',
];

class JavaScriptExtractor extends ScriptExtractor {
  private readonly loopNodes: Node[] = [];

  constructor(program?: ProgramScope) {
    super(program);
    for (const g of RUNTIME_GLOBALS) this.importedRoots.add(g);
  }

  walk(root: Node): void {
    const stack: { node: Node; top: boolean; guarded: boolean }[] = [
      { node: root, top: true, guarded: false },
    ];
    while (stack.length > 0) {
      const { node, top, guarded } = stack.pop()!;
      let childTop = top;
      if (FUNCTIONS.has(node.type)) childTop = false;
      switch (node.type) {
        case 'ERROR':
          this.out.hasErrors = true;
          break;
        case 'identifier':
        case 'property_identifier':
          this.out.names.add(node.text);
          break;
        case 'import_statement':
          this.recordImport(node);
          break;
        case 'variable_declarator':
          this.bind(node.childForFieldName('name'), node.childForFieldName('value'));
          this.recordFunction(node.childForFieldName('name'), node.childForFieldName('value'));
          break;
        case 'function_declaration':
        case 'method_definition':
          this.recordFunction(node.childForFieldName('name'), node);
          break;
        case 'pair':
          this.recordFunction(node.childForFieldName('key'), node.childForFieldName('value'));
          break;
        case 'assignment_expression':
        case 'augmented_assignment_expression': {
          const left = node.childForFieldName('left');
          this.bind(left, node.childForFieldName('right'));
          // `exports.send = function (payload) {…}`
          if (left?.type === 'member_expression')
            this.recordFunction(left.childForFieldName('property'), node.childForFieldName('right'));
          break;
        }
        case 'for_in_statement': {
          const left = node.childForFieldName('left');
          const right = node.childForFieldName('right');
          for (const id of left ? [left, ...left.descendantsOfType('identifier')] : [])
            if (id?.type === 'identifier' && right) this.loopVars.set(id.text, [right]);
          break;
        }
        case 'call_expression':
        case 'new_expression':
          this.addSite(node, top, guarded);
          this.recordMutation(node);
          break;
        case 'while_statement':
        case 'for_statement':
        case 'do_statement':
          this.loopNodes.push(node);
          break;
        case 'catch_clause':
          this.recordCatch(node, node.childForFieldName('body'));
          break;
      }
      const children = node.namedChildren;
      for (let i = children.length - 1; i >= 0; i--) {
        const c = children[i];
        if (!c) continue;
        const g = guarded || (node.type === 'try_statement' && c.id === node.childForFieldName('body')?.id);
        stack.push({ node: c, top: childTop, guarded: FUNCTIONS.has(node.type) ? false : g });
      }
    }
  }

  finish(): Extraction {
    // Arguments first: every call's values are evaluated after all parameters are bound.
    for (const s of this.sites) this.bindCall(s.node);
    for (const s of this.sites) {
      const call = this.toCall(s.node, s.topLevel, s.guarded);
      this.out.calls.push(call);
      // The words of the command the call runs: `spawnSync('ssh', [host, 'cat'])` or `execSync('nc host 9000')`.
      const argNodes = this.argNodes(s.node);
      const command = isShellCallee(call.callee) ? this.commandString(call.callee, argNodes) : null;
      const fed = command ? fedCommand(call, commandWords(command)) : null;
      if (fed) this.out.calls.push(fed);
    }
    for (const l of this.loopNodes) this.recordLoop(l);
    return this.out;
  }

  /** Return expressions of a local function (declaration, function expression or arrow). */
  private recordFunction(name: Node | null, fn: Node | null): void {
    if (
      (name?.type !== 'identifier' && name?.type !== 'property_identifier') ||
      !fn ||
      !FUNCTIONS.has(fn.type)
    )
      return;
    const body = fn.childForFieldName('body');
    if (!body) return;
    const returns =
      body.type === 'statement_block'
        ? body
            .descendantsOfType('return_statement')
            .flatMap((r) => (r?.namedChildren[0] ? [r.namedChildren[0]] : []))
        : [body];
    for (const r of returns.slice(0, 16)) this.assign(`${name.text}()`, r);
    const single = fn.childForFieldName('parameter');
    const list = single ? [single] : (fn.childForFieldName('parameters')?.namedChildren ?? []);
    this.recordParams(name.text, list.map(parameterName), fn);
  }

  protected override memberOf(fn: Node): { method: string; receiver: Node | null } | null {
    const method = fn.type === 'member_expression' ? fn.childForFieldName('property')?.text : null;
    return method ? { method, receiver: fn.childForFieldName('object') } : null;
  }

  private bindCall(node: Node): void {
    if (node.type !== 'call_expression') return;
    const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter(
      (a): a is Node => a !== null && a.type !== 'comment',
    );
    this.bindArguments(node, args, new Map());
  }

  private recordImport(node: Node): void {
    const source = node.childForFieldName('source');
    const spec = source ? this.valueOf(source).str : null;
    if (!spec) return;
    const mod = moduleName(spec);
    this.importedRoots.add(mod.split('.')[0]!);
    this.out.names.add(mod);
    if (/^https?:\/\//i.test(spec)) this.out.calls.push(importCall(node, spec));
    const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
    for (const c of clause?.namedChildren ?? []) {
      if (!c) continue;
      if (c.type === 'identifier') {
        this.aliases.set(c.text, mod);
        this.noteImport(c.text, node);
      } else if (c.type === 'namespace_import') {
        const id = c.namedChildren[0];
        if (id) this.aliases.set(id.text, mod);
        if (id) this.noteImport(id.text, node);
      } else if (c.type === 'named_imports') {
        for (const s of c.namedChildren) {
          if (s?.type !== 'import_specifier') continue;
          const name = s.childForFieldName('name')?.text;
          const alias = s.childForFieldName('alias')?.text ?? name;
          if (name && alias) this.aliases.set(alias, canonicalName(`${mod}.${name}`));
          if (alias) this.noteImport(alias, node);
        }
      }
    }
  }

  /** Binds a declarator or assignment target: plain names, and destructuring of objects (`{env} = process`). */
  private bind(target: Node | null, value: Node | null): void {
    if (!target || !value) return;
    const valueCanon = this.canon(value);
    // `const x = require('./x')`, `const { f } = require('./x')`: names from another module of the program.
    if (value.type === 'call_expression' && value.childForFieldName('function')?.text === 'require')
      for (const id of target.type === 'identifier'
        ? [target]
        : target.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']))
        if (id) this.noteImport(id.text, target);
    if (target.type === 'identifier') {
      this.assign(target.text, value);
      if (
        valueCanon &&
        /^(identifier|member_expression|subscript_expression|call_expression|new_expression|await_expression)$/.test(
          value.type,
        )
      )
        this.aliases.set(target.text, valueCanon);
      return;
    }
    if (target.type === 'object_pattern') {
      for (const p of target.namedChildren) {
        if (!p) continue;
        const key =
          p.type === 'shorthand_property_identifier_pattern' ? p.text : p.childForFieldName('key')?.text;
        const local = p.type === 'shorthand_property_identifier_pattern' ? p : p.childForFieldName('value');
        if (
          key &&
          (local?.type === 'identifier' || local?.type === 'shorthand_property_identifier_pattern')
        ) {
          // `{env} = process` is an alias of process.env; without a canonical name, the value flows in.
          if (valueCanon) this.aliases.set(local.text, `${valueCanon}.${key}`);
          else this.assign(local.text, value);
        }
      }
      return;
    }
    if (target.type === 'array_pattern') {
      for (const id of target.descendantsOfType('identifier')) if (id) this.assign(id.text, value);
      return;
    }
    let base: Node | null = target;
    while (base && (base.type === 'member_expression' || base.type === 'subscript_expression'))
      base = base.childForFieldName('object');
    if (base?.type === 'identifier') this.assign(base.text, value);
  }

  private recordMutation(call: Node): void {
    const fn = call.childForFieldName('function');
    if (fn?.type !== 'member_expression') return;
    const method = fn.childForFieldName('property')?.text ?? '';
    const obj = fn.childForFieldName('object');
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    if (MUTATORS.has(method) && obj?.type === 'identifier')
      for (const a of args) if (a) this.assign(obj.text, a);
    // Object.assign(target, source)
    if (this.canon(fn) === 'Object.assign' && args[0]?.type === 'identifier')
      for (const a of args.slice(1)) if (a) this.assign(args[0].text, a);
    // arr.map((x) => …): the callback parameter ranges over the array (and a chain carries its taint).
    if (/^(map|forEach|filter|flatMap|some|every|find|reduce)$/.test(method) && obj) {
      const cb = args.find((a) => a && FUNCTIONS.has(a.type));
      const params = cb?.childForFieldName('parameters') ?? cb?.childForFieldName('parameter');
      const ids = params
        ? params.type === 'identifier'
          ? [params]
          : params.descendantsOfType('identifier')
        : [];
      const first = method === 'reduce' ? ids[1] : ids[0];
      if (first) this.loopVars.set(first.text, [...(this.loopVars.get(first.text) ?? []), obj]);
    }
    if (method === 'catch') {
      const handler = args[0];
      const body = handler?.childForFieldName('body');
      if (handler && FUNCTIONS.has(handler.type)) {
        // `.catch(() => undefined)` swallows as surely as an empty block.
        if (
          body &&
          /^(undefined|null|void 0|false|\{\s*\})$/.test(body.text.trim()) &&
          body.type !== 'statement_block'
        )
          this.out.swallows.push({
            // The `.catch(` itself, not the start of a long call chain.
            line: lineOf(fn.childForFieldName('property') ?? call),
            endLine: endLineOf(call),
            text: call.text.split('\n').pop()?.trim() ?? '',
            kind: 'empty-catch',
          });
        else this.recordCatch(fn.childForFieldName('property') ?? call, body ?? null);
      }
    }
  }

  private recordCatch(node: Node, body: Node | null): void {
    if (body?.type !== 'statement_block') return;
    if (body.namedChildren.some((c) => c && c.type !== 'comment')) return;
    this.out.swallows.push({
      line: lineOf(node),
      endLine: endLineOf(node),
      text: node.text.split('\n')[0] ?? '',
      kind: 'empty-catch',
    });
  }

  private recordLoop(node: Node): void {
    const cond = node.childForFieldName('condition');
    const condText = cond?.text.replace(/^\(|\)$|;$/g, '').trim() ?? '';
    const infinite = node.type === 'for_statement' ? condText === '' : /^(true|1|!0|!false)$/.test(condText);
    const body = node.childForFieldName('body');
    if (!body) return;
    const worklist = node.type === 'for_statement' ? null : refilledWorklist(condText, body.text, infinite);
    // A condition that compares or counts is a bound; `while (!res.ok)` is not.
    if (
      !worklist &&
      !infinite &&
      (node.type === 'for_statement' ||
        /[<>]|\blength\b|\bmax|\blimit|\battempt|\bretries|\btries/i.test(condText))
    )
      return;
    let exits = false;
    let leaves = false;
    let network = false;
    let retries = false;
    const stack: { n: Node; nested: boolean }[] = [{ n: body, nested: false }];
    let budget = 5000;
    while (stack.length > 0 && budget-- > 0) {
      const { n, nested } = stack.pop()!;
      if (FUNCTIONS.has(n.type) && n.type !== 'arrow_function') continue;
      if (n.type === 'return_statement' || n.type === 'throw_statement') leaves = true;
      if (n.type === 'break_statement' && !nested) exits = true;
      if (n.type === 'try_statement') retries = true;
      if (n.type === 'call_expression') {
        const callee = this.canon(n.childForFieldName('function')) ?? '';
        if (/^process\.exit$/.test(callee)) leaves = true;
        if (/(^|\.)(setTimeout|sleep|delay|wait)$|retry/i.test(callee)) retries = true;
        if (isNetworkCallee(callee)) network = true;
      }
      const inner =
        nested ||
        /^(for_statement|for_in_statement|while_statement|do_statement|switch_statement)$/.test(n.type);
      for (const c of n.namedChildren) if (c) stack.push({ n: c, nested: inner && n !== body });
    }
    exits ||= leaves;
    if (!infinite && /\+\+|--|[+-]=\s*1\b/.test(body.text)) exits = true;
    // A retry loop around the network that leaves only on success retries forever when the service is down.
    if (network && retries && !RETRY_BOUND.test(body.text)) exits = false;
    // A work list refilled by its own body from the network, or replaced by a re-run, ends only when the data
    // runs out; one that is only drained, or refilled from local data (a directory walk), is finite.
    if (worklist === 'reassigned' || (worklist === 'queued' && network)) exits = leaves;
    else if (worklist) exits = true;
    const header = node.text.split('\n')[0] ?? '';
    const fact = { line: lineOf(node), endLine: endLineOf(node), text: header, exits, network, retries };
    this.out.loops.push({ ...fact, conditional: !infinite });
  }

  override canon(node: Node | null | undefined): string | null {
    if (!node) return null;
    if (PASS_TYPES.has(node.type)) return this.canon(node.namedChildren[0]);
    switch (node.type) {
      case 'identifier':
        return canonicalName(this.aliases.get(node.text) ?? node.text);
      case 'this':
        return 'this';
      case 'member_expression': {
        const base = this.canon(node.childForFieldName('object')) ?? '?';
        return canonicalName(`${base}.${node.childForFieldName('property')?.text ?? '?'}`);
      }
      case 'subscript_expression': {
        const base = this.canon(node.childForFieldName('object')) ?? '?';
        const key = this.valueOf(node.childForFieldName('index')).str;
        return key && !key.includes('\u2026') ? canonicalName(`${base}.${key}`) : `${base}[]`;
      }
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        const args = node.childForFieldName('arguments')?.namedChildren ?? [];
        if (fn?.type === 'identifier' && fn.text === 'require' && args[0]) {
          const spec = this.valueOf(args[0]).str;
          if (spec) this.importedRoots.add(moduleName(spec).split('.')[0]!);
          return spec ? moduleName(spec) : null;
        }
        const name = this.canon(fn);
        return name ? `${name}()` : null;
      }
      case 'new_expression': {
        const name = this.canon(node.childForFieldName('constructor'));
        return name ? `${name}()` : null;
      }
      default:
        return null;
    }
  }

  /** Taint or string of canonical names that are sources by themselves. */
  private sourceValue(canon: string, text: string, line: number): Value | null {
    if (canon === 'process.env' || canon === 'Deno.env.toObject()')
      return { ...EMPTY_VALUE, text, taint: Taint.of(T.ENV_ALL, line) };
    const env = /^process\.env\.(.+)$/.exec(canon);
    if (env) {
      const key = env[1]!;
      return {
        ...EMPTY_VALUE,
        text,
        str: key === 'HOME' || key === 'USERPROFILE' ? '~' : null,
        taint: taintOfBits(envNameBits([key]), line),
      };
    }
    if (/^process\.(argv|stdin)\b/.test(canon))
      return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
    if (canon === 'os.homedir()') return { ...EMPTY_VALUE, text, str: '~' };
    return null;
  }

  protected evaluate(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    if (PASS_TYPES.has(node.type)) return { ...this.valueOf(node.namedChildren[0]), text };
    switch (node.type) {
      case 'string': {
        const body = text.slice(1, -1);
        const str = unescapeLiteral(body);
        return { text, str, alts: [], taint: pathTaint(str, line) };
      }
      case 'template_string': {
        const parts: (string | null)[] = [];
        let taint = Taint.NONE;
        let cursor = node.startIndex + 1;
        for (const c of node.namedChildren) {
          if (c?.type !== 'template_substitution') continue;
          parts.push(unescapeLiteral(text.slice(cursor - node.startIndex, c.startIndex - node.startIndex)));
          const v = this.valueOf(c.namedChildren[0]);
          parts.push(v.str);
          taint = taint.union(v.taint);
          cursor = c.endIndex;
        }
        parts.push(unescapeLiteral(text.slice(cursor - node.startIndex, -1)));
        const str = joinParts(parts);
        return { text, str, alts: [], taint: str ? taint.union(pathTaint(str, line)) : taint };
      }
      case 'number':
        return { ...EMPTY_VALUE, text, str: text };
      case 'shorthand_property_identifier':
        return this.variableValue(node.text, text);
      case 'identifier': {
        // Destructured or imported names are sources themselves; assigned ones carry their value's source line.
        const alias = this.assigned(node.text) ? undefined : this.aliases.get(node.text);
        const src = alias ? this.sourceValue(canonicalName(alias), text, line) : null;
        return src ?? this.variableValue(node.text, text);
      }
      case 'binary_expression': {
        const l = this.valueOf(node.childForFieldName('left'));
        const r = this.valueOf(node.childForFieldName('right'));
        const op = node.childForFieldName('operator')?.text;
        const str = op === '+' ? joinParts([l.str, r.str]) : null;
        const alts = op === '||' || op === '??' ? candidates(l).concat(candidates(r)) : [];
        return {
          text,
          str,
          alts,
          taint: l.taint.union(r.taint).union(str ? pathTaint(str, line) : Taint.NONE),
        };
      }
      case 'member_expression':
      case 'subscript_expression': {
        const canon = this.canon(node);
        const src = canon ? this.sourceValue(canon, text, line) : null;
        if (src) return src;
        const objNode = node.childForFieldName('object');
        if (node.type === 'subscript_expression' && this.canon(objNode) === 'process.env') {
          const key = this.valueOf(node.childForFieldName('index'));
          return {
            ...EMPTY_VALUE,
            text,
            taint: taintOfBits(envNameBits(candidates(key)), line),
          };
        }
        const obj = this.valueOf(objNode);
        const idx =
          node.type === 'subscript_expression'
            ? this.valueOf(node.childForFieldName('index')).taint
            : Taint.NONE;
        return { ...EMPTY_VALUE, text, taint: obj.taint.union(idx) };
      }
      case 'call_expression':
      case 'new_expression':
        return this.callValue(node);
      case 'array': {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        return { text, str: null, alts: [], taint: unionTaint(parts) };
      }
      case 'ternary_expression': {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        return { text, str: null, alts: parts.flatMap(candidates), taint: unionTaint(parts) };
      }
      default: {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        return { text, str: null, alts: [], taint: unionTaint(parts) };
      }
    }
  }

  private argNodes(node: Node): Node[] {
    const args = node.childForFieldName('arguments');
    if (!args) return [];
    // Tagged templates (zx's $`cmd`) pass the template itself.
    if (args.type === 'template_string') return [args];
    return args.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  }

  private callValue(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    const fnNode = node.childForFieldName('function') ?? node.childForFieldName('constructor');
    const callee = (this.canon(fnNode) ?? '').replace(/\(\)$/, '');
    const args = this.argNodes(node);
    const values = args.map((a) => this.valueOf(a));
    const first = values[0] ?? EMPTY_VALUE;
    const objNode = fnNode?.type === 'member_expression' ? fnNode.childForFieldName('object') : null;
    const method =
      fnNode?.type === 'member_expression' ? (fnNode.childForFieldName('property')?.text ?? '') : '';
    const passThrough = unionTaint(values).union(
      fnNode?.type === 'member_expression' ? this.valueOf(objNode).taint : Taint.NONE,
    );

    const src = this.sourceValue(`${callee}()`, text, line);
    if (src) return src;
    // `new URL("/v1/e", BASE)`: the request goes to BASE's host.
    if (callee === 'URL' && values[1]?.str && first.str !== null) {
      const base = values[1].str;
      const str = /^[a-z]+:\/\//i.test(first.str)
        ? first.str
        : `${base.replace(/\/+$/, '')}/${first.str.replace(/^\/+/, '')}`;
      return { text, str, alts: [], taint: passThrough };
    }
    if (/^path(\.posix|\.win32)?\.(join|resolve|normalize)$/.test(callee)) {
      const joined = joinParts(
        values.map((v) => v.str),
        '/',
      );
      return {
        text,
        str: joined,
        alts: [],
        taint: passThrough.union(joined ? pathTaint(joined, line) : Taint.NONE),
      };
    }
    if (callee === 'String.fromCharCode') {
      const codes = args.flatMap((a) =>
        a.type === 'spread_element' ? (a.namedChildren[0]?.namedChildren ?? []) : [a],
      );
      const chars = codes.map((c) =>
        c && /^\d+$/.test(c.text) ? String.fromCharCode(Number(c.text)) : null,
      );
      return { text, str: joinParts(chars), alts: [], taint: passThrough };
    }
    if (method === 'join' && objNode?.type === 'array') {
      const items = this.elementsOf(objNode);
      const sep = first.str ?? ',';
      return {
        text,
        str: items.length === objNode.namedChildCount ? items.join(sep) : null,
        alts: [],
        taint: passThrough,
      };
    }
    if (method === 'toString' || method === 'trim') {
      const obj = this.valueOf(objNode);
      return { ...obj, text };
    }
    const bufferCodec = callee === 'Buffer.from' ? values[1]?.str : null;
    if (
      callee === 'atob' ||
      isDecodeCallee(callee) ||
      (bufferCodec && /^(base64|base64url|hex)$/.test(bufferCodec))
    ) {
      const kind =
        callee === 'atob' || bufferCodec?.startsWith('base64')
          ? 'base64'
          : bufferCodec === 'hex'
            ? 'hex'
            : null;
      const str = kind && first.str ? decodeLiteral(kind, first.str) : null;
      return { text, str, alts: [], taint: passThrough.union(Taint.of(T.DECODED, line)) };
    }
    if (READ_CALL_RE.test(callee) && !WRITE_CALL_RE.test(callee))
      return { text, str: null, alts: [], taint: passThrough.union(readTaint(first, line)) };
    const source = sourceCallTaint(callee, first.str, line);
    if (source) return { ...EMPTY_VALUE, text, taint: source };
    const own = this.ownFunction(fnNode);
    const ret = own ? this.returned(own, text) : null;
    if (ret) return { text, str: ret.str, alts: ret.alts, taint: passThrough.union(ret.taint) };
    if (isShellCallee(callee)) {
      const command = this.commandString(callee, args);
      return {
        ...EMPTY_VALUE,
        text,
        taint: passThrough.union(command ? shellOutputTaint(command, line) : Taint.NONE),
      };
    }
    return { text, str: null, alts: [], taint: passThrough };
  }

  /**
   * Properties an object spread brings in (`{ ...OPTS, path }` with `const OPTS = { hostname: … }`), so request
   * options merged from a constant still name their host and body.
   */
  private spreadPairs(node: Node | null): [string, Value][] {
    const objects =
      node?.type === 'object'
        ? [node]
        : node?.type === 'identifier'
          ? (this.assigned(node.text) ?? []).filter((n) => n.type === 'object')
          : [];
    const out: [string, Value][] = [];
    for (const obj of objects.slice(0, 4))
      for (const p of obj.namedChildren) {
        if (p?.type !== 'pair') continue;
        const key = p.childForFieldName('key');
        const k = key?.type === 'string' ? this.valueOf(key).str : key?.text;
        if (k) out.push([k, this.valueOf(p.childForFieldName('value'))]);
      }
    return out;
  }

  /** exec('cmd') as is; spawn('cmd', ['a', 'b']) joined with shell quoting. */
  private commandString(callee: string, args: Node[]): string | null {
    const first = this.valueOf(args[0]).str;
    if (!first) return null;
    if (/spawn|execFile|fork|execa$/.test(callee) && args[1]?.type === 'array') {
      const rest = args[1].namedChildren.map((c) => this.valueOf(c).str ?? '\u2026');
      return [first, ...rest].map(shellQuote).join(' ');
    }
    return first;
  }

  private toCall(node: Node, topLevel: boolean, guarded: boolean): Call {
    const fnNode = node.childForFieldName('function') ?? node.childForFieldName('constructor');
    let callee = (this.canon(fnNode) ?? fnNode?.text ?? '').replace(/\(\)$/, '');
    if (node.type === 'new_expression' && callee === 'Function') callee = 'Function';
    if (fnNode?.type === 'import') callee = 'import';
    const argNodes = this.argNodes(node);
    const args: Value[] = [];
    const named = new Map<string, Value>();
    for (const a of argNodes) {
      args.push(this.valueOf(a));
      if (a.type === 'object')
        for (const p of a.namedChildren) {
          if (p?.type === 'pair') {
            const key = p.childForFieldName('key');
            const k = key?.type === 'string' ? this.valueOf(key).str : key?.text;
            if (k) named.set(k, this.valueOf(p.childForFieldName('value')));
          } else if (p?.type === 'shorthand_property_identifier') named.set(p.text, this.variableAt(p));
          else if (p?.type === 'spread_element')
            for (const [k, v] of this.spreadPairs(p.namedChildren[0] ?? null)) named.set(k, v);
        }
    }
    const line = lineOf(node);
    if (isShellCallee(callee)) {
      this.embedCommand(this.commandString(callee, argNodes), args[0], callee, line);
    } else if (isExecCallee(callee)) {
      const code = callee === 'Function' ? args[args.length - 1] : args[0];
      if (code?.str && !code.str.startsWith('\u2026')) {
        const decoded = code.taint.has(T.DECODED);
        this.out.embedded.push({
          language: 'javascript',
          text: code.str,
          line,
          origin: decoded
            ? `code decoded at line ${code.taint.lineOf(T.DECODED)} and run by ${callee}()`
            : `code run by ${callee}()`,
        });
      }
    }
    return {
      kind: 'call',
      callee,
      args,
      named,
      receiver:
        fnNode?.type === 'member_expression' ? this.valueOf(fnNode.childForFieldName('object')) : null,
      output: this.valueOf(node).taint,
      stdin: Taint.NONE,
      pipedTo: [],
      redirectTo: null,
      line,
      endLine: endLineOf(node),
      text: node.text,
      topLevel,
      guarded,
      background: false,
      origin: null,
    };
  }
}

/** `import x from "https://…"`: recorded as a call to `import` so the remote-code rule sees it. */
function importCall(node: Node, spec: string): Call {
  const line = lineOf(node);
  return {
    kind: 'call',
    callee: 'import',
    args: [{ text: spec, str: spec, alts: [], taint: Taint.NONE }],
    named: new Map(),
    receiver: null,
    output: Taint.of(T.FETCHED, line),
    stdin: Taint.NONE,
    pipedTo: [],
    redirectTo: null,
    line,
    endLine: endLineOf(node),
    text: node.text,
    topLevel: true,
    guarded: false,
    background: false,
    origin: null,
  };
}
