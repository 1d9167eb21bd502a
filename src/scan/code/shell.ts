// Bash extractor: commands with resolved words, pipelines (what feeds each stage's stdin), variables from
// constant assignments, wrappers (sudo, env, nohup) unwrapped, and inline `sh -c`/`python -c` code embedded.
import type { Node, Tree } from '../treesitter.js';
import type { Call, SwallowFact, Value } from './model.js';
import { T, Taint, UNKNOWN } from './model.js';
import { CREDENTIAL_PATH_VARS, IDENTITY_COMMANDS, NETWORK_COMMANDS, PUBLIC_IP_SERVICE } from './names.js';
import { type Extraction, endLineOf, lineOf, ScriptExtractor, taintOfBits } from './script.js';
import {
  EMPTY_VALUE,
  envNameBits,
  isSecretName,
  joinParts,
  pathTaint,
  readTaint,
  unescapeLiteral,
  unionTaint,
} from './values.js';

const WRAPPERS = new Set([
  'sudo',
  'doas',
  'nohup',
  'env',
  'time',
  'command',
  'exec',
  'nice',
  'timeout',
  'stdbuf',
  'xargs',
  'builtin',
  'caffeinate',
  'setsid',
  'watch',
  'flock',
]);
/** Wrapper options that take a value (`sudo -u root`, `watch -n 5`, `xargs -I {}`), so the value is not the command. */
const WRAPPER_VALUE_FLAGS: Readonly<Record<string, RegExp>> = {
  sudo: /^-[ugCDhprT]$/,
  doas: /^-[uC]$/,
  nice: /^-n$/,
  timeout: /^-[sk]$/,
  watch: /^-n$/,
  xargs: /^-[IinLPsdEa]$/,
  env: /^-[uSC]$/,
  stdbuf: /^-[ioe]$/,
  flock: /^-[wE]$/,
};
const READERS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'tar',
  'zip',
  '7z',
  'cp',
  'scp',
  'rsync',
  'base64',
  'xxd',
  'gzip',
  'openssl',
  'sqlite3',
  'strings',
  'jq',
  'grep',
  'awk',
  'sed',
]);
const DESTRUCTIVE =
  /^(rm|rmdir|dd|mkfs(\..*)?|shred|truncate|wipefs|git|docker|kubectl|chmod|chown|mv|find)$/;

/** Commands that write the copy, dump or archive a later step relies on. */
const PRODUCERS = /^(\w*dump|pg_dumpall|cp|rsync|tar|zip|gzip|scp|curl|wget|mongoexport|sqlite3)$/;

/** `rm` of a path, or `find … -delete`. */
function deletes(c: Call): boolean {
  return c.callee === 'rm' || (c.callee === 'find' && c.args.some((a) => a.str === '-delete'));
}

export function extractShell(tree: Tree): Extraction & { nounset: boolean } {
  const x = new ShellExtractor();
  x.walk(tree.rootNode);
  return x.finish();
}

interface CommandSite {
  node: Node;
  /** Passed down by the walk: tree-sitter's node.parent re-descends from the root (slow on long scripts). */
  parent: Node | null;
  top: boolean;
  guarded: boolean;
}

/** Statement lists where `cmd &` puts a job in the background. */
const STATEMENT_LISTS = new Set([
  'program',
  'compound_statement',
  'do_group',
  'subshell',
  'if_statement',
  'elif_clause',
  'else_clause',
  'case_item',
  'list',
]);

class ShellExtractor extends ScriptExtractor {
  private readonly commands: CommandSite[] = [];
  private readonly whiles: Node[] = [];
  private readonly background = new Set<number>();
  private nounset = false;
  /** `dump > file || true`: a silenced producer, a defect only when the script deletes something later. */
  private readonly silencedProducers: SwallowFact[] = [];

