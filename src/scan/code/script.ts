// Shared machinery of the python and JS extractors: alias and assignment tables, a memoised evaluator of
// expressions to Values (constant strings and taint), and the call records rules read.
import type { Node } from '../treesitter.js';
import type { Call, LoopFact, SwallowFact, Value } from './model.js';
import { T, Taint } from './model.js';
import { DECODE_CALL_RE, EXEC_CALL_RE, NETWORK_CALL_RE, SHELL_CALL_RE, SOCKET_CALL_RE } from './names.js';
import { EMPTY_VALUE } from './values.js';

/** Code found inside a string that the script runs (an inline shell command, a decoded payload). */
export interface Embedded {
  language: 'bash' | 'python' | 'javascript' | 'powershell';
  text: string;
  line: number;
  origin: string;
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
  if (/\bsecurity\s+find-(generic|internet)-password\b/.test(command)) bits |= T.CRED_DATA;
  return bits ? Taint.of(bits, line) : Taint.NONE;
}

/**
 * Base of the tree-walking extractors. Subclasses walk their grammar once, fill `assignments`, `aliases`
 * and `sites`, and implement `evaluate` for their expression node types.
 */
export abstract class ScriptExtractor {
  /** Local name → canonical dotted name (imports, `e = os.environ`, `s = getattr(os, "system")`). */
  protected readonly aliases = new Map<string, string>();
  /** Local name → expressions assigned to it anywhere in the file (flow-insensitive). */
  protected readonly assignments = new Map<string, Node[]>();
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

  protected abstract evaluate(node: Node): Value;

  protected assign(name: string, node: Node): void {
    const list = this.assignments.get(name);
    if (list) {
      if (list.length < 32) list.push(node);
    } else this.assignments.set(name, [node]);
  }

  /** Memoised evaluation; a budget keeps pathological files linear. */
  valueOf(node: Node | null | undefined): Value {
    if (!node) return EMPTY_VALUE;
    const cached = this.memo.get(node.id);
    if (cached) return cached;
    // Budget and depth guards keep hostile files (huge or deeply nested expressions) linear and stack-safe.
    if (++this.evaluations > 200_000 || this.depth > 150) return EMPTY_VALUE;
    this.depth++;
    try {
      const v = this.evaluate(node);
      this.memo.set(node.id, v);
      return v;
    } finally {
      this.depth--;
    }
  }

  /** Value of a variable: union over its assignments; the constant string when they agree. */
  protected variableValue(name: string, text: string): Value {
    const assigned = this.assignments.get(name);
    const looped = this.loopVars.get(name);
    if ((!assigned && !looped) || this.resolving.has(name)) return { ...EMPTY_VALUE, text };
    this.resolving.add(name);
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
      this.resolving.delete(name);
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

  protected addSite(node: Node, topLevel: boolean, guarded: boolean): void {
    this.sites.push({ node, topLevel, guarded });
  }
}

export function taintOfBits(bits: number, line: number): Taint {
  return bits ? Taint.of(bits, line) : Taint.NONE;
}
