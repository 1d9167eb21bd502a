// P4 (+ SC2) in code, the forms code-persistence.ts does not see: jobs the script schedules (crontab, cron
// directories, LaunchAgents, systemd user units, XDG autostart, Windows Run keys and scheduled tasks) and
// shell start-up files reached through a loop variable or a redirected `{ … }` group. When what is made
// persistent downloads and runs code (checked by analysing it as a script with the supply-chain rule), the
// script plants a remote-code runner that fires at every start or schedule: SC2 with high confidence. The
// commands a script writes into files later sessions read (an agent's hooks, start-up lines) are read the same way.
import { analyseCode } from '../code/analyse.js';
import { callHit, clamp, contextConfidence, dedupe } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { writeTargets } from '../code/writes.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, withoutEmptyQuotes } from '../text.js';
import { codeLanguage } from '../treesitter.js';
import { exfiltrationHits } from './code-exfiltration.js';
import { persistentTarget } from './code-persistence.js';
import { supplyChainHits } from './code-supply-chain.js';

export const SCHEDULED_PERSISTENCE_RULES = rulesDetectedBy('code-scheduled-persistence');

const SCHEDULED = 'code.scheduled-persistence';
const STARTUP = 'code.startup-file-append';
const REMOTE = 'code.persistent-remote-code';
/**
 * Persistent remote code is at least as sure as the remote-code finding on the same line: it is that finding
 * and more, so where both overlap (one finding per pattern and place) the engine keeps this one.
 */
const REMOTE_BASE = 0.9;
/** How much of a job's or persisted command's text is analysed as a script. */
const MAX_JOB_CHARS = 4000;

