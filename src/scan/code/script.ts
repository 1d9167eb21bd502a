// Shared machinery of the python and JS extractors: alias and assignment tables, a memoised evaluator of
// expressions to Values (constant strings and taint), and the call records rules read.
import type { Node } from '../treesitter.js';
import type { Call, LoopFact, SwallowFact, Value } from './model.js';
import { T, Taint, UNKNOWN } from './model.js';
import {
  DECODE_CALL_RE,
  EXEC_CALL_RE,
  IDENTITY_CALL_RE,
  NETWORK_CALL_RE,
  NETWORK_COMMANDS,
  PUBLIC_IP_SERVICE,
  SHELL_CALL_RE,
  SOCKET_CALL_RE,
} from './names.js';
import { EMPTY_VALUE } from './values.js';

/** Code found inside a string that the script runs (an inline shell command, a decoded payload). */
export interface Embedded {
  language: 'bash' | 'python' | 'javascript' | 'powershell';
  text: string;
  line: number;
  origin: string;
  /**
   * What the values written into the text's holes (the runtime parts, UNKNOWN) carry: `os.popen(f"dig {token}.x")`
   * runs a command whose name holds the token, which the command's own analysis cannot see.
   */
  holes?: Taint;
}

export interface CallSite {
  node: Node;
  topLevel: boolean;
  guarded: boolean;
}

export interface Extraction {
  calls: Call[];
  loops: LoopFact[];
  swallows: SwallowFact[];
  names: Set<string>;
  embedded: Embedded[];
  hasErrors: boolean;
}

export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

export function endLineOf(node: Node): number {
  return node.endPosition.row + 1;
}

export function isNetworkCallee(callee: string): boolean {
  return NETWORK_CALL_RE.test(callee) || SOCKET_CALL_RE.test(callee);
}

export function isExecCallee(callee: string): boolean {
  return EXEC_CALL_RE.test(callee);
}

export function isShellCallee(callee: string): boolean {
  return SHELL_CALL_RE.test(callee);
}

/**
 * `subprocess.run(['ssh', host, 'cat >> f'], input=data)`, `execSync('nc host 9000', {input: data})`: the command
 * a subprocess call runs, as a command whose standard input is the call's `input`, so a program that sends its
 * stdin on (ssh, nc) carries the data out. `words` are the command's words as the caller evaluated them. A shell
 * string of several commands (`cat > f && git push URL`) is read as one whose sender carries the input: what
 * else would a command that writes its input and pushes be given it for.
 */
