// Scripts inside scripts: a heredoc body that a shell script writes to a file that will run (a git hook, a
// cron script, ~/.local/bin/…) or feeds to an interpreter (`python3 - <<EOF`). The body is code in its own
// language, so it is analysed as such with the same code rules, and each finding points at the body's real
// line in the file. Bodies with nothing saying they are code (config, YAML, prose) are left alone. String values
// of a configuration file that are code for the tool reading it (config-code.ts) are analysed the same way.

import type { Rule } from '../../core/rule.js';
import { analyseCode } from '../code/analyse.js';
import { dedupe } from '../code/hits.js';
import type { CodeModel } from '../code/model.js';
import { findEncodedBlobs } from '../decode.js';
import { builtinRules, rulesDetectedBy } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { restateLines } from '../text.js';
import { codeLanguage, MAX_PARSE_CHARS } from '../treesitter.js';
import { exfiltrationHits } from './code-exfiltration.js';
import { filesystemHits } from './code-filesystem.js';
import { obfuscationHits } from './code-obfuscation.js';
import { persistenceHits } from './code-persistence.js';
import { privilegeHits } from './code-privilege.js';
import { remoteShellHits } from './code-remote-shell.js';
import { scheduledPersistenceDetector } from './code-scheduled-persistence.js';
import { supplyChainHits } from './code-supply-chain.js';
import { configScripts, isConfigWithCode } from './config-code.js';
import { CONFIG_LANGUAGES } from './config-mcp.js';

type Language = CodeModel['language'];

/**
 * Twins of the code rules (robustness left out: generated helpers are judged on intent), declared by each
 * rule's `embedded` id: same pattern, message and help, the id saying the code was embedded.
 */
export const EMBEDDED_RULES: readonly Rule[] = rulesDetectedBy('code-embedded');
const TWIN_OF = new Map(
  builtinRules().rules.flatMap((r) => (r.embedded ? [[r.id, r.embedded] as const] : [])),
);

export interface EmbeddedScript {
  language: Language;
  /** 1-based line of the first body line in the host file. */
  line: number;
  text: string;
  /** What makes it code: the interpreter fed, the file written, the shebang. */
  why: string;
  /** Held on one line of the host file (a JSON string): every finding is reported on that line. */
  flat?: boolean;
}

