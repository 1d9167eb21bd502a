// R1 per argument rather than per file: a default on `$2` or a `-z "$DAYS"` test says nothing about `$1`,
// and a PowerShell `param(...)` block validates only the parameters that carry a Validate* attribute or are
// checked in the body. One finding where each unchecked input enters: its assignment or its declaration.
import { contextConfidence } from '../code/hits.js';
import type { CodeModel } from '../code/model.js';
import type { FileContext, Hit } from '../rule.js';
import { quote } from '../text.js';

/** Whole-file checks that cover every argument: a count check, getopts, a usage message. */
const SHELL_ALL_CHECKED = /\$#|\bgetopts\b|\busage\b/i;
/** `NAME="$1"`, `NAME=$2`, `NAME="${3}"`: a positional read with no default or guard on the read. */
const SHELL_POSITIONAL_READ =
  /^\s*(?:local\s+|readonly\s+|declare\s+)?([A-Za-z_]\w*)=["']?\$\{?([1-9])\}?["']?\s*(?:#.*)?$/;

function reEscape(name: string): string {
  return name.replace(/[^\w]/g, '\\$&');
}

/** What a rejecting branch does: fail with a status, print to stderr, show usage. */
const REJECTS = /\bexit\s+[1-9]|\breturn\s+[1-9]|>&2|\busage\b|\bdie\b|\bfail\b/i;

function comparison(ref: string): RegExp {
  return new RegExp(`${ref}\\s*(?:==?|!=|-eq|-ne|-lt|-le|-gt|-ge)\\s`);
}

function quotedRef(r: string): string {
  return `["']?\\$\\{?${r}\\}?["']?`;
}

/**
 * Whether the script checks this variable (or its positional): a presence test (`-z`, `-n`), a pattern
 * (`=~`), a `${VAR:?}`/`${VAR:-}` expansion, a `case` with a rejecting `*)` arm, or a comparison whose branch
 * rejects (`[ "$M" = a ] || exit 2`). A bare `if [ "$M" = --apply ]` picks a branch and lets a typo through.
 */
export function shellVariableChecked(text: string, name: string, positional?: string): boolean {
  const refs = [name, positional].filter((n): n is string => !!n).map(reEscape);
  const lines = text.split('\n');
  return refs.some((r) => {
    const ref = quotedRef(r);
    if (
      new RegExp(`-[zn]\\s+${ref}`).test(text) ||
      new RegExp(`${ref}\\s*=~`).test(text) ||
      new RegExp(`\\$\\{${r}:?[?-]`).test(text)
    )
      return true;
    if (new RegExp(`\\bcase\\s+${ref}\\s+in\\b`).test(text))
      return lines.some((l, i) => /^\s*\*\)/.test(l) && REJECTS.test(lines.slice(i, i + 3).join('\n')));
    const compare = comparison(ref);
    return lines.some((l, i) => compare.test(l) && REJECTS.test(lines.slice(i, i + 3).join('\n')));
  });
}

/** The variable a `NAME="$1"` line assigns, with its positional; null for other lines. */
export function shellPositionalRead(line: string): { name: string; positional: string } | null {
  const m = SHELL_POSITIONAL_READ.exec(line);
  return m ? { name: m[1]!, positional: m[2]! } : null;
}

