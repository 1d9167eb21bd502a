// PowerShell extractor (lighter than the others): commands with their elements as words, pipelines, and
// taint judged from well-known cmdlets and .NET calls in the text of each element.
import { decodeScriptLiteral } from '../decode.js';
import type { Node, Tree } from '../treesitter.js';
import type { Call, Value } from './model.js';
import { T, Taint } from './model.js';
import { type Embedded, type Extraction, endLineOf, lineOf } from './script.js';
import { isSecretName, pathTaint, readTaint } from './values.js';

/** Aliases PowerShell ships for cmdlets we look for. */
export const CMDLET_ALIASES: Record<string, string> = {
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
  cp: 'copy-item',
  copy: 'copy-item',
  cpi: 'copy-item',
};

/** Hex strings turned back into bytes: [Convert]::FromHexString, or pairs parsed base 16 ([Convert]::ToByte($_, 16)). */
const HEX_DECODE_RE =
  /\[(System\.)?Convert\]::(FromHexString\b|To(Byte|S?Byte|U?Int(16|32|64))\s*\([^\n]{0,80}?,\s*16\s*\))/i;

/** Runs a string as code: Invoke-Expression (after alias resolution) or a script block built from text. */
const SCRIPTBLOCK_RE = /\[(System\.Management\.Automation\.)?ScriptBlock\]::Create\s*\(/i;

/** Cmdlets that read or copy the file they are given (copying a cookie store is reading it). */
const FILE_READERS = new Set(['get-content', 'copy-item', 'compress-archive', 'import-clixml']);

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
  if (HEX_DECODE_RE.test(text)) bits |= T.DECODED;
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
    // A statement assigned whole (`$b = for (...) { ... }`) has no value field: take the last child.
    const right = a?.childForFieldName('value') ?? a?.namedChildren[a.namedChildCount - 1];
    if (!a || !left?.startsWith('$') || !right) continue;
    const line = lineOf(a);
    const str = /^["'][^"'$]*["']$/.test(right.text.trim()) ? right.text.trim().slice(1, -1) : null;
    const prev = vars.get(left)?.taint ?? Taint.NONE;
    // Taint flows through earlier variables the value uses ($text = ...GetString($bytes)).
    let taint = prev.union(elementTaint(right.text, line));
    for (const m of right.text.matchAll(/\$[\w:]+/g)) {
      const v = vars.get(m[0].toLowerCase());
      if (v && m[0].toLowerCase() !== left) taint = taint.union(v.taint);
    }
    // `Join-Path $HOME '.aws\credentials'`: a path part quoted inside a command names the same store.
    if (str === null)
      for (const q of right.text.matchAll(/["']([^"'$\n]{3,200})["']/g))
        taint = taint.union(pathTaint(q[1]!, line));
    vars.set(left, { text: right.text, str, alts: [], taint });
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
    if (FILE_READERS.has(name)) for (const a of args) stdin = stdin.union(readTaint(a, lineOf(cmd)));
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
  out.embedded.push(...decodedPayloads(tree, out.calls, vars));
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

/**
 * Encoded scripts (base64 in UTF-8 or UTF-16LE, hex) that the file decodes and runs with Invoke-Expression or
 * [ScriptBlock]::Create: the decoded text is analysed as PowerShell at the line that runs it, like
 * -EncodedCommand, so what the hidden script reads and sends is reported.
 */
function decodedPayloads(tree: Tree, calls: readonly Call[], vars: ReadonlyMap<string, Value>): Embedded[] {
  const decodedIn = (c: Call) =>
    c.stdin.has(T.DECODED) ||
    c.args.some((a) => a.taint.has(T.DECODED)) ||
    [...c.text.matchAll(/\$[\w:]+/g)].some((m) => vars.get(m[0].toLowerCase())?.taint.has(T.DECODED));
  const runs = calls.filter(
    (c) => (c.callee === 'invoke-expression' || SCRIPTBLOCK_RE.test(c.text)) && decodedIn(c),
  );
  if (runs.length === 0) return [];
  const out: Embedded[] = [];
  const seen = new Set<string>();
  for (const type of ['expandable_string_literal', 'verbatim_string_characters']) {
    for (const lit of tree.rootNode.descendantsOfType(type)) {
      if (!lit || lit.text.length < 26) continue;
      const decoded = decodeScriptLiteral(lit.text.slice(1, -1));
      if (!decoded || seen.has(decoded)) continue;
      seen.add(decoded);
      const at = lineOf(lit);
      const run = runs.find((r) => r.line >= at) ?? runs[runs.length - 1]!;
      out.push({
        language: 'powershell',
        text: decoded,
        line: run.line,
        origin: `decoded from line ${at} and run by ${run.callee} at line ${run.line}`,
      });
    }
  }
  return out.slice(0, 8);
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