const HEREDOC = /(?<!<)<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/;
const SHEBANG: [RegExp, Language][] = [
  [/^#!.*\bpython[\d.]*\b/, 'python'],
  [/^#!.*\b(node|deno|bun)\b/, 'javascript'],
  [/^#!.*\b(pwsh|powershell)\b/i, 'powershell'],
  [/^#!.*\b(ba|z|da|k)?sh\b/, 'bash'],
];
const EXT: [RegExp, Language][] = [
  [/\.py[w3]?$/i, 'python'],
  [/\.(m|c)?js$/i, 'javascript'],
  [/\.ps[dm]?1$/i, 'powershell'],
  [/\.(ba|z|k)?sh$/i, 'bash'],
];
/** Places whose files the system or a tool runs later: hooks, cron, bin directories, shell start-up. */
const RUN_LOCATION =
  /(^|\/)(\.git\/hooks|hooks|\.githooks|\.husky)\/[\w.-]+$|\/cron\.(d|hourly|daily|weekly|monthly)\/|(^|\/)(\.local\/bin|bin|sbin)\/[\w.-]+$|profile\.d\/|(^|\/)\.(bash|zsh)rc$|(^|\/)\.(bash_)?profile$/;

/** The interpreter a heredoc is piped to on its opening line (`python3 - <<EOF`, `bash <<'SH'`). */
function fedTo(head: string): Language | null {
  const cmd = head.slice(0, head.search(HEREDOC)).trim();
  const m = /(?:^|[|;&]\s*|\b(?:sudo|env|exec)\s+)(\S+)(\s+-\S*)*\s*$/.exec(cmd);
  const name = (m?.[1] ?? '').replace(/^.*\//, '');
  if (/^python[\d.]*$/.test(name)) return 'python';
  if (/^(node|deno)$/.test(name)) return 'javascript';
  if (/^(pwsh|powershell)$/i.test(name)) return 'powershell';
  if (/^(ba|z|da|k)?sh$/.test(name)) return 'bash';
  return null;
}

/** The file a heredoc is written to on its opening line (`cat > x`, `cat >>x`, `tee x`). */
function writtenTo(head: string): string | null {
  const m = /(?:>>?|\btee\s+(?:-a\s+)?)\s*(["']?)([^\s"';|&<>]+)\1/.exec(head.replace(HEREDOC, ' '));
  return m?.[2] ?? null;
}

function classify(head: string, first: string): { language: Language; why: string } | null {
  const shebang = SHEBANG.find(([re]) => re.test(first));
  const target = writtenTo(head);
  const fed = fedTo(head);
  if (fed) return { language: fed, why: `fed to ${fed} on the heredoc line` };
  if (shebang && target)
    return { language: shebang[1], why: `written to ${target} with a ${shebang[1]} shebang` };
  if (!target) return null;
  const byExt = EXT.find(([re]) => re.test(target));
  if (byExt) return { language: byExt[1], why: `written to ${target}` };
  if (RUN_LOCATION.test(target.replace(/^["']|["']$/g, '')))
    return { language: 'bash', why: `written to ${target}, which runs later` };
  return null;
}

/** Heredoc bodies that are code, with the host line where each body starts. */
export function embeddedScripts(text: string): EmbeddedScript[] {
  const lines = text.split('\n');
  const out: EmbeddedScript[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    const m = HEREDOC.exec(head);
    if (!m || /^\s*#/.test(head)) continue;
    const delimiter = m[3]!;
    let end = i + 1;
    while (
      end < lines.length &&
      (m[1] ? lines[end]!.replace(/^\t+/, '') : lines[end]!).trimEnd() !== delimiter
    )
      end++;
    const body = lines.slice(i + 1, end);
    const kind = classify(head, body[0] ?? '');
    if (kind && body.length > 0) out.push({ ...kind, line: i + 2, text: body.join('\n') });
    i = end;
  }
  return out;
}

function innerHits(ctx: FileContext, model: CodeModel): Hit[] {
  return [
    ...exfiltrationHits(ctx, model),
    ...filesystemHits(ctx, model),
    ...obfuscationHits(ctx, model),
    ...persistenceHits(ctx, model),
    ...privilegeHits(ctx, model),
    ...remoteShellHits(ctx, model),
    ...supplyChainHits(ctx, model),
  ];
}

async function scriptHits(ctx: FileContext, s: EmbeddedScript): Promise<Hit[]> {
  const model = await analyseCode(s.language, s.text);
  if (!model) return [];
  const inner: FileContext = {
    ...ctx,
    text: s.text,
    file: { ...ctx.file, language: s.language, text: s.text },
  };
  const found = [...innerHits(inner, model), ...(await scheduledPersistenceDetector.detect(inner))];
  return found.flatMap((h) => {
    const twin = TWIN_OF.get(h.rule);
    return twin
      ? [
          {
            ...h,
            rule: twin,
            line: s.flat ? s.line : h.line + s.line - 1,
            endLine: s.flat ? s.line : h.endLine + s.line - 1,
            // Line numbers in the inner rationale count from the body; restate them as host-file lines.
            rationale: `${restateLines(h.rationale, (n) => `line ${s.flat ? s.line : n + s.line - 1}`)}; in a ${s.language} script embedded at line ${s.line} (${s.why})`,
          },
        ]
      : [];
  });
}

const INLINE_LANGUAGE: [RegExp, Language][] = [
  [/^(ba|z|da|k)?sh$/, 'bash'],
  [/^python[\d.]*$/, 'python'],
  [/^(node|deno)$/, 'javascript'],
  [/^(pwsh|powershell)$/i, 'powershell'],
];

/**
 * Multi-line `bash -c '…'`, `python3 -c "…"`, `node -e '…'` strings. The extractor already analyses them,
 * but reports everything at the command's first line; here each line of the string keeps its own line.
 */
async function inlineScripts(ctx: FileContext): Promise<EmbeddedScript[]> {
  const model = await analyseCode('bash', ctx.text);
  if (!model) return [];
  const lines = ctx.text.split('\n');
  const out: EmbeddedScript[] = [];
  for (const c of model.calls) {
    const language = INLINE_LANGUAGE.find(([re]) => re.test(c.callee))?.[1];
    const flag = c.args.findIndex((a) => a.str === '-c' || a.str === '-e' || a.str === '-Command');
    const code = flag >= 0 ? c.args[flag + 1]?.str : null;
    if (!language || c.origin || !code?.includes('\n') || code.includes('\u2026')) continue;
    const first = code.split('\n')[0]!.trim();
    // The string opens on the command's line, after the quote: its first line ends that host line.
    const at = lines.findIndex(
      (l, i) => i >= c.line - 1 && i <= c.endLine - 1 && (first === '' || l.includes(first)),
    );
    if (at >= 0) out.push({ language, line: at + 1, text: code, why: `inline code run by ${c.callee}` });
  }
  return out;
}

/**
 * Here-documents of a shell script that the file holds encoded (`echo <base64> | base64 -d | bash`, a whole
 * script packed): the decoded text's calls are in the code model already, but what its here-documents write
 * (a git hook, a cron job) is code of its own. Reported on the line of the blob.
 */
function decodedScripts(ctx: FileContext): EmbeddedScript[] {
  const out: EmbeddedScript[] = [];
  for (const blob of findEncodedBlobs(ctx.text.slice(0, MAX_PARSE_CHARS), 50)) {
    if (!blob.printable) continue;
    const line = ctx.text.slice(0, blob.index).split('\n').length;
    for (const s of embeddedScripts(blob.decoded))
      out.push({ ...s, line, flat: true, why: `${s.why}, in a script decoded from ${blob.encoding}` });
  }
  return out;
}

export const embeddedDetector: Detector = {
  name: 'code-embedded',
  rules: EMBEDDED_RULES,
  appliesTo: (file) =>
    file.text !== null &&
    (codeLanguage(file.language) === 'bash' ||
      (file.kind === 'data' && CONFIG_LANGUAGES.has(file.language ?? '') && isConfigWithCode(file.path))),
  async detect(ctx) {
    const hits: Hit[] = [];
    const scripts =
      ctx.file.kind === 'data'
        ? configScripts(ctx)
        : [...embeddedScripts(ctx.text), ...(await inlineScripts(ctx)), ...decodedScripts(ctx)];
    for (const s of scripts.slice(0, 20)) hits.push(...(await scriptHits(ctx, s)));
    return dedupe(hits);
  },
};
