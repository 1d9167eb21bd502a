import { blankCode, commandStance } from '../../core/markdown/command-stance.js';
import { framedAsStep, isImperative, quotedByTopicHeading } from '../../core/markdown/framing.js';
import type { Framing, MarkdownDoc } from '../../core/markdown.js';
import type { Rule } from '../../core/rule.js';
import type { Segment } from '../engine/prose-apply.js';
import { normalise } from '../engine/prose-normalise.js';
import type { PhraseRule } from '../engine/prose-phrase.js';
import { builtinPhraseRule, builtinRule } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';
import { lineAt, quote } from '../text.js';

// Commands written in inline code on a prose line (`curl … | sudo bash`, `npx tool`). Each is one command,
// read like a line of a shell block: its own hits at its own line, so two lures in one paragraph are two
// findings, and installs without a version are SC1 as they are in a fenced block.

export const UNPINNED_COMMAND_RULE: Rule = builtinRule('md.unpinned-command');

/** The phrase rules read over each inline command: the shell-block rules plus sudo. */
export const INLINE_COMMAND_RULES: readonly PhraseRule[] = [
  'md.remote-script-lure',
  'md.encoded-command',
  'md.unverifiable-install-source',
  'md.privilege-escalation',
].map(builtinPhraseRule);

// An inline span that is a command line rather than a name: it starts with a program that runs things.
const COMMAND_START =
  /^\s*(?:\$\s*)?(?:sudo\s+)?(?:curl|wget|iwr|irm|iex|Invoke-WebRequest|Invoke-RestMethod|Invoke-Expression|bash|sh|zsh|powershell|pwsh|npx|bunx|pnpx|pnpm|npm|yarn|pip[0-9.]*|pipx|uvx|uv|python[0-9.]*|py|echo|printf|base64|certutil|chmod|su)\b/i;

export interface InlineCommand {
  text: string;
  /** File offset of the command's first character. */
  start: number;
  framing: Framing;
  section: string;
}

/** Inline code spans that hold a command, with their offsets in the file and the section they sit in. */
export function inlineCommands(doc: MarkdownDoc, text: string): InlineCommand[] {
  const out: InlineCommand[] = [];
  for (const code of doc.inlineCode) {
    if (!COMMAND_START.test(code.text) || code.text.trim().split(/\s+/).length < 2) continue;
    const start = text.indexOf(code.text, code.start);
    if (start < 0) continue;
    const span = doc.spans.find((s) => s.start <= start && start < s.end);
    out.push({ text: code.text, start, framing: code.framing, section: span?.section ?? '' });
  }
  return out;
}

// Programs whose inline span is a command line the code detectors should read as shell (engine/scan.ts): shells
// and interpreters, network tools (reverse shells), decoders, file and scheduler commands (persistence,
// credential reads). Installers (npm, npx, pip, …) are left to the phrase rules above, which already read
// inline installs with the care they need (pins in the skill's package.json, audience); `sudo` is looked
// through to the program it runs.
const SHELL_PROGRAMS = [
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'exec',
  'eval',
  'source',
  'nohup',
  'env',
  'export',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
  'scp',
  'rsync',
  'sftp',
  'git',
  'aws',
  'gsutil',
  'rclone',
  'dig',
  'nslookup',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'node',
  'osascript',
  'echo',
  'printf',
  'base64',
  'xxd',
  'openssl',
  'certutil',
  'cat',
  'rm',
  'chmod',
  'chown',
  'mkfifo',
  'crontab',
  'launchctl',
  'systemctl',
];
const POWERSHELL_PROGRAMS = [
  'iex',
  'iwr',
  'irm',
  'invoke-expression',
  'invoke-webrequest',
  'invoke-restmethod',
  'powershell',
  'pwsh',
];

/**
 * The shell a command line is written for, by the program it starts with (`sudo` looked through), or null for
 * anything else: a name, a sentence, or a line of another language (`env = os.environ`, `eval(x)`).
 */
