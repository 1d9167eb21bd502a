// SC3: decoded payloads that run, names assembled from pieces so they never appear in the source,
// character-code strings, packers, and code blobs hidden in base64/hex.

import { escapeRegExp } from '../../util/regexp.js';
import { callHit, contextConfidence } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { T } from '../code/model.js';
import { networkUses } from '../code/network.js';
import { CMDLET_ALIASES } from '../code/powershell.js';
import { BIDI_CONTROL, RTL_SCRIPT } from '../decode.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, quote } from '../text.js';
import { codeArgs, stdinIsCode } from './code-supply-chain.js';

export const OBFUSCATION_RULES = rulesDetectedBy('code-obfuscation');

/** Names worth hiding: executors, shells and network tools. */
const DANGEROUS =
  /^(system|popen|exec|execSync|execFileSync|spawn|spawnSync|eval|Function|compile|__import__|import_module|run|Popen|check_output|call|curl|wget|bash|sh|nc|ncat|python3?|powershell|iex|invoke-expression|base64|fetch|urlopen|post|get|request|environ|env)$/;

function decodedExecHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    const decoded = codeArgs(c).find((a) => a.taint.has(T.DECODED));
    const fromStdin = stdinIsCode(c) && c.stdin.has(T.DECODED);
    if (decoded || fromStdin) {
      const t = decoded ? decoded.taint : c.stdin;
      hits.push(
        callHit(
          ctx,
          c,
          'code.decoded-exec',
          0.9,
          `decoded data (line ${t.lineOf(T.DECODED)}) is run by ${c.callee}`,
        ),
      );
    }
    if (c.origin?.startsWith('decoded from -EncodedCommand'))
      hits.push(
        callHit(
          ctx,
          { ...c, origin: null },
          'code.decoded-exec',
          0.85,
          'PowerShell -EncodedCommand hides the script it runs',
        ),
      );
  }
  return hits;
}

/** Risky calls found only inside a decoded blob: the encoding hides them even if this file never runs them. */
function blobHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const seen = new Set<number>();
  for (const c of model.calls) {
    if (!c.origin || !/^decoded from (base64|hex)/.test(c.origin) || seen.has(c.line)) continue;
    if (!DANGEROUS.test(c.callee.split('.').pop() ?? '')) continue;
    seen.add(c.line);
    hits.push(
      callHit(ctx, c, 'code.decoded-exec', 0.55, `an encoded blob decodes to code calling ${c.callee}`),
    );
  }
  return hits;
}

function aliasWritten(callee: string, text: string): boolean {
  return Object.entries(CMDLET_ALIASES).some(
    ([alias, full]) => full === callee && new RegExp(`(^|[^\\w-])${alias}($|[^\\w-])`, 'i').test(text),
  );
}

/** Calls of a command or code string the host program runs, not decoded from a blob. */
const RUN_STRING = /^(?:inline code|command|code) run by /;
/** Names whose absence from the file means they were hidden, when a command string runs them. */
const RUN_STRING_HIDDEN = /^(?:curl|wget|bash|sh|nc|ncat|powershell|iex|invoke-expression)$/i;

function hiddenNameHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const literal = new Map<string, boolean>();
  for (const c of model.calls) {
    // A command string the code runs counts (`os.system("hs | … lruc"[::-1])` runs a curl nobody wrote); a
    // decoded payload has its own rule.
    if (c.origin && !RUN_STRING.test(c.origin)) continue;
    const name = c.callee.split('.').pop() ?? '';
    if (!DANGEROUS.test(name) || name.length < 3) continue;
    // In a command string, an interpreter is often the running one (`[sys.executable, "-m", "pip", …]`).
    if (c.origin && !RUN_STRING_HIDDEN.test(name)) continue;
    let present = literal.get(name);
    if (present === undefined) {
      present = new RegExp(`(^|[^\\w])${escapeRegExp(name)}($|[^\\w])`, 'i').test(ctx.text);
      // PowerShell's shipped aliases (iex, iwr) are how people write these cmdlets, not a way to hide them.
      if (!present && model.language === 'powershell') present = aliasWritten(c.callee, ctx.text);
      literal.set(name, present);
    }
    if (!present)
      hits.push(
        callHit(
          ctx,
          c,
          'code.hidden-name',
          0.85,
          `resolves to ${c.callee}, a name that never appears literally in the file`,
          `Hidden call to ${c.callee}.`,
        ),
      );
  }
  return hits;
}