function withoutComments(text: string): string {
  return text.replace(/^[ \t]*#.*$/gm, '');
}

function inputHit(ctx: FileContext, line: number, text: string, why: string, base: number): Hit {
  const { confidence, notes } = contextConfidence(ctx, base);
  return {
    rule: 'code.unvalidated-input',
    line,
    endLine: line,
    evidence: quote(text.trim()),
    confidence,
    rationale: [why, ...notes].join('; '),
  };
}

/** `MODE="$1"` with nothing checking MODE (or $1) before a command uses it. */
function shellArgumentHits(ctx: FileContext, model: CodeModel): Hit[] {
  const code = withoutComments(ctx.text);
  if (SHELL_ALL_CHECKED.test(code)) return [];
  const lines = ctx.text.split('\n');
  const hits: Hit[] = [];
  lines.forEach((text, i) => {
    const read = shellPositionalRead(text);
    if (!read || hits.length >= 3 || shellVariableChecked(code, read.name, read.positional)) return;
    const use = new RegExp(`\\$\\{?${reEscape(read.name)}\\b`);
    // Used by a command, or branched on (`if [ "$MODE" = --apply ]`) so an unknown value silently picks a path.
    const compare = comparison(quotedRef(reEscape(read.name)));
    const used =
      model.calls.some((c) => c.kind === 'command' && c.line > i + 1 && use.test(c.text)) ||
      lines.slice(i + 1).some((l) => compare.test(l));
    if (!used) return;
    hits.push(
      inputHit(
        ctx,
        i + 1,
        text,
        `$${read.positional} is stored in ${read.name} and used in a command with no check on its value`,
        0.35,
      ),
    );
  });
  return hits;
}

/** Attributes that check a parameter's value (not just its presence or type). */
const PS_VALIDATES = /\[\s*Validate(?:Set|Pattern|Script|Range)\s*\(/i;
/** Types whose binding already rejects free text. */
const PS_SAFE_TYPE =
  /\[\s*(?:int|int32|int64|long|double|decimal|bool|switch|datetime|timespan|guid|char)\s*\]/i;

interface PsParam {
  name: string;
  line: number;
  attributes: string;
}

/** Text of the balanced parenthesised block starting at `open`, or null. */
function balanced(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

/**
 * What may precede a script-level param block: comments, #Requires, using, attributes. A comment or using line
 * runs to the end of its line and whitespace goes one character at a time, so the text splits into items one
 * way only (`(?:\s+|#[^\n]*)*` back-tracked exponentially on a long run of blanks or `#`s).
 */
const SCRIPT_PREAMBLE = /^(?:\s|#[^\n]*(?=\n|$)|using\s[^\n]*(?=\n|$)|\[[^\]\n]*\])*$/i;

/** Parameters of the script's `param(...)` block, each with the attributes and type written before it. */
function psParams(text: string): { params: PsParam[]; end: number } | null {
  const m = /(?:^|\n)\s*(?:\[CmdletBinding\([^)]*\)\]\s*)?param\s*\(/i.exec(text);
  // The script's own parameters come first; a param() inside a function is fed by its callers.
  if (!m || !SCRIPT_PREAMBLE.test(text.slice(0, m.index))) return null;
  const open = m.index + m[0].length - 1;
  const block = balanced(text, open);
  if (block === null) return null;
  const params: PsParam[] = [];
  let depth = 0;
  let start = 0;
  const flush = (end: number) => {
    const part = block.slice(start, end);
    const name = /\$(\w+)\s*(?:=|$)/.exec(part.trimEnd())?.[1] ?? /\$(\w+)/.exec(part)?.[1];
    if (name) {
      const at = open + 1 + start + part.indexOf(`$${name}`);
      params.push({ name, line: text.slice(0, at).split('\n').length, attributes: part });
    }
    start = end + 1;
  };
  for (let i = 0; i < block.length; i++) {
    const ch = block[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) flush(i);
  }
  flush(block.length);
  return { params, end: open + block.length + 2 };
}

/** A check on `$Name` in the script body (`-match`, `-in`, `switch ($Name)`, `Test-Path $Name`, `[ValidateSet]`). */
function psChecked(body: string, name: string): boolean {
  const v = `\\$${reEscape(name)}\\b`;
  return (
    new RegExp(`${v}\\s*-(?:not)?(?:match|in|like|contains)\\b|-(?:not)?(?:in|contains)\\s+${v}`, 'i').test(
      body,
    ) ||
    new RegExp(`\\bswitch\\s*(?:-\\w+\\s*)*\\(\\s*${v}`, 'i').test(body) ||
    new RegExp(`\\bTest-Path\\b[^\\n]*${v}`, 'i').test(body) ||
    new RegExp(`\\[\\s*Validate\\w*\\([^\\n]*\\)\\s*\\]\\s*${v}`, 'i').test(body) ||
    new RegExp(`\\bif\\s*\\(\\s*-not\\s*\\(?\\s*${v}\\s*-(?:match|like)`, 'i').test(body)
  );
}

/** Cmdlets that only print or format: a parameter in a message is not used as a path or command. */
const PS_OUTPUT = /^(write-\w+|echo|out-host|out-null|format-\w+)$/i;

/** Whether body line `line` (1-based in the file) uses `$Name` as a path or as a command argument. */
function psUsedAsPathOrCommand(model: CodeModel, text: string, line: number, name: string): boolean {
  const n = reEscape(name);
  const path = new RegExp(
    `Join-Path\\b[^\\n]*\\$${n}\\b|[\\\\/]\\$\\(?\\$?${n}\\b|\\$\\(?\\$?${n}\\b\\)?:?[\\\\/]`,
    'i',
  );
  if (path.test(text)) return true;
  const ref = new RegExp(`\\$${n}\\b`, 'i');
  return model.calls.some(
    (c) => c.kind === 'command' && c.line === line && !PS_OUTPUT.test(c.callee) && ref.test(c.text),
  );
}

/** `param([string]$Drive)` used in a path or command with no Validate* attribute and no check in the body. */
function powershellParamHits(ctx: FileContext, model: CodeModel): Hit[] {
  const text = ctx.text.replace(/<#[\s\S]*?#>/g, (c) => c.replace(/[^\n]/g, ' '));
  const found = psParams(text);
  if (!found) return [];
  const body = text.slice(found.end);
  const firstBodyLine = text.slice(0, found.end).split('\n').length;
  const bodyLines = body.split('\n');
  const hits: Hit[] = [];
  for (const p of found.params) {
    if (hits.length >= 3 || PS_VALIDATES.test(p.attributes) || PS_SAFE_TYPE.test(p.attributes)) continue;
    if (psChecked(body, p.name)) continue;
    const used = bodyLines.some(
      (l, i) => !/^\s*#/.test(l) && psUsedAsPathOrCommand(model, l, firstBodyLine + i, p.name),
    );
    if (!used) continue;
    hits.push(
      inputHit(
        ctx,
        p.line,
        ctx.text.split('\n')[p.line - 1] ?? `$${p.name}`,
        `parameter $${p.name} is used in a command or path with no ValidateSet/ValidatePattern and no check in the script`,
        0.35,
      ),
    );
  }
  return hits;
}

export function argumentHits(ctx: FileContext, model: CodeModel): Hit[] {
  if (model.language === 'bash') return shellArgumentHits(ctx, model);
  if (model.language === 'powershell') return powershellParamHits(ctx, model);
  return [];
}