  walk(root: Node): void {
    const stack: { node: Node; parent: Node | null; top: boolean; guarded: boolean }[] = [
      { node: root, parent: null, top: true, guarded: false },
    ];
    while (stack.length > 0) {
      const { node, parent, top, guarded } = stack.pop()!;
      if (STATEMENT_LISTS.has(node.type)) {
        const all = node.children;
        all.forEach((c, i) => {
          if (c && all[i + 1]?.type === '&') this.background.add(c.id);
        });
      }
      let childTop = top;
      let childGuarded = guarded;
      switch (node.type) {
        case 'ERROR':
          this.out.hasErrors = true;
          break;
        case 'function_definition':
          childTop = false;
          break;
        case 'if_statement':
          childGuarded = true;
          break;
        case 'variable_assignment': {
          const name = node.childForFieldName('name')?.text;
          const value = node.childForFieldName('value');
          if (name && value) this.assign(name, value);
          if (name) this.out.names.add(name);
          break;
        }
        case 'for_statement': {
          const name = node.childForFieldName('variable')?.text;
          const values = node.childrenForFieldName('value').filter((v): v is Node => v !== null);
          if (name) this.loopVars.set(name, values);
          break;
        }
        case 'command':
          this.commands.push({ node, parent, top, guarded });
          break;
        case 'while_statement':
        case 'c_style_for_statement':
          this.whiles.push(node);
          break;
        case 'list':
          this.recordList(node);
          break;
        case 'variable_name':
          this.out.names.add(node.text);
          break;
      }
      const children = node.namedChildren;
      for (let i = children.length - 1; i >= 0; i--) {
        const c = children[i];
        if (c) stack.push({ node: c, parent: node, top: childTop, guarded: childGuarded });
      }
    }
  }

  finish(): Extraction & { nounset: boolean } {
    for (const site of this.commands) this.recordCommand(site);
    for (const loop of this.whiles) this.recordLoop(loop);
    // The ignored failure leaves an empty or partial output, and a later delete (of the old copy, the source)
    // then loses the only good data.
    for (const s of this.silencedProducers)
      if (this.out.calls.some((c) => c.kind === 'command' && c.line > s.endLine && deletes(c)))
        this.out.swallows.push(s);
    return { ...this.out, nounset: this.nounset };
  }

  /** `rm -rf "$X" || true`: an error silenced after a destructive command. */
  private recordList(node: Node): void {
    const [left, right] = [node.namedChildren[0], node.namedChildren[node.namedChildCount - 1]];
    const op = node.children.find((c) => c?.type === '||' || c?.type === '&&')?.type;
    if (op !== '||' || !left || !right) return;
    const rightName = commandName(right);
    if (rightName !== 'true' && rightName !== ':') return;
    const leftCmd = left.type === 'command' ? left : left.firstDescendantOfType('command');
    if (!leftCmd) return;
    if (!DESTRUCTIVE.test(commandName(leftCmd) ?? '')) {
      const produces = left.type === 'redirected_statement' || PRODUCERS.test(commandName(leftCmd) ?? '');
      if (produces)
        this.silencedProducers.push({
          line: lineOf(node),
          endLine: endLineOf(node),
          text: node.text,
          kind: 'or-true-before-delete',
        });
      return;
    }
    this.out.swallows.push({
      line: lineOf(node),
      endLine: endLineOf(node),
      text: node.text,
      kind: 'or-true',
    });
  }

