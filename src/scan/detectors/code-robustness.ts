// Robustness: R1 unvalidated input, R2 network calls without timeout, R3 unbounded loops and retries,
// R4 swallowed errors and rm -rf on possibly empty variables, R5 temp files, processes and handles left behind.
import { robustExtrasOf } from '../code/code-robust-facts.js';
import { callHit, contextConfidence } from '../code/hits.js';
import type { Call, CodeModel, SwallowFact } from '../code/model.js';
import { T, UNKNOWN } from '../code/model.js';
import { networkUses } from '../code/network.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { quote } from '../text.js';
import { argumentHits, shellPositionalRead, shellVariableChecked } from './code-robust-input.js';
import { moreCreatedTempPaths, SHARED_TEMP } from './code-robust-temp.js';
import { transferTimeoutHits } from './code-robust-timeouts.js';

export const ROBUSTNESS_RULES = rulesDetectedBy('code-robustness');

const VALIDATION: Record<CodeModel['language'], RegExp> = {
  python:
    /\b(argparse|click|typer|fire|docopt|optparse|jsonschema|pydantic)\b|len\(\s*sys\.argv\s*\)|sys\.argv\[1:\]|except\s*\(?\s*(IndexError|ValueError|KeyError|json\.JSONDecodeError|JSONDecodeError)/,
  javascript:
    /process\.argv\.length|\b(parseArgs|yargs|commander|minimist|meow|zod|ajv|joi)\b|argv\.slice\([^)]*\)\.length|if\s*\(\s*!\s*(args?|argv|input)/,
  bash: /\$#|\$\{\d:[?-]|-z\s+"?\$\{?\d|getopts|\bcase\s+"?\$\{?1/,
  powershell: /\[Parameter\(|\[Validate|param\s*\(/i,
};

/** Any language: a usage message or an explicit emptiness check means the author thought about bad input. */
const ANY_VALIDATION = /\busage\b|if\s*\(\s*!\s*[\w.]+\s*\)|===?\s*undefined|if\s+not\s+\w+\s*:/i;
/** Argument-parser libraries: they validate what they parse, not raw `sys.argv[2]` read beside them. */
const PARSER_ONLY: Partial<Record<CodeModel['language'], RegExp>> = {
  python: /\b(argparse|click|typer|fire|docopt|optparse)\b/g,
  javascript: /\b(parseArgs|yargs|commander|minimist|meow)\b/g,
};
/** A positional read with a fallback (`process.argv[2] ?? 'config.json'`): a missing argument is handled. */
const DEFAULTED = /\bargv\[\d\]\s*(\?\?|\|\|)|\bargv\[\d\]\s+if\s+len\(/;
/** A raw positional read: `sys.argv[2]`, `process.argv[3]`. */
const RAW_POSITIONAL = /\bsys\.argv\[[1-9]\]|\bprocess\.argv\[[2-9]\]/;

/** The text without whole-line comments (a comment mentioning "usage statistics" checks nothing). */
function withoutCommentLines(text: string): string {
  return text.replace(/^[ \t]*(#|\/\/).*$/gm, '');
}

/** `MODE="$1"` followed by a test or `case` on MODE: that argument is checked. */
function shellReadChecked(code: string, line: string): boolean {
  const read = shellPositionalRead(line);
  return !!read && shellVariableChecked(code, read.name, read.positional);
}

function inputHits(ctx: FileContext, model: CodeModel): Hit[] {
  const code = withoutCommentLines(ctx.text);
  if (ANY_VALIDATION.test(code)) return [];
  // Per use: a parser library in the file validates what it parses, so a file whose only check is such a
  // parser still gets a (weaker) finding for each raw positional read beside it.
  let parserOnly = false;
  if (VALIDATION[model.language].test(code)) {
    const parser = PARSER_ONLY[model.language];
    if (!parser || VALIDATION[model.language].test(code.replace(parser, ''))) return [];
    parserOnly = true;
  }
  const lines = ctx.text.split('\n');
  // One finding per place the script reads its input (argv, stdin, $1), where nothing checks it: at the
  // read, whether the read is inside the call that uses it or in an assignment just before.
  const hits: Hit[] = [];
  const seen = new Set<number>();
  for (const c of model.calls) {
    if (c.origin || c.guarded) continue;
    const input = [...c.args, ...c.named.values()].find((v) => v.taint.has(T.INPUT));
    const line = input?.taint.lineOf(T.INPUT);
    if (!input || line === undefined || line > c.endLine || seen.size >= 3) continue;
    if (parserOnly && !RAW_POSITIONAL.test(lines[line - 1] ?? '')) continue;
    if (DEFAULTED.test(lines[line - 1] ?? '')) continue;
    if (model.language === 'bash' && shellReadChecked(code, lines[line - 1] ?? '')) continue;
    if ([...seen].some((l) => Math.abs(l - line) <= 2)) continue;
    seen.add(line);
    const at = { line, endLine: line };
    // set -u turns a missing argument into an "unbound variable" abort: no crash downstream, but no usage either.
    const why = model.nounset
      ? 'positional arguments are used with no count check or usage message (set -u only aborts with "unbound variable")'
      : parserOnly
        ? 'a raw positional argument is used beside an argument parser that does not cover it'
        : 'script input is used with no argument check, parser, schema or error handling in the file';
    hits.push(
      callHit(
        ctx,
        c,
        'code.unvalidated-input',
        model.nounset ? 0.25 : parserOnly ? 0.3 : 0.35,
        why,
        undefined,
        at,
      ),
    );
  }
  return hits;
}

/** Parsers of structured text that throw on malformed input. */
const STRUCTURED_PARSE =
  /^(json\.loads?|yaml\.(safe_)?load|tomllib\.loads?|toml\.loads?|JSON\.parse|YAML\.parse|yaml\.parse|convertfrom-json|convertfrom-csv|import-csv)$/;
/** Where the parsed text comes from: a file, stdin, or another program's output (not the script's own constants). */
const OUTSIDE_TEXT =
  /\bopen\(|\.read(_text|_bytes|FileSync|File)?\(|\bstdin\b|\.stdout\b|\bcheck_output\(|\bexecSync\(|\bGet-Content\b|\bargv\b/i;
/** Readers of delimited rows (files or stdin by construction). */
const CSV_READER = /^csv\.(DictReader|reader)$/;
/** Field conversions that raise on a malformed value. */
const FIELD_CONVERSION = /\b(float|int|Decimal)\(\s*\w+\[|\bfromisoformat\(|\bstrptime\(/;
/** A schema validator or a handler for the parse error anywhere in the file checks the shape of what was parsed. */
const SHAPE_CHECK =
  /\b(jsonschema|pydantic|marshmallow|cerberus|zod|ajv|joi|yup|valibot|superstruct|Test-Json)\b|except\s*\(?[^:\n]*\b(JSONDecodeError|ValueError|YAMLError|TOMLDecodeError|KeyError|TypeError|Exception)\b/i;

/**
 * Files, stdin or command output parsed as JSON/YAML/TOML/CSV outside any error handling: a malformed file
 * or an unexpected shape ends in a traceback instead of a clear message.
 */
function parseHits(ctx: FileContext, model: CodeModel): Hit[] {
  if (SHAPE_CHECK.test(withoutCommentLines(ctx.text))) return [];
  const hits: Hit[] = [];
  for (const c of model.calls) {
    if (c.origin || c.guarded) continue;
    // A CSV reader yields strings: the defect is converting its fields (float, dates) with nothing to catch a bad row.
    const rows = CSV_READER.test(c.callee) && FIELD_CONVERSION.test(ctx.text);
    if (!rows && !STRUCTURED_PARSE.test(c.callee)) continue;
    const source = c.kind === 'command' ? c.text : (c.args[0]?.text ?? '');
    const fromOutside =
      rows || OUTSIDE_TEXT.test(source) || c.args.some((a) => a.taint.has(T.INPUT)) || c.stdin.has(T.INPUT);
    if (!fromOutside || c.args.some((a) => a.taint.has(T.FETCHED))) continue;
    hits.push(
      callHit(
        ctx,
        c,
        'code.unvalidated-input',
        0.3,
        `${c.callee} parses outside data with no error handling or shape check`,
        'Parsed input is used without error handling or validation.',
      ),
    );
    if (hits.length >= 3) break;
  }
  return hits;
}

const GLOBAL_TIMEOUT =
  /socket\.setdefaulttimeout|axios\.defaults\.timeout|axios\.create\(\s*\{[^}]*timeout|HTTPAdapter|\.timeout\s*=|AbortController|max-time\s+\d|--max-time|\bconnect-timeout\b|\$PSDefaultParameterValues/;

/** A call to a function the file defines itself (a local `fetch` wrapper) is not the library call of that name. */
function callsLocalFunction(call: Call, local: ReadonlySet<string>): boolean {
  return call.kind === 'call' && local.has(call.callee);
}

function timeoutHits(ctx: FileContext, model: CodeModel, local: ReadonlySet<string> = new Set()): Hit[] {
  if (GLOBAL_TIMEOUT.test(ctx.text)) return [];
  const hits: Hit[] = [];
  for (const use of networkUses(model.calls)) {
    if (use.timeout || use.kind === 'dns' || use.call.origin?.startsWith('decoded')) continue;
    // Its body's own network calls are judged where they are.
    if (callsLocalFunction(use.call, local)) continue;
    hits.push(
      callHit(
        ctx,
        use.call,
        'code.no-timeout',
        0.6,
        `${use.call.callee} has no timeout`,
        `${use.call.callee} call without a timeout.`,
      ),
    );
  }
  return hits;
}

function loopHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const loop of model.loops) {
    if (loop.exits || !(loop.network || loop.retries)) continue;
    const { confidence, notes } = contextConfidence(
      ctx,
      (loop.network ? 0.65 : 0.5) * (loop.conditional ? 0.75 : 1),
    );
    hits.push({
      rule: 'code.unbounded-loop',
      line: loop.line,
      endLine: loop.endLine,
      evidence: quote(loop.text),
      confidence,
      rationale: [
        `${loop.conditional ? 'loop that waits for a condition' : 'infinite loop'} ${loop.network ? 'around network calls' : 'retrying or polling'} with no attempt limit or deadline it can reach`,
        ...notes,
      ].join('; '),
    });
  }
  return hits;
}

const SWALLOW_WHY: Record<string, [string, number]> = {
  'bare-except': ['bare except that ignores every error (even KeyboardInterrupt)', 0.6],
  'broad-except': ['catches every Exception and does nothing', 0.5],
  'empty-catch': ['empty catch block ignores the error', 0.5],
  'or-true': ['a destructive command whose failure is ignored with || true', 0.55],
  'or-true-before-delete': [
    'a dump, copy or download whose failure is ignored with || true, before the script deletes data',
    0.5,
  ],
};

/** What catches the error, for handlers that answer with an empty value instead of doing nothing. */
const CATCHER: Record<string, string> = {
  'bare-except': 'a bare except',
  'broad-except': 'an except Exception',
  'empty-catch': 'a catch handler',
};

/** Handlers that answer with an empty value, and dropped error events, say so (same weight as doing nothing). */
function swallowReason(s: SwallowFact): [string, number] {
  const [why, base] = SWALLOW_WHY[s.kind]!;
  if (/^\.\w+\(['"`](error|uncaughtException|unhandledRejection)['"`]/.test(s.text))
    return ['an error listener that does nothing drops every error event', base];
  const catcher = CATCHER[s.kind];
  if (catcher && /\breturn\b|=>\s*\(?\s*(\[|\{\s*\}|null|undefined|false|0\b|''|"")/.test(s.text))
    return [
      `${catcher} turns every failure into an empty value the caller cannot tell from a real result`,
      base,
    ];
  return [why, base];
}

function rmHit(ctx: FileContext, c: Call, nounset: boolean): Hit | null {
  if (c.kind !== 'command' || c.callee !== 'rm') return null;
  if (!c.args.some((a) => /^-[a-zA-Z]*[rR]/.test(a.str ?? '') || a.str === '--recursive')) return null;
  // set -u stops unset variables, not ones assigned an empty string by a command that failed.
  const assignedHere = (text: string) => {
    const name = /\$\{?(\w+)/.exec(text)?.[1];
    return !!name && new RegExp(`(^|[\\s;])${name}=`, 'm').test(ctx.text);
  };
  const risky = c.args.find(
    (a) =>
      (a.str ?? '').startsWith(`${UNKNOWN}/`) &&
      !/:\?|:-[^}]/.test(a.text) &&
      /\$/.test(a.text) &&
      (!nounset || assignedHere(a.text)),
  );
  if (!risky) return null;
  return callHit(
    ctx,
    c,
    'code.swallowed-error',
    0.7,
    `${risky.text} deletes from / when the variable is empty (no \${VAR:?} and no set -u)`,
    'rm -rf on a possibly empty variable.',
  );
}

function errorHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const s of model.swallows) {
    const [why, base] = swallowReason(s);
    const { confidence, notes } = contextConfidence(ctx, base);
    hits.push({
      rule: 'code.swallowed-error',
      line: s.line,
      endLine: s.endLine,
      evidence: quote(s.text, 200),
      confidence,
      rationale: [why, ...notes].join('; '),
    });
  }
  for (const c of model.calls) {
    const h = rmHit(ctx, c, model.nounset);
    if (h) hits.push(h);
  }
  return hits;
}

function cleanupHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const names = model.names;
  const has = (...n: string[]) => n.some((x) => names.has(x));
  for (const c of model.calls) {
    if (c.origin) continue;
    if (c.kind === 'command' && c.callee === 'mktemp' && !mktempRemoved(ctx, c, has('trap', 'rm')))
      hits.push(callHit(ctx, c, 'code.leaked-resource', 0.5, 'mktemp without a trap or rm that removes it'));
    if (c.kind === 'command' && c.background && !has('wait', 'kill', 'trap', 'disown'))
      hits.push(
        callHit(ctx, c, 'code.leaked-resource', 0.45, 'background process never waited for or stopped'),
      );
    if (c.kind === 'call') {
      const temp =
        /^tempfile\.(mkstemp|mkdtemp|mktemp)$/.test(c.callee) ||
        (/^tempfile\.NamedTemporaryFile$/.test(c.callee) && c.named.get('delete')?.text === 'False');
      if (temp && !has('unlink', 'remove', 'rmtree', 'cleanup', 'rmdir'))
        hits.push(callHit(ctx, c, 'code.leaked-resource', 0.5, `${c.callee} result is never removed`));
      if (
        /^fs\.(openSync|mkdtempSync)$/.test(c.callee) &&
        !has('closeSync', 'rmSync', 'unlinkSync', 'rmdirSync')
      )
        hits.push(
          callHit(ctx, c, 'code.leaked-resource', 0.4, `${c.callee} without a matching close or remove`),
        );
    }
  }
  hits.push(...sharedTempHits(ctx, model));
  // Python handles opened outside a `with` block in a file that never calls close().
  if (model.language === 'python' && !names.has('close')) {
    const leaks = model.calls.filter(
      (c) =>
        !c.origin &&
        !c.managed &&
        /^(open|io\.open|codecs\.open|gzip\.open|bz2\.open|(PIL\.)?Image\.open)$/.test(c.callee),
    );
    for (const c of leaks.slice(0, 3))
      hits.push(
        callHit(ctx, c, 'code.leaked-resource', 0.35, `${c.callee}() outside a with block and never closed`),
      );
  }
  return hits;
}

/** Commands and calls that remove files; a removal line naming a temp path (or its variable) cleans it up. */
const REMOVAL = /\b(rm|rmdir|remove-item|ri|del|unlink|unlinkSync|rmSync|rmtree|remove|os\.remove|trap)\b/i;

function removedOnSomeLine(text: string, needle: string): boolean {
  return text.split('\n').some((l) => REMOVAL.test(l) && l.includes(needle));
}

/** `STAGE=$(mktemp -d)` is cleaned up only by an rm or trap that names $STAGE, not by any rm in the file. */
function mktempRemoved(ctx: FileContext, c: Call, anyRemoval: boolean): boolean {
  const name = /(\w+)=\$\(\s*mktemp\b/.exec(ctx.text.split('\n')[c.line - 1] ?? '')?.[1];
  if (!name) return anyRemoval;
  return removedOnSomeLine(ctx.text, `$${name}`) || removedOnSomeLine(ctx.text, `\${${name}`);
}

/** Commands that write the file named by every path argument (or their redirect). */
const WRITES_ARGS =
  /^(zip|7z|gzip|out-file|set-content|add-content|export-csv|export-clixml|tee|tee-object|writeFileSync|fs\.writeFileSync|fs\.promises\.writeFile)$/i;

function unquoted(text: string): string {
  return text.replace(/^["']|["']$/g, '');
}

/** The temp paths a call creates: archive and copy targets, download outputs, written files, redirects. */
function createdTempPaths(c: Call): string[] {
  const words = c.args.map((a) => unquoted(a.text));
  let out: string[] = [];
  if (c.kind === 'command' && c.callee === 'tar') {
    if (words.some((w) => /^-?[a-zA-Z]*c[a-zA-Z]*$|^--create$/.test(w))) out = words;
  } else if (c.kind === 'command' && /^(cp|mv)$/.test(c.callee)) out = words.slice(-1);
  else if (c.kind === 'command' && /^(curl|wget|invoke-webrequest|iwr)$/.test(c.callee))
    out = words.filter((_, i) => /^(-o|-O|--output|--output-document|-OutFile)$/i.test(words[i - 1] ?? ''));
  else if (c.callee === 'open') {
    if (/[wax]/.test(c.args[1]?.str ?? c.named.get('mode')?.str ?? '')) out = words.slice(0, 1);
  } else if (WRITES_ARGS.test(c.callee)) out = words;
  if (c.redirectTo) out.push(c.redirectTo);
  return out.filter((p) => SHARED_TEMP.test(p));
}

/**
 * Files created at fixed paths in the shared temp directory (`tar czf /tmp/x.tgz`, `> /tmp/out`,
 * `Out-File $env:TEMP\x.json`, `cd /tmp && wget …`) and never removed: they outlive the run and leak data.
 * One finding per script, spanning the leaks when they sit together.
 */
function sharedTempHits(ctx: FileContext, model: CodeModel): Hit[] {
  const leaks: { call: Call; path: string }[] = [];
  let inTemp = false;
  for (const c of [...model.calls].sort((a, b) => a.line - b.line)) {
    // Downloads the script runs from a string (`os.system("wget … -O /tmp/x")`) leave their file as surely
    // as its own commands; other string commands stay out (a credential copy there is PE3's finding).
    if (c.origin && (/decoded/.test(c.origin) || !/^(curl|wget)$/.test(c.callee))) continue;
    if (c.kind === 'command' && c.callee === 'cd') {
      inTemp = c.args.some((a) => /^(\/tmp|\/var\/tmp|\$\{?TMPDIR\}?)\/?$/.test(unquoted(a.text)));
      continue;
    }
    for (const p of createdTempPaths(c))
      if (!removedOnSomeLine(ctx.text, p.split(/[\\/]/).pop() || p)) leaks.push({ call: c, path: p });
    for (const t of moreCreatedTempPaths(ctx, c))
      if (!t.needles.some((n) => removedOnSomeLine(ctx.text, n))) leaks.push({ call: c, path: t.path });
    // Downloaded or unpacked into the temp directory the script changed to.
    if (inTemp && c.kind === 'command' && /^(wget|curl|tar|unzip|git)$/.test(c.callee) && !has(model, 'rm'))
      leaks.push({ call: c, path: 'the temp directory' });
  }
  const first = leaks[0];
  if (!first) return [];
  const near = leaks.filter((l) => l.call.line - first.call.line <= 5);
  const paths = [...new Set(near.map((l) => l.path))].join(', ');
  return [
    callHit(
      ctx,
      first.call,
      'code.leaked-resource',
      0.4,
      `creates ${paths} in the shared temp directory and never removes it`,
      `Leaves ${paths} behind in the shared temp directory.`,
      { line: first.call.line, endLine: Math.max(...near.map((l) => l.call.endLine)) },
    ),
  ];
}

function has(model: CodeModel, name: string): boolean {
  return model.names.has(name);
}

/** Robustness is a property of the skill's scripts, not of commands quoted in docs or of decoded payloads. */
const DOC_PATH = /\.(md|mdx|markdown|txt|rst)$/i;

export function robustnessHits(ctx: FileContext, model: CodeModel): Hit[] {
  if (DOC_PATH.test(ctx.file.path)) return [];
  const own = { ...model, calls: model.calls.filter((c) => !c.origin || !/decoded/.test(c.origin)) };
  return robustnessOf(ctx, own, robustExtrasOf(model)?.localFunctions);
}

function robustnessOf(ctx: FileContext, model: CodeModel, local?: ReadonlySet<string>): Hit[] {
  return [
    ...inputHits(ctx, model),
    ...parseHits(ctx, model),
    ...argumentHits(ctx, model),
    ...timeoutHits(ctx, model, local),
    ...transferTimeoutHits(ctx, model),
    ...loopHits(ctx, model),
    ...errorHits(ctx, model),
    ...cleanupHits(ctx, model),
  ];
}

export const robustnessDetector = codeDetector('code-robustness', ROBUSTNESS_RULES, robustnessHits);
