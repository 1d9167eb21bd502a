// Entry point of code analysis: parse once, extract the CodeModel, then analyse code hidden inside it
// (inline shell strings, exec'd literals, decoded base64/hex blobs) and merge those calls with their origin.
// Results are cached by text so every detector of a file shares one parse.
import { findEncodedBlobs, inflateStream } from '../decode.js';
import { decodeChains } from '../decode-chain.js';
import { codeLanguage, MAX_PARSE_CHARS, parseSyntax } from '../treesitter.js';
import { rememberRobustExtras, reviewRobustness } from './code-robust-facts.js';
import { extractJavaScript } from './javascript.js';
import { type Call, type CodeModel, Taint, UNKNOWN, type Value } from './model.js';
import { extractPowerShell } from './powershell.js';
import { extractPython } from './python.js';
import { type Embedded, type Extraction, isDecodeCallee, type ProgramScope, SINGLE_FILE } from './script.js';
import { extractShell } from './shell.js';

const CACHE_SIZE = 32;
const MAX_EMBED_DEPTH = 2;
const MAX_EMBEDDED = 50;
// Keyed by the text itself, then by language and program: a key made by joining them to the text would be a
// new string of the text's length on every lookup, hashed and compared whole each time (15 detectors ask per file).
const cache = new Map<string, Map<string, Promise<CodeModel | null>>>();

/** Code-like decoded text: worth parsing as a script. */
const CODE_HINT =
  /\b(import|require|exec|eval|curl|wget|subprocess|os\.|fetch|https?|socket|base64|chmod|bash|sh -c|powershell|iex)\b|\|\s*(ba)?sh\b/;
/** Decoded text that starts like a shell command line (`git config --global …`, `rm -rf ~/x`): code, not prose. */
const COMMAND_LINE =
  /^\s*(git|rm|cp|mv|cat|tar|zip|scp|ssh|nc|crontab|sudo|pip3?|npm|npx|python3?|node|perl|ruby|systemctl|launchctl|defaults|security|osascript|reg|schtasks|echo|printf|tee|dd|find|xargs|set-\w+|new-\w+|add-\w+|invoke-\w+|start-process)\s+[-~/.$"'\w]/i;

/**
 * Analyses `text` as `language`; null when the language has no grammar. Cached per (language, text, modules).
 * `program` says where each file starts and which modules are the skill's own when `text` is a program of
 * several files (program.ts).
 */
export function analyseCode(
  language: string,
  text: string,
  program: ProgramScope = SINGLE_FILE,
): Promise<CodeModel | null> {
  const lang = codeLanguage(language);
  if (!lang) return Promise.resolve(null);
  const scope = `${lang}\u0000${[...program.modules].join(',')}\u0000${program.rows.join(',')}`;
  let byScope = cache.get(text);
  if (byScope) {
    cache.delete(text);
    cache.set(text, byScope);
  } else {
    byScope = new Map();
    cache.set(text, byScope);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  let pending = byScope.get(scope);
  if (!pending) {
    pending = analyse(lang, text, 0, program).catch(() => null);
    byScope.set(scope, pending);
  }
  return pending;
}

const COMMENT_LINE: Record<string, RegExp> = {
  bash: /^[ \t]*#.*$/gm,
  python: /^[ \t]*#.*$/gm,
  powershell: /^[ \t]*#.*$/gm,
  javascript: /^[ \t]*\/\/.*$/gm,
  typescript: /^[ \t]*\/\/.*$/gm,
};

/**
 * A script over the parse limit with its whole-line comments emptied (lines keep their numbers): megabytes of
 * comment lines ahead of the code are how a payload is pushed past what a scanner parses. The shebang stays.
 */
export function withoutCommentLines(text: string, lang: string): string {
  const re = COMMENT_LINE[lang];
  if (!re) return text;
  const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1 || text.length) : '';
  return shebang + text.slice(shebang.length).replace(re, '');
}

async function analyse(
  language: string,
  original: string,
  depth: number,
  program: ProgramScope = SINGLE_FILE,
): Promise<CodeModel | null> {
  const text =
    original.length > MAX_PARSE_CHARS
      ? withoutCommentLines(original, codeLanguage(language) ?? '')
      : original;
  const tree = await parseSyntax(language, text);
  if (!tree) return null;
  const parsedChars = tree.rootNode.endIndex;
  let ex: Extraction & { nounset?: boolean };
  let modelLang: CodeModel['language'];
  const lang = codeLanguage(language)!;
  if (lang === 'bash') {
    ex = extractShell(tree);
    modelLang = 'bash';
  } else if (lang === 'python') {
    ex = extractPython(tree, program);
    modelLang = 'python';
  } else if (lang === 'powershell') {
    ex = extractPowerShell(tree);
    modelLang = 'powershell';
  } else {
    ex = extractJavaScript(tree, program);
    modelLang = 'javascript';
  }
  if (tree.hasError) ex.hasErrors = true;
  // Robustness facts the extractors leave out, read from the same tree.
  const robust = reviewRobustness(lang, tree, ex);
  const model: CodeModel = {
    language: modelLang,
    calls: ex.calls,
    loops: ex.loops,
    swallows: ex.swallows,
    names: ex.names,
    nounset: ex.nounset ?? false,
    truncated: text.length > MAX_PARSE_CHARS || text.slice(parsedChars).trim().length > 0,
    hasErrors: ex.hasErrors,
  };
  rememberRobustExtras(model, robust);
  if (depth < MAX_EMBED_DEPTH)
    await mergeEmbedded(model, [...ex.embedded, ...blobsIn(text, modelLang, ex.embedded, ex.calls)], depth);
  return model;
}

/** Cap on inflated payloads: a compressed blob is code to read, not a zip bomb to expand. */
const MAX_INFLATED = 100_000;

/**
 * zlib or gzip streams (`exec(zlib.decompress(b64decode(...)))`) hide their code a second time; inflate them
 * when the bytes carry the format's header and the result is text.
 */
function inflate(bytes: string): string | null {
  const text = inflateStream(Buffer.from(bytes, 'latin1'), MAX_INFLATED)?.toString('utf8');
  return text !== undefined && isMostlyPrintable(text) ? text : null;
}

function isMostlyPrintable(s: string): boolean {
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || c >= 32) ok++;
  }
  return s.length > 0 && ok / s.length > 0.95;
}