const PACKED: readonly { re: RegExp; why: string; confidence: number }[] = [
  {
    re: /eval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[dr]\s*\)/,
    why: 'Dean Edwards packer',
    confidence: 0.85,
  },
  {
    re: /(?:\b_0x[0-9a-f]{4,6}\b[\s\S]{0,200}?){12}/,
    why: 'obfuscator-style _0x identifiers',
    confidence: 0.8,
  },
  {
    re: /(?:chr\(\s*(?:0x)?[0-9a-f]+\s*\)\s*\+\s*){5,}/i,
    why: 'a string spelled with chr() codes',
    confidence: 0.65,
  },
  {
    re: /String\.fromCharCode\(\s*(?:\d+\s*,\s*){5,}/,
    why: 'a string spelled with String.fromCharCode codes',
    confidence: 0.65,
  },
  {
    re: /\[\s*(?:\d{2,3}\s*,\s*){8,}\d{2,3}\s*\][\s\S]{0,60}?(fromCharCode|\bchr\b|bytes\(|\.decode\()/,
    why: 'a character-code array turned into text',
    confidence: 0.6,
  },
  { re: /(?:\\x[0-9a-f]{2}){24,}/i, why: 'a long \\x-escaped string', confidence: 0.5 },
];

function packedHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  const starts = lineStarts(ctx.text);
  const text = ctx.text.length > 1_000_000 ? ctx.text.slice(0, 1_000_000) : ctx.text;
  for (const p of PACKED) {
    const m = p.re.exec(text);
    if (!m) continue;
    const line = lineAt(starts, m.index);
    const { confidence, notes } = contextConfidence(ctx, p.confidence);
    const runs = model.calls.some((c: Call) => c.line === line && codeArgs(c).length > 0);
    hits.push({
      rule: 'code.packed',
      line,
      endLine: lineAt(starts, m.index + m[0].length),
      evidence: quote(m[0], 200),
      confidence: runs ? Math.min(0.95, confidence + 0.2) : confidence,
      rationale: [p.why, ...(runs ? ['the result is executed on the same line'] : []), ...notes].join('; '),
    });
  }
  // Minified code in a skill's own script: one very long dense line (vendored *.min.js are expected).
  if (!/\.min\.(js|mjs)$|(^|\/)(vendor|node_modules|dist|assets)\//.test(ctx.file.path)) {
    const long = text.split('\n').findIndex((l) => l.length > 3000 && l.split(' ').length < l.length / 40);
    if (long >= 0) {
      const { confidence, notes } = contextConfidence(ctx, 0.3);
      hits.push({
        rule: 'code.packed',
        line: long + 1,
        endLine: long + 1,
        evidence: quote(text.split('\n')[long] ?? '', 160),
        confidence,
        rationale: ['a minified line of over 3000 characters in a skill script', ...notes].join('; '),
      });
    }
  }
  return hits;
}

const MAX_TROJAN_HITS = 3;

// Right-to-left scripts (Hebrew, Arabic) in a string or comment may carry bidi marks for display; elsewhere a
// bidi control has no purpose but to show a reviewer other code than the interpreter runs.
function trojanSourceHits(ctx: FileContext): Hit[] {
  const hits: Hit[] = [];
  if (!BIDI_CONTROL.test(ctx.text)) return hits;
  for (const [i, line] of ctx.text.split('\n').entries()) {
    if (!BIDI_CONTROL.test(line) || RTL_SCRIPT.test(line)) continue;
    const { confidence, notes } = contextConfidence(ctx, 0.85);
    hits.push({
      rule: 'code.trojan-source',
      line: i + 1,
      endLine: i + 1,
      evidence: quote(line, 200),
      confidence,
      rationale: ['bidirectional control characters in a line of left-to-right code', ...notes].join('; '),
    });
    if (hits.length >= MAX_TROJAN_HITS) break;
  }
  return hits;
}

/** A network destination decoded from base64/hex at run time: the host is hidden from review. */
function hiddenDestinationHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  for (const use of networkUses(model.calls)) {
    if (!use.urlTaint.has(T.DECODED) || use.call.origin) continue;
    hits.push(
      callHit(
        ctx,
        use.call,
        'code.decoded-exec',
        0.75,
        `the destination of ${use.call.callee} is decoded at run time (line ${use.urlTaint.lineOf(T.DECODED)})`,
        'Network destination hidden in an encoded string.',
      ),
    );
  }
  return hits;
}

export function obfuscationHits(ctx: FileContext, model: CodeModel): Hit[] {
  return [
    ...hiddenDestinationHits(ctx, model),
    ...decodedExecHits(ctx, model),
    ...blobHits(ctx, model),
    ...hiddenNameHits(ctx, model),
    ...packedHits(ctx, model),
    ...trojanSourceHits(ctx),
  ];
}

export const obfuscationDetector = codeDetector('code-obfuscation', OBFUSCATION_RULES, obfuscationHits);