export function fedCommand(call: Call, words: readonly Value[]): Call | null {
  const input = call.named.get('input');
  if (!input || !isShellCallee(call.callee)) return null;
  const programOf = (c: Value[]) => c[0]?.str?.replace(/^.*\//, '').toLowerCase() ?? '';
  const sender = commandsOf(words).find((c) => {
    const program = programOf(c);
    return NETWORK_COMMANDS.has(program) || (program === 'git' && c.some((w) => w.str === 'push'));
  });
  if (!sender) return null;
  return {
    ...call,
    kind: 'command',
    callee: programOf(sender),
    args: [...sender.slice(1)],
    named: new Map(),
    stdin: input.taint,
  };
}

/** A command string's words, split at white space, as constant values (`execSync('nc host 9000')`). */
export function commandWords(command: string): Value[] {
  return command.split(/\s+/).map((w) => ({ ...EMPTY_VALUE, text: w, str: w }));
}

/** A command line's words cut into its simple commands at `&&`, `||`, `;` and `|`. */
function commandsOf(words: readonly Value[]): Value[][] {
  const out: Value[][] = [[]];
  for (const w of words) {
    const str = w.str ?? '';
    if (/^(?:&&|\|\||;|\|)$/.test(str)) out.push([]);
    else if (str.endsWith(';') && str.length > 1) {
      out[out.length - 1]!.push({ ...w, text: str.slice(0, -1), str: str.slice(0, -1) });
      out.push([]);
    } else out[out.length - 1]!.push(w);
  }
  return out.filter((c) => c.length > 0);
}

/**
 * What a call returns, judged by its name alone, or null for any other call: a library call for the user's or the
 * host's name gives who and where the machine is (T.HOST_ID); a network call gives fetched content, and also the
 * machine's public address when it asks a service that answers with it (`url` is its first argument).
 */
export function sourceCallTaint(callee: string, url: string | null, line: number): Taint | null {
  if (IDENTITY_CALL_RE.test(callee)) return Taint.of(T.HOST_ID, line);
  if (!isNetworkCallee(callee)) return null;
  return Taint.of(T.FETCHED | (url !== null && PUBLIC_IP_SERVICE.test(url) ? T.HOST_ID : 0), line);
}

export function isDecodeCallee(callee: string): boolean {
  return DECODE_CALL_RE.test(callee);
}

/** Inline shell output that carries secrets or fetched code, judged from the command string alone. */
export function shellOutputTaint(command: string, line: number): Taint {
  let bits = 0;
  if (
    /^\s*(env|printenv|set|export\s+-p|declare\s+-x|compgen\s+-e)\s*$|\/proc\/(self|\d+|\*)\/environ/.test(
      command,
    )
  )
    bits |= T.ENV_ALL;
  if (/\b(curl|wget)\b/.test(command)) bits |= T.FETCHED;
  if (/^\s*(?:whoami|hostname|logname|id\s+-un)\b/.test(command) || PUBLIC_IP_SERVICE.test(command))
    bits |= T.HOST_ID;
  if (/\bsecurity\s+find-(generic|internet)-password\b/.test(command)) bits |= T.CRED_DATA;
  return bits ? Taint.of(bits, line) : Taint.NONE;
}

/**
 * The skill's own modules when the text analysed is a program of several files (program.ts): their module
 * names, for `module.fn()` calls, and the row where each file starts, so each file keeps its own names.
 */
export interface ProgramScope {
  modules: ReadonlySet<string>;
  /** 0-based row of the program text where each file starts, ascending; [0] for one file. */
  rows: readonly number[];
}

export const SINGLE_FILE: ProgramScope = { modules: new Set(), rows: [0] };

/**
 * Base of the tree-walking extractors. Subclasses walk their grammar once, fill `assignments`, `aliases`
 * and `sites`, and implement `evaluate` for their expression node types.
 */
export abstract class ScriptExtractor {
  constructor(protected readonly program: ProgramScope = SINGLE_FILE) {}

  /** Local name → canonical dotted name (imports, `e = os.environ`, `s = getattr(os, "system")`). */
  protected readonly aliases = new Map<string, string>();
  /** First names of imported library modules (`requests`, `fs`): `requests.post` is not the script's own `post`. */
  protected readonly importedRoots = new Set<string>();
  /**
   * Parameter names of the script's own functions, by function name (one list per definition, with the file
   * it is in): a call binds its arguments to them, so `send(secret)` carries the secret into `send`'s body. A
   * rest parameter is `*name`.
   */
  private readonly params = new Map<string, { scope: number; names: string[] }[]>();
  /**
   * Name → expressions assigned to it anywhere in its file (flow-insensitive). In a program each file has its
   * own names (keyed `file:name`): a `content` in one module is not the `content` of another.
   */
  private readonly assignments = new Map<string, Node[]>();
  /** Loop variables → the iterable they range over. */
  protected readonly loopVars = new Map<string, Node[]>();
  protected readonly sites: CallSite[] = [];
  protected readonly out: Extraction = {
    calls: [],
    loops: [],
    swallows: [],
    names: new Set(),
    embedded: [],
    hasErrors: false,
  };
  private readonly memo = new Map<number, Value>();
  private readonly resolving = new Set<string>();
  private evaluations = 0;
  private depth = 0;
  /** The file of the program whose expression is being evaluated. */
  private scope = 0;
  /** Names import statements bind, keyed by file (`file:name`, `file:*` for a star import). */
  private readonly imports = new Set<string>();

  protected abstract evaluate(node: Node): Value;

  /**
   * A command a shell call runs (`os.popen`, `child_process.exec`), to analyse as shell code of its own: the
   * values written into its holes go with it, and a command decoded on the way says so.
   */
  protected embedCommand(
    command: string | null,
    value: Value | undefined,
    callee: string,
    line: number,
  ): void {
    if (!command || command.startsWith(UNKNOWN)) return;
    this.out.embedded.push({
      language: 'bash',
      text: command,
      line,
      origin: value?.taint.has(T.DECODED)
        ? `command decoded at line ${value.taint.lineOf(T.DECODED)} and run by ${callee}()`
        : `command run by ${callee}()`,
      holes: value?.taint.without(T.DECODED) ?? Taint.NONE,
    });
  }

  /** Which file of the program a node is in. */
  private scopeOf(node: Node): number {
    const rows = this.program.rows;
    const row = node.startPosition.row;
    let s = 0;
    while (s + 1 < rows.length && rows[s + 1]! <= row) s++;
    return s;
  }

  private key(name: string, scope: number): string {
    return scope === 0 ? name : `${scope}:${name}`;
  }

  protected assign(name: string, node: Node, scope = this.scopeOf(node)): void {
    const key = this.key(name, scope);
    const list = this.assignments.get(key);
    if (list) {
      if (list.length < 32) list.push(node);
    } else this.assignments.set(key, [node]);
  }

  /**
   * What is assigned to `name` in the file being evaluated; for a name that file imports (or any name when
   * `cross`), what the first file of the program that assigns it does.
   */
  protected assigned(name: string, cross = false): Node[] | undefined {
    const own = this.assignments.get(this.key(name, this.scope));
    if (own || this.program.rows.length === 1) return own;
    if (!cross && !this.isImported(name.replace(/\(\)$/, ''), this.scope)) return undefined;
    for (let s = 0; s < this.program.rows.length; s++) {
      const other = this.assignments.get(this.key(name, s));
      if (other) return other;
    }
    return undefined;
  }

  /** A variable's value read where `at` is (its file's names), outside an evaluation. */
  protected variableAt(at: Node): Value {
    const outer = this.scope;
    this.scope = this.scopeOf(at);
    try {
      return this.variableValue(at.text, at.text);
    } finally {
      this.scope = outer;
    }
  }

  /** Memoised evaluation; a budget keeps pathological files linear. */
  valueOf(node: Node | null | undefined): Value {
    if (!node) return EMPTY_VALUE;
    const cached = this.memo.get(node.id);
    if (cached) return cached;
    // Budget and depth guards keep hostile files (huge or deeply nested expressions) linear and stack-safe.
    if (++this.evaluations > 200_000 || this.depth > 150) return EMPTY_VALUE;
    this.depth++;
    const outer = this.scope;
    this.scope = this.program.rows.length === 1 ? 0 : this.scopeOf(node);
    try {
      const v = this.evaluate(node);
      this.memo.set(node.id, v);
      return v;
    } finally {
      this.depth--;
      this.scope = outer;
    }
  }

  /** Value of a variable: union over its assignments; the constant string when they agree. */
  protected variableValue(name: string, text: string, cross = false): Value {
    const assigned = this.assigned(name, cross);
    const looped = this.loopVars.get(name);
    const key = this.key(name, this.scope);
    if ((!assigned && !looped) || this.resolving.has(key)) return { ...EMPTY_VALUE, text };
    this.resolving.add(key);
    try {
      let taint = Taint.NONE;
      let str: string | null | undefined;
      const alts: string[] = [];
      for (const n of assigned ?? []) {
        const v = this.valueOf(n);
        taint = taint.union(v.taint);
        str = str === undefined || str === v.str ? v.str : null;
        alts.push(...v.alts);
      }
      for (const n of looped ?? []) {
        const v = this.valueOf(n);
        taint = taint.union(v.taint);
        alts.push(...this.elementsOf(n), ...v.alts);
        str = null;
      }
      return { text, str: str ?? null, alts: alts.slice(0, 64), taint };
    } finally {
      this.resolving.delete(key);
    }
  }

  /** Constant strings listed in a literal list/tuple/array (what a loop variable can be). */
  protected elementsOf(node: Node): string[] {
    const out: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      const s = this.valueOf(child).str;
      if (s !== null) out.push(s);
      if (out.length >= 64) break;
    }
    return out;
  }

  /** Records the parameters of function `fn`, defined at `def`. */
  protected recordParams(fn: string, names: string[], def: Node): void {
    const entry = { scope: this.scopeOf(def), names };
    const list = this.params.get(fn);
    if (!list) this.params.set(fn, [entry]);
    else if (list.length < 8) list.push(entry);
  }

  /** Whether `fn` names one of the program's own functions. */
  protected isOwnFunction(fn: string): boolean {
    return this.params.has(fn) || this.assigned(`${fn}()`, true) !== undefined;
  }

  /** Notes a name an import statement binds in its file (`*` for a star import). */
  protected noteImport(name: string, at: Node): void {
    this.imports.add(this.key(name, this.scopeOf(at)));
  }

  private isImported(name: string, scope: number): boolean {
    return this.imports.has(this.key(name, scope)) || this.imports.has(this.key('*', scope));
  }

  /** Canonical dotted name of an expression (`reporter.Reporter()`, `self.client`); languages with calls override. */
  canon(_node: Node | null | undefined): string | null {
    return null;
  }

  /** The method name and receiver of a member call's function (`obj.m`), else null. */
  protected memberOf(_fn: Node): { method: string; receiver: Node | null } | null {
    return null;
  }

  /**
   * The own function a call runs (`collect()`, `self.send()`, `reporter.send()`), and whether it is reached
   * in another file of the program; null for a library call. A receiver that is the script itself (`self`,
   * `this`), one of the skill's modules, or an object no imported library made calls an own method.
   */
  protected ownFunction(fn: Node | null): { name: string; cross: boolean } | null {
    if (!fn) return null;
    const scope = this.scopeOf(fn);
    if (fn.type === 'identifier')
      return this.isOwnFunction(fn.text) ? { name: fn.text, cross: this.isImported(fn.text, scope) } : null;
    const member = this.memberOf(fn);
    if (!member || !this.isOwnFunction(member.method)) return null;
    const receiver = this.canon(member.receiver);
    if (receiver === null) return null;
    const name = member.method;
    // A relative import (`from . import x`, `require('./x')`) is the skill's own module.
    if (receiver.startsWith('.')) return { name, cross: true };
    const root = receiver.split('.')[0]!;
    if (root === 'self' || root === 'cls' || root === 'this') return { name, cross: false };
    if (this.program.modules.has(root)) return { name, cross: true };
    if (this.importedRoots.has(root)) return null;
    return { name, cross: this.isImported(root.replace(/\(\)$/, ''), scope) };
  }

  /** What an own function returns, read in its own file or, when `cross`, in the file that defines it. */
  protected returned(own: { name: string; cross: boolean }, text: string): Value | null {
    const key = `${own.name}()`;
    return this.assigned(key, own.cross) ? this.variableValue(key, text, own.cross) : null;
  }

  /**
   * Binds a call's arguments to the parameters of the own function it calls (flow-insensitive, as assignments
   * are): definitions in the caller's file, or in any file of the program when the call crosses into another.
   */
  protected bindArguments(
    call: Node,
    positional: readonly Node[],
    keywords: ReadonlyMap<string, Node>,
  ): void {
    const own = this.ownFunction(call.childForFieldName('function'));
    if (!own) return;
    const callScope = this.scopeOf(call);
    for (const { scope, names } of this.params.get(own.name) ?? []) {
      if (!own.cross && scope !== callScope) continue;
      const rest = names.findIndex((n) => n.startsWith('*'));
      positional.forEach((arg, i) => {
        const name = rest >= 0 && i >= rest ? names[rest]!.slice(1) : names[i];
        if (name) this.assign(name, arg, scope);
      });
      for (const [k, v] of keywords) if (names.includes(k)) this.assign(k, v, scope);
    }
  }

  protected addSite(node: Node, topLevel: boolean, guarded: boolean): void {
    this.sites.push({ node, topLevel, guarded });
  }
}

export function taintOfBits(bits: number, line: number): Taint {
  return bits ? Taint.of(bits, line) : Taint.NONE;
}
