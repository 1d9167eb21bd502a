// Python extractor: one walk over the tree collects imports, aliases, assignments, calls, loops and
// swallowed exceptions; calls are then evaluated into canonical names and resolved argument values.
import type { Node, Tree } from '../treesitter.js';
import { refilledWorklist } from './loop-bounds.js';
import type { Call, Value } from './model.js';
import { T, Taint } from './model.js';
import { READ_CALL_RE, SOCKET_READ_RE, WRITE_CALL_RE } from './names.js';
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

const MUTATORS = new Set([
  'append',
  'extend',
  'update',
  'insert',
  'add',
  'write',
  'writelines',
  'setdefault',
  // An email message carries what is put into it.
  'set_content',
  'add_attachment',
  'attach',
  'set_payload',
]);
const PATH_PASS =
  /^(os\.path\.(expanduser|expandvars|abspath|normpath|realpath)|os\.fspath|str|pathlib\.(Pure)?Path|Path)$/;
const PATH_METHODS = new Set([
  'expanduser',
  'resolve',
  'absolute',
  'open',
  'read_text',
  'read_bytes',
  'iterdir',
]);
/** Signs that a retry loop counts attempts or watches a deadline. */
const RETRY_BOUND =
  /\b(attempts?|retries|tries|tries_left|max_\w+|limit|deadline)\b|\+\+|[+-]=\s*1\b|\brange\(|monotonic\(|Date\.now\(|time\.time\(/i;
const EXITS = /^(sys\.exit|exit|quit|os\._exit)$/;
/** A value that reads as "nothing there": the caller cannot tell the failure from an empty result. */
const NEUTRAL_RETURN = /^return(\s+(None|False|0|''|""|\{\s*\}|\[\s*\]|\(\s*\)|dict\(\)|list\(\)|set\(\)))?$/;

/** `except Exception: return {}`: the handler's only statement returns an empty or neutral value. */
function returnsNeutral(stmts: readonly (Node | null)[]): boolean {
  return (
    stmts.length === 1 && stmts[0]?.type === 'return_statement' && NEUTRAL_RETURN.test(stmts[0].text.trim())
  );
}
const SLEEPS = /^(time\.sleep|asyncio\.sleep|sleep)$/;
/** What a web framework hands a request handler: input from whoever sent the request. */
const WEB_REQUEST_DATA =
  /^(flask|quart|bottle|sanic)\.request\.(args|form|json|data|values|files|cookies|headers|get_json|get_data)$/;

export function extractPython(tree: Tree, program?: ProgramScope): Extraction {
  const x = new PythonExtractor(program);
  x.walk(tree.rootNode);
  return x.finish();
}

class PythonExtractor extends ScriptExtractor {
  private readonly whileNodes: Node[] = [];
  private readonly managed = new Set<number>();

  walk(root: Node): void {
    const stack: { node: Node; top: boolean; guarded: boolean }[] = [
      { node: root, top: true, guarded: false },
    ];
    while (stack.length > 0) {
      const { node, top, guarded } = stack.pop()!;
      let childTop = top;
      let childGuarded = guarded;
      switch (node.type) {
        case 'ERROR':
          this.out.hasErrors = true;
          break;
        case 'function_definition':
        case 'lambda':
          childTop = false;
          childGuarded = false;
          if (node.type === 'function_definition') this.recordFunction(node);
          break;
        case 'identifier':
          this.out.names.add(node.text);
          break;
        case 'import_statement':
        case 'import_from_statement':
          this.recordImport(node);
          break;
        case 'assignment':
        case 'augmented_assignment':
        case 'named_expression':
          this.recordAssignment(node);
          break;
        case 'for_statement':
        case 'for_in_clause':
          this.recordLoopTarget(node.childForFieldName('left'), node.childForFieldName('right'));
          break;
        case 'as_pattern': {
          const target = node.childForFieldName('alias')?.namedChildren[0];
          const value = node.namedChildren[0];
          if (target?.type === 'identifier' && value) {
            this.assign(target.text, value);
            // `with smtplib.SMTP(host) as s:` names the client, as `s = smtplib.SMTP(host)` would.
            const canon = value.type === 'call' ? this.canon(value) : null;
            if (canon && !this.aliases.has(target.text)) this.aliases.set(target.text, canon);
          }
          if (value?.type === 'call') this.managed.add(value.id);
          break;
        }
        case 'with_item': {
          const value = node.childForFieldName('value');
          if (value?.type === 'call') this.managed.add(value.id);
          break;
        }
        case 'call':
          this.addSite(node, top, guarded);
          this.recordMutation(node);
          break;
        case 'while_statement':
          this.whileNodes.push(node);
          break;
        case 'except_clause':
          this.recordExcept(node);
          break;
      }
      const children = node.namedChildren;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (!child) continue;
        // Only the try body is guarded; handlers and finally run unguarded.
        const g = node.type === 'try_statement' ? childGuarded || child.type === 'block' : childGuarded;
        stack.push({ node: child, top: childTop, guarded: g });
      }
    }
  }

  finish(): Extraction {
    // Arguments first: every call's values are evaluated after all parameters are bound.
    for (const site of this.sites) this.bindCall(site.node);
    for (const site of this.sites) {
      const call = this.toCall(site.node, site.topLevel, site.guarded);
      this.out.calls.push(call);
      // The words of the command a call fed `input` runs: a list (`['ssh', host, 'cat']`) or a shell string.
      const first = call.named.has('input') ? positional(site.node)[0] : undefined;
      const words =
        first?.type === 'list' || first?.type === 'tuple'
          ? first.namedChildren.map((c) => this.valueOf(c))
          : first
            ? commandWords(this.valueOf(first).str ?? '')
            : [];
      const fed = words.length ? fedCommand(call, words) : null;
      if (fed) this.out.calls.push(fed);
    }
    for (const loop of this.whileNodes) this.recordLoop(loop);
    return this.out;
  }

  /** A local function's return expressions (and yields), so `data = collect()` carries what collect() returns. */
  private recordFunction(node: Node): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (!name || !body) return;
    const returns = body
      .descendantsOfType(['return_statement', 'yield'])
      .flatMap((r) => (r?.namedChildren[0] ? [r.namedChildren[0]] : []));
    for (const r of returns.slice(0, 16)) this.assign(`${name}()`, r);
    const names: string[] = [];
    for (const p of node.childForFieldName('parameters')?.namedChildren ?? []) {
      if (!p) continue;
      const id =
        p.type === 'identifier'
          ? p
          : p.type === 'default_parameter' || p.type === 'typed_default_parameter'
            ? p.childForFieldName('name')
            : p.namedChildren[0];
      const splat = p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern';
      names.push(id?.type === 'identifier' ? `${splat ? '*' : ''}${id.text}` : '');
    }
    // A method's receiver is not an argument at the call site.
    if (names[0] === 'self' || names[0] === 'cls') names.shift();
    this.recordParams(name, names, node);
  }

  protected override memberOf(fn: Node): { method: string; receiver: Node | null } | null {
    const method = fn.type === 'attribute' ? fn.childForFieldName('attribute')?.text : null;
    return method ? { method, receiver: fn.childForFieldName('object') } : null;
  }

  private bindCall(node: Node): void {
    const keywords = new Map<string, Node>();
    for (const a of node.childForFieldName('arguments')?.namedChildren ?? []) {
      const value = a?.type === 'keyword_argument' ? a.childForFieldName('value') : null;
      const name = a?.childForFieldName('name')?.text;
      if (value && name) keywords.set(name, value);
    }
    this.bindArguments(node, positional(node), keywords);
  }

  private recordImport(node: Node): void {
    const module = node.type === 'import_from_statement' ? node.childForFieldName('module_name')?.text : null;
    for (const name of node.childrenForFieldName('name')) {
      if (!name) continue;
      const dotted = name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text;
      const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : null;
      if (!dotted) continue;
      const full = module ? `${module}.${dotted}` : dotted;
      const local = alias ?? (module ? dotted : dotted.split('.')[0]!);
      this.aliases.set(local, alias || module ? full : local);
      this.importedRoots.add(full.split('.')[0]!);
      this.noteImport(local, node);
      this.out.names.add(full);
    }
    if (module) this.out.names.add(module);
    if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) this.noteImport('*', node);
  }

  private recordAssignment(node: Node): void {
    const left = node.childForFieldName('left') ?? node.childForFieldName('name');
    const right = node.childForFieldName('right') ?? node.childForFieldName('value');
    if (!left || !right) return;
    if (left.type === 'identifier') {
      this.assign(left.text, right);
      if (node.type !== 'augmented_assignment') {
        const canon = this.aliasTarget(right);
        if (canon) this.aliases.set(left.text, canon);
      }
      return;
    }
    if (left.type === 'pattern_list' || left.type === 'tuple_pattern' || left.type === 'tuple') {
      const targets = left.namedChildren;
      const values = right.type === 'expression_list' || right.type === 'tuple' ? right.namedChildren : null;
      targets.forEach((t, i) => {
        if (t?.type === 'identifier') this.assign(t.text, values?.[i] ?? right);
      });
      return;
    }
    // `d[k] = v`, `obj.attr = v`: the container carries what is stored in it.
    const base = this.baseIdentifier(left);
    if (base) this.assign(base, right);
  }

  private recordLoopTarget(left: Node | null, right: Node | null): void {
    if (!left || !right) return;
    const ids = left.type === 'identifier' ? [left] : left.descendantsOfType('identifier');
    for (const id of ids) {
      if (!id) continue;
      const list = this.loopVars.get(id.text);
      if (list) list.push(right);
      else this.loopVars.set(id.text, [right]);
    }
  }

  /** `payload.append(secret)`, `data.update(os.environ)`: the container now holds the argument. */
  private recordMutation(call: Node): void {
    const fn = call.childForFieldName('function');
    if (fn?.type !== 'attribute') return;
    const method = fn.childForFieldName('attribute')?.text;
    const base = this.baseIdentifier(fn.childForFieldName('object'));
    if (!method || !base || !MUTATORS.has(method)) return;
    const args = call.childForFieldName('arguments');
    for (const arg of args?.namedChildren ?? []) if (arg) this.assign(base, arg);
  }

  private recordExcept(node: Node): void {
    const body = node.namedChildren.find((c) => c?.type === 'block');
    if (!body) return;
    const stmts = body.namedChildren.filter((c) => c && c.type !== 'comment');
    const empty = stmts.every(
      (s) => s?.type === 'pass_statement' || s?.type === 'continue_statement' || s?.text === '...',
    );
    if (!empty && !returnsNeutral(stmts)) return;
    const type = node.namedChildren.find((c) => c && c !== body && c.type !== 'comment');
    const typeName = type?.type === 'as_pattern' ? type.namedChildren[0]?.text : type?.text;
    const kind = !type
      ? 'bare-except'
      : /^\(?\s*(Base)?Exception\b/.test(typeName ?? '')
        ? 'broad-except'
        : null;
    if (!kind) return;
    this.out.swallows.push({ line: lineOf(node), endLine: endLineOf(node), text: node.text, kind });
  }

  private recordLoop(node: Node): void {
    const cond = node.childForFieldName('condition');
    const body = node.childForFieldName('body');
    if (!cond || !body) return;
    const infinite = cond.type === 'true' || (cond.type === 'integer' && cond.text !== '0');
    const worklist = refilledWorklist(cond.text, body.text, infinite);
    // A condition that compares or counts is a bound; `while not ok:` or `while queue:` is not.
    if (
      !worklist &&
      !infinite &&
      /[<>]|\brange\b|\blen\(|\bmax_|\blimit|\battempt|\bretries|\btries/i.test(cond.text)
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
      if (n.type === 'function_definition' || n.type === 'lambda') continue;
      if (n.type === 'return_statement' || n.type === 'raise_statement') leaves = true;
      if (n.type === 'break_statement' && !nested) exits = true;
      if (n.type === 'try_statement') retries = true;
      if (n.type === 'call') {
        const callee = this.canon(n.childForFieldName('function')) ?? '';
        if (EXITS.test(callee)) leaves = true;
        if (SLEEPS.test(callee)) retries = true;
        if (isNetworkCallee(callee) || (isShellCallee(callee) && /\b(curl|wget)\b/.test(n.text)))
          network = true;
      }
      const inner = nested || n.type === 'for_statement' || n.type === 'while_statement';
      for (const c of n.namedChildren) if (c) stack.push({ n: c, nested: inner && n !== body });
    }
    exits ||= leaves;
    if (!infinite && /(\+|-)=\s*1\b/.test(body.text)) exits = true;
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

  private baseIdentifier(node: Node | null | undefined): string | null {
    let n = node;
    while (n && (n.type === 'subscript' || n.type === 'attribute')) n = n.namedChildren[0];
    return n?.type === 'identifier' ? n.text : null;
  }

  /** Canonical name when an assignment makes an alias (`e = os.environ`, `s = getattr(os, "system")`). */
  private aliasTarget(node: Node): string | null {
    if (node.type === 'identifier' || node.type === 'attribute' || node.type === 'subscript')
      return this.canon(node);
    if (node.type === 'call') return this.canon(node);
    return null;
  }

  override canon(node: Node | null | undefined): string | null {
    if (!node) return null;
    switch (node.type) {
      case 'identifier':
        return this.aliases.get(node.text) ?? node.text;
      case 'attribute': {
        const base = this.canon(node.childForFieldName('object')) ?? '?';
        return stripBuiltins(`${base}.${node.childForFieldName('attribute')?.text ?? '?'}`);
      }
      case 'call': {
        const fn = this.canon(node.childForFieldName('function'));
        const args = positional(node);
        if (fn === 'getattr' && args[1]) {
          const attr = this.valueOf(args[1]).str;
          if (attr) return stripBuiltins(`${this.canon(args[0]) ?? '?'}.${attr}`);
        }
        if (fn === 'importlib.import_module') return this.valueOf(args[0]).str;
        if (fn === '__import__') {
          // `__import__('urllib.request')` returns the top package (`urllib`) unless a fromlist is given.
          const name = this.valueOf(args[0]).str;
          const fromlist =
            args[3] ??
            node
              .childForFieldName('arguments')
              ?.namedChildren.find(
                (a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'fromlist',
              );
          return name && !fromlist ? name.split('.')[0]! : name;
        }
        return fn ? `${fn}()` : null;
      }
      case 'subscript': {
        const base = this.canon(node.childForFieldName('value'));
        const key = this.valueOf(node.childForFieldName('subscript')).str;
        if (
          key &&
          base &&
          /^(globals\(\)|locals\(\)|vars\(\)|__builtins__(\.__dict__)?|builtins\.__dict__|sys\.modules)$/.test(
            base,
          )
        )
          return key;
        return base ? `${base}[]` : null;
      }
      case 'parenthesized_expression':
        return this.canon(node.namedChildren[0]);
      default:
        return null;
    }
  }

  protected evaluate(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    switch (node.type) {
      case 'string':
        return this.stringValue(node);
      case 'concatenated_string': {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        const str = joinParts(parts.map((p) => p.str));
        return {
          text,
          str,
          alts: [],
          taint: unionTaint(parts).union(str ? pathTaint(str, line) : Taint.NONE),
        };
      }
      case 'integer':
        return { ...EMPTY_VALUE, text, str: text };
      case 'identifier': {
        // `from os import environ as E`: an imported name can itself be a source.
        const alias = this.assigned(node.text) ? undefined : this.aliases.get(node.text);
        if (alias === 'os.environ') return { ...EMPTY_VALUE, text, taint: Taint.of(T.ENV_ALL, line) };
        if (alias === 'sys.argv') return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
        return this.variableValue(node.text, text);
      }
      case 'binary_operator': {
        const l = this.valueOf(node.childForFieldName('left'));
        const r = this.valueOf(node.childForFieldName('right'));
        const op = node.childForFieldName('operator')?.text;
        const str =
          op === '+'
            ? joinParts([l.str, r.str])
            : op === '/'
              ? joinParts([l.str, r.str], '/')
              : op === '%'
                ? l.str
                : null;
        return {
          text,
          str,
          alts: [],
          taint: l.taint.union(r.taint).union(str ? pathTaint(str, line) : Taint.NONE),
        };
      }
      case 'attribute': {
        const canon = this.canon(node);
        if (canon === 'os.environ') return { ...EMPTY_VALUE, text, taint: Taint.of(T.ENV_ALL, line) };
        if (canon === 'sys.argv' || canon === 'sys.stdin')
          return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
        if (canon === 'sys.executable') return { ...EMPTY_VALUE, text, str: 'python3' };
        if (canon && WEB_REQUEST_DATA.test(canon))
          return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
        const obj = this.valueOf(node.childForFieldName('object'));
        return { ...EMPTY_VALUE, text, taint: obj.taint };
      }
      case 'subscript': {
        const base = this.canon(node.childForFieldName('value'));
        const key = this.valueOf(node.childForFieldName('subscript'));
        if (base === 'os.environ') return envValue(text, key, line);
        if (base === 'sys.argv') return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
        const obj = this.valueOf(node.childForFieldName('value'));
        return { ...EMPTY_VALUE, text, taint: obj.taint.union(key.taint) };
      }
      case 'call':
        return this.callValue(node);
      case 'parenthesized_expression':
      case 'await':
        return { ...this.valueOf(node.namedChildren[0]), text };
      case 'conditional_expression': {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        const alts = parts.flatMap((p) => (p.str === null ? [] : [p.str]));
        return { text, str: null, alts, taint: unionTaint(parts) };
      }
      default: {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        return { text, str: null, alts: [], taint: unionTaint(parts) };
      }
    }
  }

  private stringValue(node: Node): Value {
    const start = node.namedChildren[0]?.text ?? '';
    const raw = /r/i.test(start.replace(/["']/g, ''));
    const parts: (string | null)[] = [];
    let taint = Taint.NONE;
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'string_content') parts.push(raw ? c.text : unescapeLiteral(c.text));
      else if (c.type === 'interpolation') {
        const v = this.valueOf(c.childForFieldName('expression'));
        parts.push(v.str);
        taint = taint.union(v.taint);
      }
    }
    const str = parts.length === 0 ? '' : joinParts(parts);
    return { text: node.text, str, alts: [], taint: str ? taint.union(pathTaint(str, lineOf(node))) : taint };
  }

  private callValue(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    const fnNode = node.childForFieldName('function');
    const callee = this.canon(fnNode) ?? '';
    const args = positional(node);
    const values = args.map((a) => this.valueOf(a));
    const first = values[0] ?? EMPTY_VALUE;
    const objectNode = fnNode?.type === 'attribute' ? fnNode.childForFieldName('object') : null;
    const method = fnNode?.type === 'attribute' ? (fnNode.childForFieldName('attribute')?.text ?? '') : '';
    const passThrough = unionTaint(values).union(this.valueOf(fnNode).taint);

    if (/^os\.(environ\.(get|setdefault|pop|__getitem__)|getenv)$/.test(callee))
      return envValue(text, first, line);
    if (callee === 'input' || callee === 'getpass.getpass')
      return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
    if (/^(pathlib\.)?Path\.(home|cwd)$|^os\.getcwd$/.test(callee))
      return { ...EMPTY_VALUE, text, str: callee.endsWith('home') ? '~' : '.' };
    if (PATH_PASS.test(callee)) {
      const joined = joinParts(
        values.map((v) => v.str),
        '/',
      );
      return {
        text,
        str: joined,
        alts: first.alts,
        taint: passThrough.union(joined ? pathTaint(joined, line) : Taint.NONE),
      };
    }
    if (/^(os\.path|posixpath|ntpath)\.join$/.test(callee) || method === 'joinpath') {
      const parts = method === 'joinpath' ? [this.valueOf(objectNode), ...values] : values;
      const joined = joinParts(
        parts.map((v) => v.str),
        '/',
      );
      return {
        text,
        str: joined,
        alts: [],
        taint: passThrough.union(joined ? pathTaint(joined, line) : Taint.NONE),
      };
    }
    // `"".join(x for x in …)`: a lone generator argument is the call's whole argument list.
    const argList = node.childForFieldName('arguments');
    const joined = argList?.type === 'generator_expression' ? argList : args[0];
    if (objectNode && method === 'join' && objectNode.type === 'string' && joined) {
      const sep = this.valueOf(objectNode).str ?? '';
      const chars = charsOfCodes(joined);
      if (chars) return { text, str: chars.join(sep), alts: [], taint: passThrough };
      const items = joined.type === 'list' || joined.type === 'tuple' ? this.elementsOf(joined) : null;
      const str = items && items.length === joined.namedChildCount ? items.join(sep) : null;
      return { text, str, alts: [], taint: passThrough };
    }
    if (objectNode && method === 'format') {
      let i = 0;
      const tmpl = this.valueOf(objectNode).str;
      const str = tmpl?.replace(/\{[^{}]*\}/g, () => values[i++]?.str ?? '\u2026') ?? null;
      return { text, str, alts: [], taint: passThrough };
    }
    if (callee === 'chr' && first.str && /^\d+$/.test(first.str))
      return { ...EMPTY_VALUE, text, str: String.fromCharCode(Number(first.str)) };
    if (objectNode && PATH_METHODS.has(method) && (method !== 'open' || callee.includes('Path'))) {
      const obj = this.valueOf(objectNode);
      const read = method === 'open' || method.startsWith('read') ? readTaint(obj, line) : Taint.NONE;
      return {
        text,
        str: method === 'expanduser' || method === 'resolve' || method === 'absolute' ? obj.str : null,
        alts: obj.alts,
        taint: passThrough.union(read),
      };
    }
    if (
      isDecodeCallee(callee) ||
      (method === 'decode' && /rot.?13|base64|hex|zlib/i.test(values[0]?.str ?? ''))
    ) {
      const codec =
        (callee === 'codecs.decode' ? values[1]?.str : method === 'decode' ? first.str : null) ?? '';
      const input = method === 'decode' ? this.valueOf(objectNode) : first;
      const kind = /b64|base64|a2b_base64|decodebytes|decodestring/.test(callee + codec)
        ? 'base64'
        : /hex/.test(callee + codec)
          ? 'hex'
          : /rot/.test(codec)
            ? 'rot13'
            : null;
      const str = kind && input.str ? decodeLiteral(kind, input.str) : null;
      return { text, str, alts: [], taint: passThrough.union(Taint.of(T.DECODED, line)) };
    }
    if (method === 'decode' || method === 'encode') return { ...this.valueOf(objectNode), text };
    if (READ_CALL_RE.test(callee) && !WRITE_CALL_RE.test(callee)) {
      const mode = values[1]?.str ?? this.kwarg(node, 'mode')?.str ?? 'r';
      const reading = callee !== 'open' || !/[wax]/.test(mode);
      return {
        text,
        str: null,
        alts: [],
        taint: passThrough.union(reading ? readTaint(first, line) : Taint.NONE),
      };
    }
    // A Request object is not sent yet: it carries its URL and data to urlopen().
    if (/^urllib2?\.(request\.)?Request$/.test(callee))
      return { text, str: first.str, alts: [], taint: passThrough };
    const source = sourceCallTaint(callee, first.str, line);
    if (source) return { ...EMPTY_VALUE, text, taint: source };
    // Bytes read from a socket are network-supplied, like a response body.
    if (SOCKET_READ_RE.test(callee)) return { ...EMPTY_VALUE, text, taint: Taint.of(T.FETCHED, line) };
    if (isShellCallee(callee)) {
      const command = this.commandString(args[0]);
      return {
        ...EMPTY_VALUE,
        text,
        taint: passThrough.union(command ? shellOutputTaint(command, line) : Taint.NONE),
      };
    }
    // A function defined in this file (or program) returns what its return statements compute.
    const own = this.ownFunction(fnNode);
    const ret = own ? this.returned(own, text) : null;
    if (ret) return { text, str: ret.str, alts: ret.alts, taint: passThrough.union(ret.taint) };
    return { text, str: null, alts: [], taint: passThrough };
  }

  private kwarg(call: Node, name: string): Value | null {
    for (const a of call.childForFieldName('arguments')?.namedChildren ?? [])
      if (a?.type === 'keyword_argument' && a.childForFieldName('name')?.text === name)
        return this.valueOf(a.childForFieldName('value'));
    return null;
  }

  /** A subprocess command as shell text: a string as is, a list joined with shell quoting. */
  commandString(node: Node | null | undefined): string | null {
    if (!node) return null;
    if (node.type === 'list' || node.type === 'tuple') {
      const items = node.namedChildren.map((c) => this.valueOf(c).str);
      if (items.length === 0 || items[0] === null) return null;
      return items.map((s) => shellQuote(s ?? '\u2026')).join(' ');
    }
    return this.valueOf(node).str;
  }

  private toCall(node: Node, topLevel: boolean, guarded: boolean): Call {
    const fnNode = node.childForFieldName('function');
    const callee = this.canon(fnNode) ?? fnNode?.text ?? '';
    const args: Value[] = [];
    const named = new Map<string, Value>();
    for (const a of node.childForFieldName('arguments')?.namedChildren ?? []) {
      if (!a || a.type === 'comment') continue;
      if (a.type === 'keyword_argument') {
        const name = a.childForFieldName('name')?.text;
        if (name) named.set(name, this.valueOf(a.childForFieldName('value')));
      } else args.push(this.valueOf(a));
    }
    const line = lineOf(node);
    if (isShellCallee(callee)) {
      this.embedCommand(this.commandString(positional(node)[0]), args[0], callee, line);
    } else if (isExecCallee(callee) && args[0]?.str && !args[0].str.startsWith('\u2026')) {
      const decoded = args[0].taint.has(T.DECODED);
      this.out.embedded.push({
        language: 'python',
        text: args[0].str,
        line,
        origin: decoded
          ? `code decoded at line ${args[0].taint.lineOf(T.DECODED)} and run by ${callee}()`
          : `code run by ${callee}()`,
      });
    }
    return {
      kind: 'call',
      callee,
      args,
      named,
      receiver: fnNode?.type === 'attribute' ? this.valueOf(fnNode.childForFieldName('object')) : null,
      output: this.valueOf(node).taint,
      stdin: Taint.NONE,
      pipedTo: [],
      redirectTo: null,
      line,
      endLine: endLineOf(node),
      text: node.text,
      topLevel,
      guarded,
      managed: this.managed.has(node.id),
      background: false,
      origin: null,
    };
  }
}

function positional(call: Node): Node[] {
  const out: Node[] = [];
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? [])
    if (a && a.type !== 'keyword_argument' && a.type !== 'comment') out.push(a);
  return out;
}

function stripBuiltins(name: string): string {
  return name.replace(/^(__builtins__|builtins)\./, '');
}

function envValue(text: string, key: Value, line: number): Value {
  const names = candidates(key);
  const home = names.some((n) => n === 'HOME' || n === 'USERPROFILE');
  return { text, str: home ? '~' : null, alts: [], taint: taintOfBits(envNameBits(names), line) };
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// A word spelt as character codes so that it never appears in the file: `map(chr, [111, 115])`,
// `chr(c) for c in (111, 115)`. Only integer literals, so the value is known without running anything.
const MAX_CODES = 4096;
function charsOfCodes(node: Node): string[] | null {
  let list: Node | null | undefined = null;
  if (node.type === 'call' && node.childForFieldName('function')?.text === 'map') {
    const [fn, items] = positional(node);
    if (fn?.text === 'chr') list = items;
  } else if (node.type === 'generator_expression' || node.type === 'list_comprehension') {
    const body = node.childForFieldName('body');
    const loop = node.namedChildren.find((c) => c?.type === 'for_in_clause');
    const name = loop?.childForFieldName('left')?.text;
    if (
      body?.type === 'call' &&
      body.childForFieldName('function')?.text === 'chr' &&
      positional(body)[0]?.text === name
    )
      list = loop?.childForFieldName('right');
  }
  if (!list || (list.type !== 'list' && list.type !== 'tuple') || list.namedChildCount > MAX_CODES)
    return null;
  const chars: string[] = [];
  for (const item of list.namedChildren) {
    if (item?.type !== 'integer' || !/^\d+$/.test(item.text)) return null;
    const code = Number(item.text);
    if (code > 0x10ffff) return null;
    chars.push(String.fromCodePoint(code));
  }
  return chars;
}
