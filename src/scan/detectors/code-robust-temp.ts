// R5: more ways a script creates a file or folder in the machine-wide temp directory than the base rule
// reads: combined download flags (`wget -qO /tmp/x`, `curl -fsSLo /tmp/x`), folders (`mkdir`, `New-Item
// -ItemType Directory`), python and node writers (`urlretrieve`, `Path(...).write_text`, `createWriteStream`),
// and paths held in a variable built from the temp directory (`$work = Join-Path $env:TEMP 'x'`,
// `path.join(os.tmpdir(), 'x.json')`). A fixed name there is predictable to other users and outlives the run.
import type { Call, Value } from '../code/model.js';
import { UNKNOWN } from '../code/model.js';
import { namedDownloadTargets } from '../code/network.js';
import type { FileContext } from '../rule.js';

/** A created temp path and the words a removal of it would name (its file name, the variable holding it). */
export interface TempPath {
  path: string;
  needles: string[];
}

/** The machine-wide temp directory as a literal prefix (also read by the base R5 rule in code-robustness.ts). */
export const SHARED_TEMP = /^(\/tmp|\/var\/tmp|\$\{?TMPDIR\}?|\$env:(TEMP|TMP))[\\/]/i;
/** Expressions that evaluate to the temp directory in any of the four languages. */
const TEMP_EXPR =
  /\btmpdir\(\)|\bgettempdir\(\)|\$env:(TEMP|TMP)\b|GetTempPath\(\)|GetTempFileName\(\)|New-TemporaryFile|["'`](\/tmp|\/var\/tmp)\//i;

function unquote(text: string): string {
  return text.replace(/^["'`]|["'`]$/g, '');
}

/** `$work = …`, `work = …`, `const work = …`: the right-hand side the script gives a name, when on one line. */
function assignedExpression(ctx: FileContext, name: string): string | null {
  // Asked for the same few names many times per file: each answer is a regex compiled and run over the file.
  if (memo.text !== ctx.text) {
    memo.text = ctx.text;
    memo.answers.clear();
  }
  let answer = memo.answers.get(name);
  if (answer === undefined) {
    const escaped = name.replace(/[$]/g, '\\$');
    answer =
      new RegExp(`(?:^|[\\s;(])(?:const\\s+|let\\s+|var\\s+)?${escaped}\\s*=(?!=)\\s*(.+)$`, 'mi').exec(
        ctx.text,
      )?.[1] ?? null;
    memo.answers.set(name, answer);
  }
  return answer;
}
const memo = { text: '', answers: new Map<string, string | null>() };

/** The variable an operand names (`$work`, `"$OUT"`, `cacheFile`, `(Join-Path $stage 'x')` → `$stage`). */
function variableOf(text: string): string | null {
  const t = unquote(text.trim());
  const ps = /^\(?\s*(?:Join-Path\s+)?(\$\w+)/i.exec(t)?.[1];
  if (ps) return ps;
  const sh = /^\$\{?(\w+)\}?(?:[\\/]|$)/.exec(t)?.[1];
  if (sh) return sh;
  return /^[A-Za-z_]\w*$/.test(t) ? t : null;
}

function lastSegment(path: string): string {
  return (
    path
      .replace(/['")\s]+$/, '')
      .split(/[\\/\s'"]/)
      .filter((s) => s && s !== UNKNOWN && !s.startsWith('$'))
      .pop() ?? path
  );
}

/** Whether an operand is a path in the shared temp directory; with what a removal of it would name. */
function tempOperand(ctx: FileContext, value: Pick<Value, 'text' | 'str'>): TempPath | null {
  const literal = value.str !== null ? unquote(value.str) : null;
  if (literal && SHARED_TEMP.test(literal)) return { path: literal, needles: [lastSegment(literal)] };
  const name = variableOf(value.text);
  if (!name) return null;
  const rhs = assignedExpression(ctx, name);
  if (!rhs || !TEMP_EXPR.test(rhs)) return null;
  const shellName = name.startsWith('$') ? name : `$${name}`;
  const needles = [name.startsWith('$') ? name : shellName, `\${${name.replace(/^\$/, '')}`];
  // `path.join(os.tmpdir(), 'x.json')` names its file in the expression; a removal may name either.
  const named = /['"]([\w.-]+)['"]\s*\)?\s*;?\s*$/.exec(rhs)?.[1];
  if (named) needles.push(named);
  if (!/^\$/.test(name)) needles.push(name);
  return { path: `${unquote(value.text)} (${rhs.trim().slice(0, 60)})`, needles };
}

/** PowerShell parameters that take a value (`-ItemType Directory`); switches like -Force take none. */
const PS_VALUED = /^-(itemtype|type|name|value|credential|encoding)$/i;

/** Operands of a cmdlet that are not parameter names or their values. */
function psPositionals(args: readonly Value[]): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const s = args[i]!.str ?? '';
    if (PS_VALUED.test(s)) i++;
    else if (!s.startsWith('-')) out.push(args[i]!);
  }
  return out;
}

/** What else a call creates: folders, clones, extractions, python and node writers. */
function createdOperands(c: Call): Value[] {
  const args = c.args;
  if (c.kind === 'command') {
    if (/^(wget|curl)$/.test(c.callee)) return namedDownloadTargets(c);
    if (/^(mkdir|md|touch)$/.test(c.callee)) return args.filter((a) => !(a.str ?? '').startsWith('-'));
    if (c.callee === 'new-item') {
      const i = args.findIndex((a) => /^-path$/i.test(a.str ?? ''));
      const path = i >= 0 ? args[i + 1] : psPositionals(args)[0];
      return path ? [path] : [];
    }
    if (c.callee === 'unzip' || c.callee === 'tar') {
      const i = args.findIndex((a) => /^(-d|-C|--directory)$/.test(a.str ?? ''));
      return i >= 0 && args[i + 1] ? [args[i + 1]!] : [];
    }
    if (c.callee === 'git' && args[0]?.str === 'clone') {
      const ops = args.slice(1).filter((a) => !(a.str ?? '').startsWith('-'));
      return ops.length >= 2 ? [ops[ops.length - 1]!] : [];
    }
    if (/^(out-file|set-content|export-csv|copy-item|move-item|expand-archive)$/.test(c.callee)) {
      const i = args.findIndex((a) =>
        /^-(filepath|path|destination|destinationpath|literalpath)$/i.test(a.str ?? ''),
      );
      if (i >= 0 && args[i + 1]) return [args[i + 1]!];
    }
    return [];
  }
  const callee = c.callee;
  if (
    /(^|\.)urlretrieve$|^shutil\.(copy|copy2|copyfile|copytree|move)$|^fs\.(promises\.)?copyFile(Sync)?$/.test(
      callee,
    )
  )
    return args[1] ? [args[1]] : [];
  if (
    /^os\.(makedirs|mkdir)$|^fs\.(promises\.)?(writeFile|appendFile|mkdir)(Sync)?$|^fs\.createWriteStream$/.test(
      callee,
    )
  )
    return args[0] ? [args[0]] : [];
  if (/\.(write_text|write_bytes|mkdir|touch)$/.test(callee)) {
    const literal = /\(\s*["']([^"']+)["']/.exec(c.text)?.[1];
    if (c.receiver) return [c.receiver];
    return literal ? [{ text: literal, str: literal, alts: [], taint: args[0]?.taint ?? c.output }] : [];
  }
  return [];
}

/** Temp paths a call creates that the base rule does not read. */
export function moreCreatedTempPaths(ctx: FileContext, c: Call): TempPath[] {
  const out: TempPath[] = [];
  for (const v of createdOperands(c)) {
    const t = tempOperand(ctx, v);
    if (t) out.push(t);
  }
  return out;
}