const RC_FILE =
  /(^|[/\\])(\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|config\.fish|Microsoft\.PowerShell_profile\.ps1)["']?$/i;
/** System-wide shell start-up files (code-persistence.ts covers the per-user ones). */
const SYSTEM_STARTUP =
  /^\/etc\/(profile|bash\.bashrc|bashrc|zshrc|zsh\/\w+|environment)$|^\/etc\/profile\.d\//;
/** Files and folders whose content the system runs on a schedule or at log-in. */
const SCHEDULE_PATH =
  /(^|\/)etc\/cron\.(d|hourly|daily|weekly|monthly)\/|\/var\/spool\/cron\/|(^|\/)etc\/crontab$|Library\/Launch(Agents|Daemons)\/|systemd\/(user|system)\/[^/]+\.(service|timer)$|\.config\/autostart\/|Start Menu[/\\]Programs[/\\]Startup/i;
const RUN_KEY =
  /\\CurrentVersion\\(Run|RunOnce|RunServices|Policies\\Explorer\\Run)\b|\\Winlogon\\(Userinit|Shell)\b/i;
/** A cron schedule field, as the first word of a line (`*\/10`, `0`, `@reboot`). */
const CRON_FIELD = /^([\d*/,-]+|@(reboot|hourly|daily|weekly|monthly|yearly|annually|midnight))$/;
/** PowerShell/cmd text that downloads and runs (the shell analysis covers curl | sh and friends). */
const PS_FETCH_RUN =
  /\b(iex|invoke-expression)\b[\s\S]{0,80}\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)\b|\b(iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|]{0,200}\|\s*(iex|invoke-expression)\b|downloadstring\s*\(/i;

interface Scheduled {
  call: Call;
  what: string;
  /** Text the job will run, when the script spells it out (a cron command, a Run value, a task action). */
  payload: string | null;
}

function words(c: Call): string[] {
  return c.args.map((a) => a.str ?? a.text);
}

/** The command part of a cron line spelled as a command (`*\/5 * * * * curl … | sh` parsed as shell). */
function cronCommand(c: Call): string | null {
  if (c.kind !== 'command' || !CRON_FIELD.test(c.callee)) return null;
  const ws = words(c);
  const fields = c.callee.startsWith('@') ? 0 : 4;
  if (ws.length <= fields || !ws.slice(0, fields).every((w) => CRON_FIELD.test(w))) return null;
  // The extractor splits a pipeline into stages; put the later stages back (`… | sh`).
  const first = c.text
    .split(/\s+/)
    .slice(fields + 1)
    .join(' ');
  return [first, ...c.pipedTo].join(' | ');
}

function scheduledBy(c: Call): Scheduled | null {
  const ws = words(c);
  if (c.kind === 'command') {
    if (
      c.callee === 'crontab' &&
      ws.some((w) => w === '-' || !w.startsWith('-')) &&
      !ws.some((w) => /^-[lre]$/.test(w))
    )
      return { call: c, what: 'installs a crontab', payload: null };
    if (c.callee === 'launchctl' && /^(load|bootstrap|enable|submit)$/.test(ws[0] ?? ''))
      return { call: c, what: `loads a launchd job (launchctl ${ws[0]})`, payload: null };
    if (c.callee === 'systemctl' && ws.includes('--user') && ws.includes('enable'))
      return { call: c, what: 'enables a systemd user unit', payload: null };
    if (c.callee === 'schtasks' && ws.some((w) => /^[/-]create$/i.test(w))) {
      const tr = ws.findIndex((w) => /^[/-]tr$/i.test(w));
      return {
        call: c,
        what: 'creates a Windows scheduled task',
        payload: tr >= 0 ? (ws[tr + 1] ?? null) : null,
      };
    }
    if (/^(register-scheduledtask|new-scheduledtaskaction)$/.test(c.callee))
      return { call: c, what: 'registers a Windows scheduled task', payload: ws.join(' ') };
    if (/^(reg|reg\.exe)$/.test(c.callee) && /^add$/i.test(ws[0] ?? '') && RUN_KEY.test(ws[1] ?? '')) {
      const d = ws.findIndex((w) => /^[/-]d$/i.test(w));
      return { call: c, what: 'adds a Windows Run key value', payload: d >= 0 ? (ws[d + 1] ?? null) : null };
    }
    if (/^(set-itemproperty|new-itemproperty)$/.test(c.callee) && ws.some((w) => RUN_KEY.test(w))) {
      const v = ws.findIndex((w) => /^-value$/i.test(w));
      return { call: c, what: 'sets a Windows Run key value', payload: v >= 0 ? (ws[v + 1] ?? null) : null };
    }
  } else if (/(^|\.)SetValueEx$/.test(c.callee) || /^winreg\.SetValue/.test(c.callee)) {
    return {
      call: c,
      what: 'writes a registry value (Run key)',
      payload: c.args[c.args.length - 1]?.str ?? null,
    };
  }
  const target = writeTargets(c).find((p) => SCHEDULE_PATH.test(p.replace(/["']/g, '')));
  return target ? { call: c, what: `writes ${target}`, payload: null } : null;
}

/** `$cmd` as the action of a Run key or task: the text of its (last) constant assignment in the file. */
function resolveVariable(text: string, word: string): string {
  const name = /^\$\{?(\w+)\}?$/.exec(word.trim())?.[1];
  if (!name) return word;
  const defs = [...text.matchAll(new RegExp(`^\\s*\\$?${name}\\s*=\\s*(.+)$`, 'gm'))];
  return defs.length > 0 ? defs[defs.length - 1]![1]! : word;
}

/**
 * How surely the text, run as a shell command (or PowerShell line), downloads and runs code: the supply-chain
 * rule's confidence for it, at least REMOTE_BASE; 0 when it does not.
 */
async function fetchesAndRuns(ctx: FileContext, text: string): Promise<number> {
  if (PS_FETCH_RUN.test(text)) return REMOTE_BASE;
  const inner = await analyseCode('bash', text.slice(0, MAX_JOB_CHARS));
  const remote = inner ? supplyChainHits(ctx, inner).filter((h) => h.rule === 'code.remote-code') : [];
  return remote.length === 0 ? 0 : Math.max(REMOTE_BASE, ...remote.map((h) => h.confidence));
}

/** Cron lines spelled as commands (decoded or embedded text whose first word is a schedule field). */
function cronPayloads(model: CodeModel): { call: Call; text: string }[] {
  const out: { call: Call; text: string }[] = [];
  for (const c of model.calls) {
    const cmd = cronCommand(c);
    if (cmd) out.push({ call: c, text: cmd });
  }
  return out;
}

/** Echoed crontab entries, already analysed by the shell extractor: the ones that download and run code. */
function remoteCronEntries(ctx: FileContext, model: CodeModel): Hit[] {
  const entries = model.calls.filter((c) => /crontab entry/.test(c.origin ?? ''));
  if (entries.length === 0) return [];
  return supplyChainHits(ctx, { ...model, calls: entries }).filter((h) => h.rule === 'code.remote-code');
}

/** bash: `for rc in ~/.bashrc ~/.zshrc; do … >> "$rc"; done` and `{ …; } >> ~/.zshrc`. */
function startupAppends(text: string): { line: number; endLine: number; file: string; body: string }[] {
  const lines = text.split('\n');
  const out: { line: number; endLine: number; file: string; body: string }[] = [];
  const loops = loopLists(lines, text);
  for (let i = 0; i < lines.length; i++) {
    const m = /(>>?|\btee\s+(?:-a\s+)?)\s*("?)(\$\{?(\w+)\}?|[~$][^\s;|&)"]+)\2/.exec(lines[i]!);
    if (!m || !/>>|tee/.test(m[1]!)) continue;
    const files = m[4]
      ? (loops.find((l) => l.name === m[4] && l.from <= i && i <= l.to)?.files ?? [])
      : [m[3]!];
    const file = files.find((f) => RC_FILE.test(f));
    if (!file) continue;
    const start = groupStart(lines, i);
    if (!m[4] && start === i) continue; // a plain `echo … >> ~/.zshrc` is code-persistence.ts's case
    out.push({ line: start + 1, endLine: i + 1, file, body: lines.slice(start, i + 1).join('\n') });
  }
  return out;
}

/** The line opening the `{ … }` or `( … )` group that a `} >> file` line closes; else the line itself. */
function groupStart(lines: readonly string[], i: number): number {
  if (!/^\s*[})]/.test(lines[i]!)) return i;
  for (let j = i - 1; j >= 0 && i - j <= 20; j--) if (/^\s*[{(]\s*$|^\s*\{\s/.test(lines[j]!)) return j;
  return i;
}

/** `for NAME in WORDS` loops: the words (arrays expanded), and the lines they span. */
function loopLists(
  lines: readonly string[],
  text: string,
): { name: string; files: string[]; from: number; to: number }[] {
  const out: { name: string; files: string[]; from: number; to: number }[] = [];
  lines.forEach((l, i) => {
    const m = /^\s*for\s+(\w+)\s+in\s+(.+?)\s*(;\s*do\b.*)?$/.exec(l);
    if (!m) return;
    const files = m[2]!
      .split(/\s+/)
      .flatMap((w) => expandArray(w, text))
      .map((w) => w.replace(/^["']|["']$/g, ''));
    const indent = /^\s*/.exec(l)![0].length;
    let to = i;
    while (
      to + 1 < lines.length &&
      !(/^\s*done\b/.test(lines[to + 1]!) && /^\s*/.exec(lines[to + 1]!)![0].length <= indent)
    )
      to++;
    out.push({ name: m[1]!, files, from: i, to: to + 1 });
  });
  return out;
}

function expandArray(word: string, text: string): string[] {
  const ref = /^"?\$\{(\w+)\[[@*]\]\}"?$/.exec(word);
  if (!ref) return [word];
  const def = new RegExp(`\\b${ref[1]}=\\(([^)]*)\\)`).exec(text);
  return def ? def[1]!.split(/\s+/).filter(Boolean) : [word];
}

function hitAt(
  ctx: FileContext,
  rule: string,
  line: number,
  endLine: number,
  base: number,
  why: string,
  message?: string,
): Hit {
  const { confidence, notes } = contextConfidence(ctx, base);
  const lines = ctx.text.split('\n').slice(line - 1, Math.min(endLine, line + 5));
  const hit: Hit = {
    rule,
    line,
    endLine,
    evidence: lines.join('\n').trim().slice(0, 400),
    confidence: clamp(confidence),
    rationale: [why, ...notes].join('; '),
  };
  if (message) hit.message = message;
  return hit;
}

async function scheduledHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  const hits: Hit[] = [];
  const cron = cronPayloads(model);
  const entries = remoteCronEntries(ctx, model);
  let remoteCron = entries.length > 0;
  for (const h of entries)
    hits.push({
      ...h,
      rule: REMOTE,
      confidence: Math.max(h.confidence, REMOTE_BASE),
      rationale: `a crontab entry written here downloads and runs code every time it fires; ${h.rationale}`,
    });
  for (const p of cron) {
    const sure = await fetchesAndRuns(ctx, p.text);
    if (sure === 0) continue;
    remoteCron = true;
    hits.push(
      callHit(
        ctx,
        p.call,
        REMOTE,
        sure,
        `a cron entry written here downloads and runs code every time it fires`,
      ),
    );
  }
  const hidden = cron.some((p) => /decoded/.test(p.call.origin ?? ''));
  for (const c of model.calls) {
    const s = scheduledBy(c);
    if (!s) continue;
    const payload = s.payload === null ? null : resolveVariable(ctx.text, s.payload);
    const sure = payload === null ? 0 : await fetchesAndRuns(ctx, payload);
    const remote = sure > 0;
    if (remote) hits.push(callHit(ctx, c, REMOTE, sure, `${s.what} whose action downloads and runs code`));
    const cronJob = /crontab|cron\./.test(s.what);
    const spelled = `${c.text} ${words(c).join(' ')} ${s.what}`;
    const worse = remote || (cronJob && remoteCron) || (cronJob && hidden) || /com\.apple\./i.test(spelled);
    const why = worse ? `${s.what}; the job is hidden, impersonates the system or fetches code` : s.what;
    // A job whose own line already carries the SC2 finding needs no second finding there: SC2 says it persists.
    if (hits.some((h) => h.rule === REMOTE && h.line <= c.line && c.line <= h.endLine)) continue;
    hits.push(callHit(ctx, c, SCHEDULED, worse ? 0.75 : 0.35, why, `Installs a persistent job: ${s.what}.`));
  }
  return hits;
}

/** Commands a persisted file will run: plist <string>s, systemd Exec…= values, cron lines minus schedule. */
function persistedCommands(body: string): { offset: number; text: string }[] {
  const out: { offset: number; text: string }[] = [];
  body.split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/<string>([^<]*)<\/string>/g)) out.push({ offset: i, text: m[1]! });
    const exec = /^\s*Exec\w*\s*=\s*-?(.+)$/.exec(l);
    if (exec) out.push({ offset: i, text: exec[1]! });
    const cron = /^\s*(@\w+|([\d*/,-]+\s+){5})(\S+\s+)?(.+)$/.exec(l);
    if (cron) out.push({ offset: i, text: cron[4]! }, { offset: i, text: `${cron[3] ?? ''}${cron[4]}` });
  });
  return out;
}

/** The heredoc body that starts on `line` (1-based), with the line of its first body line. */
function heredocAt(text: string, line: number): { line: number; body: string } | null {
  const lines = text.split('\n');
  const m = /(?<!<)<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/.exec(lines[line - 1] ?? '');
  if (!m) return null;
  let end = line;
  while (end < lines.length && lines[end]!.replace(/^\t+/, '').trimEnd() !== m[3]) end++;
  return { line: line + 1, body: lines.slice(line, end).join('\n') };
}

/** Job files written by the script (heredoc or echo) whose command downloads and runs code. */
async function persistedFileHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (const c of model.calls) {
    const target = writeTargets(c).find((p) => SCHEDULE_PATH.test(p) || SYSTEM_STARTUP.test(p));
    if (!target) continue;
    const doc = heredocAt(ctx.text, c.line);
    const commands = doc
      ? persistedCommands(doc.body).map((x) => ({ line: doc.line + x.offset, text: x.text }))
      : c.args.filter((a) => a.str && !a.str.startsWith('-')).map((a) => ({ line: c.line, text: a.str! }));
    for (const cmd of commands) {
      const sure = await fetchesAndRuns(ctx, cmd.text);
      if (sure === 0) continue;
      hits.push(
        hitAt(
          ctx,
          REMOTE,
          cmd.line,
          cmd.line,
          sure,
          `the job file ${target} runs a command that downloads and runs code`,
        ),
      );
      break;
    }
    if (SYSTEM_STARTUP.test(target))
      hits.push(
        callHit(
          ctx,
          c,
          STARTUP,
          0.55,
          `writes ${target}, which every login shell runs`,
          `Edits ${target}, a system-wide start-up file.`,
        ),
      );
  }
  return hits;
}

/** python/JS `for name in (".bashrc", ".zshrc")` loops: the loop variable and the start-up file it takes. */
function loopedStartupFiles(text: string): { name: string; file: string }[] {
  const out: { name: string; file: string }[] = [];
  for (const m of text.matchAll(
    /\bfor\s*\(?\s*(?:const|let|var)?\s*(\w+)\s+(?:in|of)\s*[([]([^)\]]*)[)\]]/g,
  )) {
    const file = [...m[2]!.matchAll(/["']([^"']+)["']/g)].map((q) => q[1]!).find((f) => RC_FILE.test(f));
    if (file) out.push({ name: m[1]!, file });
  }
  return out;
}

/** python/JS: text written to a start-up or job file (opened nearby) that downloads and runs code. */
async function writtenContentHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  if (model.language === 'bash') return [];
  const viaLoop = loopedStartupFiles(ctx.text);
  const hits: Hit[] = [];
  const opens = model.calls.filter((c) => {
    if (writeTargets(c).some((p) => RC_FILE.test(p) || SCHEDULE_PATH.test(p))) return true;
    const target = c.receiver && /write_text/.test(c.callee) ? c.receiver.text : (c.args[0]?.text ?? '');
    const loop = viaLoop.find(
      (l) => new RegExp(`\\b${l.name}\\b`).test(target) && writeTargets(c).length > 0,
    );
    if (loop)
      hits.push(
        callHit(
          ctx,
          c,
          STARTUP,
          0.55,
          `writes ${loop.file} (through loop variable ${loop.name}), which every later shell runs`,
          `Edits ${loop.file}, a shell start-up file.`,
        ),
      );
    return loop !== undefined;
  });
  for (const w of model.calls) {
    if (
      !/(^|\.)(write|writelines|write_text|appendFileSync|appendFile|writeFileSync|writeFile)$/.test(w.callee)
    )
      continue;
    if (!opens.some((o) => w.line >= o.line && w.line <= o.line + 15)) continue;
    for (const a of w.args) {
      const sure = a.str ? await fetchesAndRuns(ctx, a.str) : 0;
      if (sure === 0) continue;
      hits.push(callHit(ctx, w, REMOTE, sure, 'writes a start-up or job line that downloads and runs code'));
      break;
    }
  }
  return hits;
}