  private recordLoop(node: Node): void {
    const cond = node.childForFieldName('condition');
    const body = node.childForFieldName('body');
    const until = node.children[0]?.type === 'until';
    const infinite =
      node.type === 'c_style_for_statement'
        ? !node.childForFieldName('condition')
        : !!cond && /^(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))$/.test(cond.text.replace(/;$/, '').trim());
    const condNames = cond
      ? [cond, ...cond.descendantsOfType('command')].map((c) => (c ? commandName(c) : null))
      : [];
    const condNetwork = condNames.some((n) => n && NETWORK_COMMANDS.has(n));
    // `until curl …; do sleep; done` retries forever when the host is down.
    if (!infinite && !(until && condNetwork)) return;
    const inner = body ? body.descendantsOfType('command') : [];
    const names = inner.map((c) => (c ? commandName(c) : null));
    const exits = names.some((n) => n === 'break' || n === 'exit' || n === 'return');
    const network = condNetwork || names.some((n) => n && NETWORK_COMMANDS.has(n));
    const retries = names.includes('sleep');
    const header = node.text.split('\n')[0] ?? '';
    const fact = { line: lineOf(node), endLine: endLineOf(node), text: header, exits, network, retries };
    this.out.loops.push({ ...fact, conditional: !infinite });
  }

  private recordCommand(site: CommandSite): void {
    const { node } = site;
    const name = this.resolvedName(node);
    if (!name) return;
    this.out.names.add(name);
    const words = node.childrenForFieldName('argument').filter((a): a is Node => a !== null);
    const args = words.map((w) => this.valueOf(w));
    if (name === 'set' && args.some((a) => /^-[a-z]*u|^nounset$/.test(a.str ?? ''))) this.nounset = true;

    const pipeline = site.parent?.type === 'pipeline' ? site.parent : null;
    const stages = pipeline ? pipeline.namedChildren.filter((c): c is Node => c !== null) : [];
    const at = stages.findIndex(
      (s) => s.id === node.id || s.descendantsOfType('command').some((c) => c?.id === node.id),
    );
    // `env | grep key > out`: the redirect wraps the whole pipeline and belongs to its last stage.
    const wrapped =
      pipeline && at === stages.length - 1 && pipeline.parent?.type === 'redirected_statement'
        ? pipeline.parent
        : null;
    const redirected = site.parent?.type === 'redirected_statement' ? site.parent : wrapped;
    const stdin = this.upstreamTaint(stages, at).union(this.redirectInput(node, redirected));
    // `$c … | $b` with b=$'\x62\x61\x73\x68': a stage's name is resolved as the command's own is.
    const pipedTo =
      at >= 0 ? stages.slice(at + 1).map((s) => effectiveName(s, (c) => this.resolvedName(c))) : [];
    const redirectTo =
      redirected
        ?.childrenForFieldName('redirect')
        .find(
          (r) =>
            r?.type === 'file_redirect' &&
            !r.childForFieldName('descriptor') &&
            /^>>?$/.test(r.children[0]?.text ?? ''),
        )
        ?.childForFieldName('destination') ?? null;
    const background = this.background.has((redirected ?? node).id);

    const base: Call = {
      kind: 'command',
      callee: name,
      args,
      named: new Map(),
      receiver: null,
      output: this.stageTaint(node, stdin),
      stdin,
      pipedTo,
      redirectTo: redirectTo ? this.valueOf(redirectTo).str : null,
      line: lineOf(node),
      endLine: endLineOf(node),
      text: (redirected ?? node).text,
      topLevel: site.top,
      guarded: site.guarded,
      background,
      origin: null,
    };
    this.out.calls.push(base);
    // Wrappers run the command after their own options: record it too so its rules apply.
    let i = 0;
    let current = name;
    while (WRAPPERS.has(current) && i < args.length) {
      const valued = WRAPPER_VALUE_FLAGS[current];
      while (i < args.length && /^(-|\w+=)/.test(args[i]!.str ?? '-'))
        i += valued?.test(args[i]!.str ?? '') ? 2 : 1;
      if (current === 'timeout' && i < args.length && /^\d/.test(args[i]!.str ?? '')) i++;
      // `flock LOCKFILE cmd`: the lock file comes before the command.
      if (current === 'flock' && i < args.length - 1) i++;
      const inner = args[i]?.str;
      if (!inner) break;
      current = basename(inner);
      const wrapped = { ...base, callee: current, args: args.slice(i + 1) };
      this.out.calls.push(wrapped);
      // `nohup sh -c '…'`, `sudo bash -c '…'`: the wrapped shell's code string runs too; under `timeout` its
      // loops are bounded by the deadline (analyse reads the origin).
      if (!WRAPPERS.has(current)) this.embedInline(wrapped, name === 'timeout' ? ' under a timeout' : '');
      i++;
    }
    this.embedInline(base);
  }

  /** The command name, resolving `$c` when `c` is built from constants (`c="cu"; c+="rl"`), and quoted pieces (`cu''rl`). */
  private resolvedName(node: Node): string | null {
    const nameNode = node.childForFieldName('name');
    const word = nameNode?.namedChildren[0];
    if (word && word.type !== 'word' && /[$"']/.test(nameNode?.text ?? '')) {
      const v = this.valueOf(word);
      if (v.str && !v.str.includes('\u2026')) return basename(v.str);
    }
    return commandName(node);
  }

  /** `bash -c '…'`, `python -c '…'`, `node -e '…'`, `eval '…'`, an echoed crontab line: code in a string runs too. */
  private embedInline(call: Call, note = ''): void {
    if (call.callee === 'echo' || call.callee === 'printf') {
      for (const a of call.args) {
        const cron = /^\s*(@\w+|([\d*/,-]+\s+){5})(.+)$/.exec(a.str ?? '');
        if (cron?.[3])
          this.out.embedded.push({
            language: 'bash',
            text: cron[3],
            line: call.line,
            origin: 'a crontab entry written by this script',
          });
      }
      return;
    }
    const flag = call.args.findIndex((a) => a.str === '-c' || a.str === '-e');
    const lang = /^(ba|z|da|k)?sh$/.test(call.callee)
      ? 'bash'
      : /^python[23]?$/.test(call.callee)
        ? 'python'
        : call.callee === 'node'
          ? 'javascript'
          : null;
    const code =
      call.callee === 'eval'
        ? joinParts(
            call.args.map((a) => a.str),
            ' ',
          )
        : lang
          ? call.args[flag + 1]?.str
          : null;
    if (!code || (call.callee !== 'eval' && flag < 0) || code.startsWith('\u2026')) return;
    this.out.embedded.push({
      language: lang ?? 'bash',
      text: code,
      line: call.line,
      origin: `inline code run by ${call.callee}${note}`,
    });
  }

  private redirectInput(node: Node, redirected: Node | null): Taint {
    let t = Taint.NONE;
    for (const r of (redirected ?? node).namedChildren) {
      if (r?.type === 'herestring_redirect') t = t.union(this.valueOf(r.namedChildren[0]).taint);
      if (r?.type === 'file_redirect' && r.children[0]?.text === '<')
        t = t.union(readTaint(this.valueOf(r.childForFieldName('destination')), lineOf(r)));
    }
    for (const r of node.childrenForFieldName('redirect')) {
      if (r?.type === 'herestring_redirect') t = t.union(this.valueOf(r.namedChildren[0]).taint);
    }
    return t;
  }

  /** What reaches stage `at` of a pipeline: filters (grep, head, sort) pass on what earlier stages wrote. */
  private upstreamTaint(stages: readonly Node[], at: number): Taint {
    let t = Taint.NONE;
    for (let i = 0; i < at; i++) t = this.stageTaint(stages[i]!, t);
    return t;
  }

  /** What a statement writes to stdout, as taint. */
  outputTaint(node: Node): Taint {
    if (node.type === 'pipeline') {
      const last = node.namedChildren[node.namedChildCount - 1];
      let t = Taint.NONE;
      for (const s of node.namedChildren) if (s) t = t.union(this.stageTaint(s, t));
      return last ? t : Taint.NONE;
    }
    let t = Taint.NONE;
    const cmds = node.type === 'command' ? [node] : node.descendantsOfType(['command', 'pipeline']);
    for (const c of cmds)
      if (c) t = t.union(c.type === 'pipeline' ? this.outputTaint(c) : this.stageTaint(c, Taint.NONE));
    return t;
  }

  private stageTaint(stage: Node, stdin: Taint): Taint {
    const cmd = stage.type === 'command' ? stage : stage.firstDescendantOfType('command');
    if (!cmd) return stdin;
    const name = effectiveName(cmd, (c) => this.resolvedName(c));
    const words = cmd.childrenForFieldName('argument').filter((a): a is Node => a !== null);
    const args = words.map((w) => this.valueOf(w));
    const line = lineOf(cmd);
    const flags = args.map((a) => a.str ?? '').join(' ');
    let t = unionTaint(args).union(stdin);
    if (
      name === 'env' ||
      name === 'printenv' ||
      name === 'export' ||
      name === 'declare' ||
      name === 'set' ||
      name === 'compgen'
    ) {
      if (args.length === 0 || /^(-p|-x|-e)$/.test(flags.trim())) t = t.union(Taint.of(T.ENV_ALL, line));
      else if (name === 'printenv' && args.some((a) => isSecretName(a.str ?? '')))
        t = t.union(Taint.of(T.ENV_SECRET, line));
    }
    if (name === 'curl' || name === 'wget' || name === 'invoke-webrequest')
      t = t.union(
        Taint.of(T.FETCHED | (args.some((a) => PUBLIC_IP_SERVICE.test(a.str ?? '')) ? T.HOST_ID : 0), line),
      );
    if (IDENTITY_COMMANDS.test(name)) t = t.union(Taint.of(T.HOST_ID, line));
    if (
      (name === 'base64' && /(^|\s)(-d|--decode|-D)\b/.test(flags)) ||
      (name === 'xxd' && /-r/.test(flags)) ||
      /^(gunzip|zcat|uudecode)$/.test(name) ||
      (name === 'openssl' && /-d\b/.test(flags)) ||
      (name === 'tr' && /N-ZA-M/i.test(flags)) ||
      name === 'rev'
    )
      t = t.union(Taint.of(T.DECODED, line));
    if (READERS.has(name)) for (const a of args) t = t.union(readTaint(a, line));
    // `… | xargs cat`: the reader opens every path that arrives on stdin.
    if (READERS.has(name) && commandName(cmd) === 'xargs' && stdin.has(T.CRED_PATH))
      t = t.union(Taint.of(T.CRED_DATA, line));
    if (name === 'security' && /find-(generic|internet)-password|dump-keychain/.test(flags))
      t = t.union(Taint.of(T.CRED_DATA, line));
    return t;
  }

  protected evaluate(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    switch (node.type) {
      case 'word':
      case 'number': {
        const str = text.replace(/\\(.)/g, '$1');
        return { text, str, alts: [], taint: pathTaint(str, line) };
      }
      case 'raw_string': {
        const str = text.slice(1, -1);
        return { text, str, alts: [], taint: pathTaint(str, line) };
      }
      case 'ansi_c_string': {
        const str = unescapeLiteral(text.slice(2, -1));
        return { text, str, alts: [], taint: pathTaint(str, line) };
      }
      case 'string':
      case 'concatenation': {
        const parts: (string | null)[] = [];
        let taint = Taint.NONE;
        let cursor = node.startIndex + (node.type === 'string' ? 1 : 0);
        const end = node.endIndex - (node.type === 'string' ? 1 : 0);
        for (const c of node.namedChildren) {
          if (!c) continue;
          // Literal text between expansions is not always a named node in a double-quoted string.
          if (c.startIndex > cursor)
            parts.push(node.text.slice(cursor - node.startIndex, c.startIndex - node.startIndex));
          const v = c.type === 'string_content' ? { ...EMPTY_VALUE, str: c.text } : this.valueOf(c);
          parts.push(v.str);
          taint = taint.union(v.taint);
          cursor = c.endIndex;
        }
        if (end > cursor) parts.push(node.text.slice(cursor - node.startIndex, end - node.startIndex));
        const str = parts.length === 0 ? '' : joinParts(parts);
        return { text, str, alts: [], taint: str ? taint.union(pathTaint(str, line)) : taint };
      }
      case 'simple_expansion':
      case 'expansion':
        return this.expansionValue(node);
      case 'command_substitution':
      case 'process_substitution': {
        let t = Taint.NONE;
        for (const c of node.namedChildren) if (c) t = t.union(this.outputTaint(c));
        return {
          text,
          str: node.type === 'command_substitution' ? this.reversedConstant(node) : null,
          alts: [],
          taint: t,
        };
      }
      default: {
        const parts = node.namedChildren.map((c) => this.valueOf(c));
        return { text, str: null, alts: [], taint: unionTaint(parts) };
      }
    }
  }

  /**
   * `$(rev <<< 'lruc')`, `$(echo 'hsab' | rev)`: a constant turned around so that the name it spells (curl, bash)
   * never appears in the file. The substitution's output, or null when it is anything else.
   */
  private reversedConstant(sub: Node): string | null {
    const inner = sub.namedChildren.length === 1 ? sub.namedChildren[0] : null;
    if (!inner) return null;
    let source: string | null = null;
    if (inner.type === 'command' && commandName(inner) === 'rev') {
      const here = inner.namedChildren.find((c) => c?.type === 'herestring_redirect');
      const word = here?.namedChildren[0];
      source = word ? this.valueOf(word).str : null;
    } else if (inner.type === 'pipeline' && inner.namedChildren.length === 2) {
      const [first, last] = inner.namedChildren;
      if (!first || !last || first.type !== 'command' || last.type !== 'command') return null;
      if (commandName(last) !== 'rev' || last.childrenForFieldName('argument').length > 0) return null;
      const words = first.childrenForFieldName('argument').map((w) => (w ? this.valueOf(w).str : null));
      const name = commandName(first);
      if (name === 'echo' && words.every((w) => w !== null && !w.startsWith('-'))) source = words.join(' ');
      else if (name === 'printf' && words.length === 2 && words[0] === '%s') source = words[1]!;
    }
    if (source === null || source.includes(UNKNOWN)) return null;
    return [...source].reverse().join('');
  }

  private expansionValue(node: Node): Value {
    const text = node.text;
    const line = lineOf(node);
    const nameNode = node.firstDescendantOfType(['variable_name', 'special_variable_name']);
    const name = nameNode?.text ?? text.replace(/^\$\{?#?|[}:].*$/g, '');
    if (/^([0-9]+|@|\*|#)$/.test(name)) return { ...EMPTY_VALUE, text, taint: Taint.of(T.INPUT, line) };
    if (name === 'HOME') return { ...EMPTY_VALUE, text, str: '~' };
    const fallback = this.defaultValue(node, text);
    if (this.assigned(name) || this.loopVars.has(name)) {
      const v = this.variableValue(name, text);
      return fallback ? { ...v, taint: v.taint.union(fallback.taint) } : v;
    }
    const bits = envNameBits([name]) | (CREDENTIAL_PATH_VARS.test(name) ? T.CRED_PATH : 0);
    const own = taintOfBits(bits, line);
    // `${VAR:-default}` may be the default: it carries what that path names.
    if (fallback)
      return { text, str: null, alts: fallback.str ? [fallback.str] : [], taint: own.union(fallback.taint) };
    return { ...EMPTY_VALUE, text, taint: own };
  }

  /** The default word of `${VAR:-word}` / `${VAR-word}` / `${VAR:=word}`, evaluated; null when there is none. */
  private defaultValue(node: Node, text: string): Value | null {
    if (node.type !== 'expansion' || !/^\$\{\w+:?[-=]/.test(text)) return null;
    const word = node.namedChildren.filter((c) => c && c.type !== 'variable_name');
    if (word.length === 0) return null;
    const parts = word.map((c) => this.valueOf(c));
    const str = joinParts(parts.map((v) => v.str));
    const line = lineOf(node);
    return { text, str, alts: [], taint: unionTaint(parts).union(str ? pathTaint(str, line) : Taint.NONE) };
  }
}

function basename(path: string): string {
  return (path.split('/').pop() ?? path).toLowerCase();
}

/** The command a stage really runs, looking through wrappers (`sudo bash` runs bash). */
function effectiveName(stage: Node, nameOf: (cmd: Node) => string | null = commandName): string {
  const cmd = stage.type === 'command' ? stage : stage.firstDescendantOfType('command');
  if (!cmd) return '';
  let name = nameOf(cmd) ?? '';
  const words = cmd.childrenForFieldName('argument').map((w) => w?.text.replace(/^["']|["']$/g, '') ?? '');
  let i = 0;
  while (WRAPPERS.has(name) && i < words.length) {
    while (i < words.length && /^(-|\w+=|\d+$)/.test(words[i]!)) i++;
    if (i >= words.length) break;
    name = basename(words[i]!);
    i++;
  }
  return name;
}

export function commandName(node: Node): string | null {
  const cmd = node.type === 'command' ? node : null;
  const nameNode = cmd?.childForFieldName('name');
  if (!nameNode) return null;
  // The shell removes quotes and backslashes from a name before it looks it up: `cu''rl` and `c\url` run curl.
  const text = nameNode.text;
  return basename(text.startsWith("$'") ? text : text.replace(/["'\\]/g, ''));
}
