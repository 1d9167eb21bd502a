// PowerShell extractor (lighter than the others): commands with their elements as words, pipelines, and
// taint judged from well-known cmdlets and .NET calls in the text of each element.
import type { Node, Tree } from '../treesitter.js';
import type { Call, Value } from './model.js';
import { T, Taint } from './model.js';
import { type Extraction, endLineOf, lineOf } from './script.js';
import { isSecretName, pathTaint, readTaint } from './values.js';

/** Aliases PowerShell ships for cmdlets we look for. */
const CMDLET_ALIASES: Record<string, string> = {
  iwr: 'invoke-webrequest',
  irm: 'invoke-restmethod',
  curl: 'invoke-webrequest',
  wget: 'invoke-webrequest',
  iex: 'invoke-expression',
  gci: 'get-childitem',
  ls: 'get-childitem',
  dir: 'get-childitem',
  gc: 'get-content',
  cat: 'get-content',
  saps: 'start-process',
  start: 'start-process',
};

function elementTaint(text: string, line: number): Taint {
  let bits = 0;
  if (/\b(Get-ChildItem|gci|ls|dir)\s+env:|\[(System\.)?Environment\]::GetEnvironmentVariables/i.test(text))
    bits |= T.ENV_ALL;
  for (const m of text.matchAll(/\$env:([A-Za-z_][\w]*)/gi)) if (isSecretName(m[1]!)) bits |= T.ENV_SECRET;
  if (
    /\b(iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b|DownloadString|DownloadData|Net\.WebClient/i.test(text)
  )
    bits |= T.FETCHED;
  if (/FromBase64String|-EncodedCommand|-enc\b|\[char\[?\]?\]\s*\d/i.test(text)) bits |= T.DECODED;
  return bits ? Taint.of(bits, line) : Taint.NONE;
}

function wordValue(node: Node, vars: ReadonlyMap<string, Value>): Value {
  const line = lineOf(node);
  const known = vars.get(node.text.toLowerCase());
  if (known) return { ...known, text: node.text };
  let taint = elementTaint(node.text, line);
  for (const m of node.text.matchAll(/\$[\w:]+/g)) {
    const v = vars.get(m[0].toLowerCase());
    if (v) taint = taint.union(v.taint);
  }
  const str = node.text.replace(/^["']|["']$/g, '');
  return { text: node.text, str, alts: [], taint: taint.union(pathTaint(str, line)) };
}

/** `$x = <expr>`: the variable carries the taint (and constant string) of its value. */
function variables(tree: Tree): Map<string, Value> {
  const vars = new Map<string, Value>();
  for (const a of tree.rootNode.descendantsOfType('assignment_expression')) {
    const left = a?.namedChildren[0]?.text.trim().toLowerCase();
    const right = a?.childForFieldName('value');
    if (!a || !left?.startsWith('$') || !right) continue;
    const line = lineOf(a);
    const str = /^["'][^"'$]*["']$/.test(right.text.trim()) ? right.text.trim().slice(1, -1) : null;
    const prev = vars.get(left)?.taint ?? Taint.NONE;
    vars.set(left, { text: right.text, str, alts: [], taint: prev.union(elementTaint(right.text, line)) });
  }
  return vars;
}

export function extractPowerShell(tree: Tree): Extraction {
  const out: Extraction = {
    calls: [],
    loops: [],
    swallows: [],
    names: new Set(),
    embedded: [],
    hasErrors: false,
  };
  const vars = variables(tree);
  const inFunction = spans(tree, 'function_statement');
  const inTry = spans(tree, 'try_statement');
  for (const cmd of tree.rootNode.descendantsOfType('command')) {
    if (!cmd) continue;
    const rawName = cmd.childForFieldName('command_name')?.text.toLowerCase() ?? '';
    const name = CMDLET_ALIASES[rawName] ?? rawName;
    out.names.add(name);
    const elements = cmd.childForFieldName('command_elements')?.namedChildren ?? [];
    const args = elements
      .filter((e): e is Node => !!e && e.type !== 'command_argument_sep')
      .map((e) => wordValue(e, vars));
    const chain = cmd.parent?.type === 'pipeline_chain' ? cmd.parent : null;
    // Every stage counts for stdin, also expressions such as [Environment]::GetEnvironmentVariables().
    const stages = chain ? chain.namedChildren.filter((c): c is Node => c !== null) : [cmd];
    const at = stages.findIndex((s) => s.id === cmd.id);
    let stdin = Taint.NONE;
    for (const s of stages.slice(0, Math.max(0, at))) stdin = stdin.union(elementTaint(s.text, lineOf(s)));
    const pipedTo = stages.slice(at + 1).map((s) => {
      const n = s.childForFieldName('command_name')?.text.toLowerCase() ?? '';
      return CMDLET_ALIASES[n] ?? n;
    });
    if (name === 'get-content') for (const a of args) stdin = stdin.union(readTaint(a, lineOf(cmd)));
    const call: Call = {
      kind: 'command',
      callee: name,
      args,
      named: new Map(),
      receiver: null,
      output: stdin.union(elementTaint(cmd.text, lineOf(cmd))),
      stdin,
      pipedTo,
      redirectTo: null,
      line: lineOf(cmd),
      endLine: endLineOf(cmd),
      text: (chain ?? cmd).text,
      topLevel: !within(inFunction, cmd.startIndex),
      guarded: within(inTry, cmd.startIndex),
      background: false,
      origin: null,
    };
    out.calls.push(call);
    // (New-Object Net.WebClient).DownloadString('url') is a download like Invoke-WebRequest.
    for (const m of cmd.text.matchAll(/Download(?:String|File|Data)\(\s*['"]([^'"]+)['"]/gi)) {
      const url: Value = { text: m[1]!, str: m[1]!, alts: [], taint: Taint.NONE };
      out.calls.push({
        ...call,
        callee: 'invoke-webrequest',
        args: [url],
        pipedTo: [],
        output: Taint.of(T.FETCHED, call.line),
      });
    }
    // `powershell -EncodedCommand <base64 UTF-16LE>` hides the script it runs.
    const enc = args.findIndex((a) => /^-(e|ec|enc|encodedcommand)$/i.test(a.str ?? ''));
    const blob = enc >= 0 ? args[enc + 1]?.str : null;
    if (blob && /^(powershell|pwsh)(\.exe)?$/.test(name)) {
      const decoded = Buffer.from(blob, 'base64').toString('utf16le');
      out.embedded.push({
        language: 'powershell',
        text: decoded,
        line: call.line,
        origin: `decoded from -EncodedCommand at line ${call.line}`,
      });
    }
  }
  for (const e of tree.rootNode.descendantsOfType('ERROR')) if (e) out.hasErrors = true;
  for (const c of tree.rootNode.descendantsOfType('catch_clause')) {
    if (!c) continue;
    const block = c.firstDescendantOfType('statement_block');
    if (block?.namedChildren.every((n) => !n || n.type === 'comment'))
      out.swallows.push({
        line: lineOf(c),
        endLine: endLineOf(c),
        text: c.text.split('\n')[0] ?? '',
        kind: 'empty-catch',
      });
  }
  return out;
}

/** Character ranges of all nodes of a type (node.parent is slow in tree-sitter, ranges are cheap). */
function spans(tree: Tree, type: string): [number, number][] {
  return tree.rootNode
    .descendantsOfType(type)
    .flatMap((n) => (n ? [[n.startIndex, n.endIndex] as [number, number]] : []));
}

function within(ranges: readonly [number, number][], at: number): boolean {
  return ranges.some(([a, b]) => a <= at && at < b);
}