async function startupHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  if (model.language !== 'bash') return [];
  const hits: Hit[] = [];
  for (const a of startupAppends(withoutEmptyQuotes(ctx.text))) {
    const echoed = model.calls
      .filter((c) => c.line >= a.line && c.line <= a.endLine && /^(echo|printf|cat)$/.test(c.callee))
      .flatMap((c) => c.args.map((v) => v.str ?? ''))
      .filter((s) => s && !s.startsWith('-'));
    let sure = 0;
    for (const s of echoed) if (sure === 0) sure = await fetchesAndRuns(ctx, s);
    const remote = sure > 0;
    if (remote)
      hits.push(
        hitAt(
          ctx,
          REMOTE,
          a.line,
          a.endLine,
          sure,
          `the lines appended to ${a.file} download and run code in every new shell`,
        ),
      );
    hits.push(
      hitAt(
        ctx,
        STARTUP,
        a.line,
        a.endLine,
        remote ? 0.8 : 0.55,
        `appends to ${a.file}, which every later shell runs`,
        `Edits ${a.file}, a shell start-up file.`,
      ),
    );
  }
  return hits;
}

/**
 * A command held as a value in configuration: a hook's or server's `"command": "…"`, `PROMPT_COMMAND='…'`, an
 * alias. Group 2 is the command.
 */