export function shellOf(line: string): ShellSpan['language'] | null {
  const words = line.split(/\s+/);
  const at = /^sudo$/i.test(words[0] ?? '') ? words.findIndex((w, i) => i > 0 && !w.startsWith('-')) : 0;
  if (at < 0 || words.length - at < 2) return null;
  const program = (words[at] ?? '').replace(/^.*\//, '').toLowerCase();
  // `iex (irm …)` is PowerShell's idiom; `env = …`, `eval (x)` after a shell program's name are another language.
  if (POWERSHELL_PROGRAMS.includes(program)) return 'powershell';
  if (/^[=([.:{,]/.test(words[at + 1]!)) return null;
  return SHELL_PROGRAMS.includes(program) || /^python[0-9.]*$/.test(program) ? 'bash' : null;
}

/**
 * The command lines of a block labelled another language or none (`curl … | sh` under ```python or ```yaml):
 * a label is the author's word, not what a reader pastes into a terminal. The block's text with every other
 * line emptied, so lines keep their numbers; null when no line is a shell command.
 */
export function commandLinesOf(code: string): string | null {
  const lines = code.split('\n');
  let any = false;
  let continued = false;
  const kept = lines.map((raw) => {
    const line = raw.trim().replace(/^(?:\$|!)\s*/, '');
    const keep = continued || shellOf(line) === 'bash';
    continued = keep && /\\$/.test(raw);
    any ||= keep;
    return keep ? line : '';
  });
  return any ? kept.join('\n') : null;
}

export interface ShellSpan {
  text: string;
  /** File offset of the span's first character. */
  start: number;
  framing: Framing;
  language: 'bash' | 'powershell';
  /** Framed as a quote by a topic heading alone: in the agent's instructions that discounts it only so far. */
  topicFramed?: boolean;
  /** Its sentence, framed as a step, orders the agent to do it ("If something fails, open a session with `…`"). */
  ordered?: boolean;
}

/** Inline code spans that are a whole command line, for the code detectors: `bash -i >& /dev/tcp/… 0>&1`. */
export function inlineShellCommands(doc: MarkdownDoc, text: string): ShellSpan[] {
  const out: ShellSpan[] = [];
  // Code spans sit outside the prose: sentences are read with them blanked (once, and only when needed).
  let prose: string | undefined;
  for (const code of doc.inlineCode) {
    const line = code.text.trim().replace(/^\$\s+/, '');
    const language = shellOf(line);
    if (!language) continue;
    const start = text.indexOf(code.text, code.start);
    if (start < 0) continue;
    // A span its sentence rules out ("never run `…`", "`…` and `…` do not match") is named, not prescribed.
    prose ??= blankCode(text, doc.codeRanges);
    const stance = commandStance(prose, start, start + code.text.length);
    const named = stance.ruledOut;
    const imperative = !named && isImperative(prose.slice(stance.from, stance.to));
    out.push({
      text: line,
      start: start + Math.max(0, code.text.indexOf(line)),
      framing: named ? 'documents-risk' : code.framing,
      language,
      ...(imperative && quotedByTopicHeading(code.framing, code.byHeading, code.section)
        ? { topicFramed: true }
        : {}),
      ...(imperative && framedAsStep(code.framing) ? { ordered: true } : {}),
    });
  }
  return out;
}

// "Install it: pip install x" — a command after a colon on a prose line runs to the end of the line.
const PROSE_COMMAND =
  /:\s+((?:sudo\s+)?(?:npx|bunx|pnpx|pnpm\s+dlx|pip[0-9.]*\s+install|python[0-9.]*\s+-m\s+pip\s+install|uv\s+pip\s+install|pipx\s+install)\s[^\n`]+?)\s*$/gim;

/**
 * Commands a reader copies but no code detector parses: lines of unlabelled fenced or indented blocks, and
 * a command after a colon on a prose line. Only installs are read here (SC1); the phrase rules see the rest.
 */
export function plainCommands(doc: MarkdownDoc, text: string, starts: readonly number[]): InlineCommand[] {
  const out: InlineCommand[] = [];
  for (const block of doc.codeBlocks) {
    if (block.lang !== '') continue;
    const from = starts[block.line - 1];
    if (from === undefined) continue;
    const to = starts[block.endLine] ?? text.length;
    let offset = from;
    for (const line of text.slice(from, to).split('\n')) {
      if (COMMAND_START.test(line)) {
        const lead = line.length - line.trimStart().length;
        out.push({ text: line.trim(), start: offset + lead, framing: block.framing, section: block.section });
      }
      offset += line.length + 1;
    }
  }
  for (const span of doc.spans) {
    if (span.kind !== 'paragraph' && span.kind !== 'list-item') continue;
    const source = text.slice(span.start, span.end);
    for (const m of source.matchAll(PROSE_COMMAND)) {
      const start = span.start + m.index + m[0].indexOf(m[1]!);
      out.push({ text: m[1]!, start, framing: span.contextFraming, section: span.section });
    }
  }
  return out;
}

export function commandSegment(cmd: InlineCommand): Segment {
  return { norm: normalise(cmd.text, cmd.start), framing: cmd.framing, section: cmd.section };
}

/**
 * Command hits count only where the sentence around them fired the same rule (its negations and framing
 * already scored the command), and never above it. A prose hit that runs over several lines and a command
 * hit on a later line of it are two instances: the prose hit ends where the command's line starts.
 */
export function mergeCommandHits(proseHits: readonly Hit[], commandHits: readonly Hit[]): Hit[] {
  const kept: Hit[] = [];
  for (const c of commandHits) {
    const around = proseHits.filter((p) => p.rule === c.rule && p.line <= c.line && c.line <= p.endLine);
    if (around.length === 0) continue;
    kept.push({ ...c, confidence: Math.min(c.confidence, Math.max(...around.map((p) => p.confidence))) });
  }
  const split = proseHits.map((h) => {
    const later = kept.filter((c) => c.rule === h.rule && c.line > h.line && c.line <= h.endLine);
    return later.length > 0 ? { ...h, endLine: Math.min(...later.map((c) => c.line)) - 1 } : h;
  });
  return [...split, ...kept];
}

/** npx runs the version a package.json on its path pins (the file's folder, its parents, the skill root). */
function pinnedBySkill(ctx: FileContext, pkg: string): boolean {
  const key = `"${pkg.replace(/(.)@[^/@]*$/, '$1')}"`;
  const parts = ctx.file.path.split('/').slice(0, -1);
  const onPath = new Set(
    parts.map((_, i) => `${parts.slice(0, i + 1).join('/')}/package.json`).concat('package.json'),
  );
  return ctx.skill.files.some((f) => onPath.has(f.path) && (f.text ?? '').includes(key));
}

const NPX = /^\s*(?:\$\s*)?(?:npx|bunx|pnpx|pnpm\s+dlx|uvx|pipx\s+run|uv\s+tool\s+(?:run|install))\s+(.+)$/i;
const PIP =
  /^\s*(?:\$\s*)?(?:sudo\s+(?:-\S+\s+)*)?(?:pip[0-9.]*|python[0-9.]*\s+-m\s+pip|uv\s+pip|pipx)\s+install\s+(.+)$/i;
const PIP_VALUE_FLAG =
  /^(?:-i|--index-url|--extra-index-url|--trusted-host|-f|--find-links|-c|--constraint|-t|--target|--prefix|--root|--python|--platform|--python-version|--cache-dir)$/;

/** The package npx would fetch and run, when no version is given. */
function unpinnedNpx(cmd: string, ctx: FileContext): string | null {
  const m = NPX.exec(cmd);
  if (!m) return null;
  const words = m[1]!.trim().split(/\s+/);
  let pkg: string | undefined;
  for (let i = 0; i < words.length && !pkg; i++) {
    const w = words[i]!;
    // `npx -p pkg@1 tool`: the package flag says what is fetched.
    const flag = /^(?:-p|--package)(?:=(.+))?$/.exec(w);
    if (flag) pkg = flag[1] ?? words[i + 1];
    else if (/^(?:-c|--call|--node-options|--shell|--from|--with|--python|--index-url|-i)$/.test(w)) i++;
    else if (!w.startsWith('-')) pkg = w;
  }
  if (
    !pkg ||
    /^[.~/]|^file:/.test(pkg) ||
    /^@?[^@\s]+@(?!latest$|next$)[~^]?\d/.test(pkg) ||
    /(?:===?|~=)\s*\d/.test(pkg)
  )
    return null;
  if (!/^@?[\w.-]+(?:\/[\w.-]+)?(?:@[\w.-]+)?$/.test(pkg)) return null;
  return pinnedBySkill(ctx, pkg) ? null : pkg;
}

/** Packages `pip install` would fetch at their newest release. */
function unpinnedPip(cmd: string): string[] {
  const m = PIP.exec(cmd);
  if (!m) return [];
  const words = m[1]!.trim().split(/\s+/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (/^(?:-r|--requirement|-e|--editable)$/.test(w)) return [];
    if (PIP_VALUE_FLAG.test(w)) {
      i++;
      continue;
    }
    if (w.startsWith('-') || /^[.~/]|\.(?:whl|tar\.gz|zip)$|:\/\//.test(w)) continue;
    if (/^(?:pip|setuptools|wheel)$/i.test(w) || /[|;&<>]/.test(w)) break;
    if (!/(?:===?|~=|<)\s*[\w.*+!-]+/.test(w)) out.push(w.replace(/^["']|["']$/g, ''));
  }
  return out;
}

/** SC1: inline commands that fetch a package without a version. */
export function unpinnedCommandHits(
  commands: readonly InlineCommand[],
  ctx: FileContext,
  starts: readonly number[],
): Hit[] {
  const hits: Hit[] = [];
  for (const cmd of commands) {
    const npx = unpinnedNpx(cmd.text, ctx);
    const pip = npx ? [] : unpinnedPip(cmd.text);
    if (!npx && pip.length === 0) continue;
    const base = npx ? 0.5 : 0.6;
    const confidence = base * UNPINNED_COMMAND_RULE.framing[cmd.framing];
    if (confidence < 0.2) continue;
    const line = lineAt(starts, cmd.start);
    const names = npx ? [npx] : pip;
    hits.push({
      rule: UNPINNED_COMMAND_RULE.id,
      line,
      endLine: line,
      evidence: quote(cmd.text),
      confidence,
      rationale: `${npx ? 'npx runs' : 'pip installs'} the newest release of ${names.join(', ')} (no pinned version${npx ? ' and no package.json of the skill pins it' : ''}); framed as ${cmd.framing}`,
      message: `Runs or installs ${names.join(', ')} without a pinned version.`,
    });
  }
  return hits;
}