const SHELLISH = /^\s*(#!.*sh|curl|wget|bash|sh|chmod|echo|cat)\b|\|\s*(ba)?sh\b/m;

/**
 * Base64/hex blobs that decode to code; scanned as the host language (or shell when it looks like one). A blob
 * is read where it is written, and also as the value a decode call is given when the code builds it from pieces
 * (`b64decode("Ki8x" + "MCAq…")`), which no text search finds whole.
 */
function blobsIn(
  text: string,
  language: CodeModel['language'],
  known: readonly Embedded[],
  calls: readonly Call[],
): Embedded[] {
  const seen = new Set(known.map((e) => e.text));
  const out: Embedded[] = [];
  const sources: { text: string; lineAt: (index: number) => number }[] = [
    {
      text: text.length > MAX_PARSE_CHARS ? text.slice(0, MAX_PARSE_CHARS) : text,
      lineAt: (index) => text.slice(0, index).split('\n').length,
    },
  ];
  for (const c of calls) {
    const decodes =
      isDecodeCallee(c.callee) ||
      (c.callee === 'Buffer.from' && /^(base64|base64url|hex)$/.test(c.args[1]?.str ?? ''));
    const built = c.kind === 'call' && decodes ? c.args[0]?.str : null;
    if (built && built.length >= 50 && !built.includes('\u2026') && !text.includes(built))
      sources.push({ text: built, lineAt: () => c.line });
  }
  for (const source of sources)
    for (const blob of findEncodedBlobs(source.text, 50)) {
      const inflated = blob.printable ? null : inflate(blob.decoded);
      const decoded = inflated ?? blob.decoded;
      if ((!blob.printable && !inflated) || seen.has(decoded)) continue;
      if (!CODE_HINT.test(decoded) && !COMMAND_LINE.test(decoded)) continue;
      const line = source.lineAt(blob.index);
      const shellish = SHELLISH.test(decoded) || (language !== 'powershell' && COMMAND_LINE.test(decoded));
      out.push({
        language: shellish ? 'bash' : language,
        text: decoded,
        line,
        origin: `decoded from ${inflated ? 'compressed ' : ''}${blob.encoding} at line ${line}`,
      });
      seen.add(decoded);
    }
  // Constants behind a longer chain (XOR with a key, base85, rot13, a reversed string) that the code names.
  for (const chain of decodeChains(text)) {
    if (seen.has(chain.decoded) || (!CODE_HINT.test(chain.decoded) && !COMMAND_LINE.test(chain.decoded)))
      continue;
    const line = text.slice(0, chain.index).split('\n').length;
    out.push({
      language:
        SHELLISH.test(chain.decoded) || (language !== 'powershell' && COMMAND_LINE.test(chain.decoded))
          ? 'bash'
          : language,
      text: chain.decoded,
      line,
      origin: `decoded by ${chain.chain} at line ${line}`,
    });
  }
  return out;
}

async function mergeEmbedded(model: CodeModel, embedded: readonly Embedded[], depth: number): Promise<void> {
  for (const e of embedded.slice(0, MAX_EMBEDDED)) {
    const inner = await analyse(e.language, e.text.slice(0, 100_000), depth + 1);
    if (!inner) continue;
    for (const c of inner.calls) model.calls.push(relocate(c, e));
    // Code run under `timeout N` cannot loop past that deadline.
    const deadline = e.origin.endsWith('under a timeout');
    for (const l of inner.loops)
      model.loops.push({ ...l, line: e.line, endLine: e.line, exits: l.exits || deadline });
  }
}

/** Moves a call found in embedded code to the host line that runs it, taint dates included. */
function relocate(call: Call, e: Embedded): Call {
  const holes = e.holes?.at(e.line) ?? Taint.NONE;
  // A value built from a hole carries what the host program wrote into it.
  const at = (v: Value): Value => {
    const own = v.taint.at(e.line);
    return { ...v, taint: v.str === null || v.str.includes(UNKNOWN) ? own.union(holes) : own };
  };
  return {
    ...call,
    args: call.args.map(at),
    named: new Map([...call.named].map(([k, v]) => [k, at(v)])),
    receiver: call.receiver ? at(call.receiver) : null,
    output: call.output.at(e.line),
    stdin: call.stdin.at(e.line),
    line: e.line,
    endLine: e.line,
    origin: call.origin ? `${e.origin}; ${call.origin}` : e.origin,
  };
}