const COMMAND_VALUE =
  /(?:\b(?:command|cmd|commands|exec|script|hook|PROMPT_COMMAND|precmd)\b["']?\s*[:=]\s*|\balias\s+[\w.-]+=)(["'`])((?:(?!\1)[^\\\n]|\\.){4,400})\1/gi;

/** A word without which a persisted command neither downloads nor sends (the analysis decides whether it does). */
const NETWORK_WORD =
  /\b(?:curl|wget|nc|ncat|socat|telnet|ssh|scp|rsync|ftp|sftp|dig|nslookup|host|iwr|irm|invoke-\w+|fetch|http|https|python3?|node|perl|ruby|php|bash|sh|zsh|base64)\b|\/dev\/(?:tcp|udp)\//i;
/** Persisted commands analysed per file at most. */
const MAX_PERSISTED_COMMANDS = 200;

/** What the persisted command does each time it runs, worst first; null when it neither fetches code nor sends. */
async function persistedAction(
  ctx: FileContext,
  text: string,
): Promise<{ rule: string; confidence: number; does: string } | null> {
  const sure = await fetchesAndRuns(ctx, text);
  if (sure > 0) return { rule: REMOTE, confidence: sure, does: 'downloads and runs code' };
  // The same head fetchesAndRuns analysed: its model comes from the analysis cache.
  const head = text.slice(0, MAX_JOB_CHARS);
  const inner = await analyseCode('bash', head);
  const sends = inner
    ? exfiltrationHits({ ...ctx, text: head }, inner).filter((h) =>
        /^code\.(external-transmission|credential-access)$/.test(h.rule),
      )
    : [];
  if (sends.length === 0) return null;
  const worst = sends.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  return {
    rule: worst.rule,
    confidence: Math.max(worst.confidence, REMOTE_BASE),
    does: `sends data out (${worst.rationale.split(';')[0]})`,
  };
}

/**
 * Configuration a script writes to a file that every later shell or agent session reads (a shell start-up file,
 * an agent's settings with its hooks, its MCP server list): a command in it that downloads and runs code, or
 * sends data out, does so in every session from then on. bash: the lines of the here-document the write takes;
 * python/JS: the command values of a script that writes such a file (the settings object is built apart from
 * the write).
 */
async function persistedConfigHits(ctx: FileContext, model: CodeModel): Promise<Hit[]> {
  const writes = model.calls.flatMap((c) => {
    const target = persistentTarget(c);
    return target ? [{ call: c, target }] : [];
  });
  if (writes.length === 0) return [];
  const found: { line: number; text: string; target: string }[] = [];
  if (model.language === 'bash') {
    for (const { call, target } of writes) {
      const doc = heredocAt(ctx.text, call.line);
      doc?.body.split('\n').forEach((text, i) => {
        found.push({ line: doc.line + i, text, target });
        for (const m of text.matchAll(COMMAND_VALUE)) found.push({ line: doc.line + i, text: m[2]!, target });
      });
    }
  } else {
    const starts = lineStarts(ctx.text);
    for (const m of ctx.text.matchAll(COMMAND_VALUE))
      found.push({ line: lineAt(starts, m.index), text: m[2]!, target: writes[0]!.target });
  }
  const hits: Hit[] = [];
  // Each command is parsed on its own: only those that name a network tool, and a bounded number of them,
  // so a here-document of a million lines costs what a short one does.
  for (const f of found.filter((x) => NETWORK_WORD.test(x.text)).slice(0, MAX_PERSISTED_COMMANDS)) {
    const action = await persistedAction(ctx, f.text);
    if (!action) continue;
    hits.push(
      hitAt(
        ctx,
        action.rule,
        f.line,
        f.line,
        action.confidence,
        `a command the script writes to ${f.target} ${action.does}, in every later session`,
      ),
    );
  }
  return hits;
}

export const scheduledPersistenceDetector: Detector = {
  name: 'code-scheduled-persistence',
  rules: SCHEDULED_PERSISTENCE_RULES,
  appliesTo: (file) => file.text !== null && codeLanguage(file.language) !== null,
  async detect(ctx) {
    const model = await analyseCode(ctx.file.language ?? '', ctx.text);
    if (!model) return [];
    return dedupe([
      ...(await scheduledHits(ctx, model)),
      ...(await startupHits(ctx, model)),
      ...(await persistedFileHits(ctx, model)),
      ...(await writtenContentHits(ctx, model)),
      ...(await persistedConfigHits(ctx, model)),
    ]);
  },
};
