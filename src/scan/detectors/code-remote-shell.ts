// SC2 + E1 in code: reverse shells. A script that connects out and binds a shell (or an eval loop) to the
// connection runs whatever the remote host sends; no download is needed, so the download-and-run rules miss
// it. Each language has its own idiom; all are read from CodeModel calls (never from quoted strings alone,
// so a scanner's pattern list or a cheat sheet's prose does not fire).

import { isDeclared } from '../../core/hosts.js';
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { FileContext, Hit } from '../rule.js';

export const REMOTE_SHELL_RULES = rulesDetectedBy('code-remote-shell');

const SHELL = 'code.remote-shell';
const CHANNEL = 'code.remote-shell-channel';

/** A connection and the place where received commands run. */
interface ReverseShell {
  channel: Call;
  runner: Call;
  host: string | null;
  how: string;
}

const SHELL_CMD = /^(ba|z|da|k|c|tc|fi)?sh$|^(cmd|cmd\.exe|powershell|pwsh)$/i;
const SHELL_PATH = /(^|[/\\])((ba|z|da|k|c|tc)?sh|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/i;
const NETCAT = /^(nc|ncat|netcat|nc\.traditional|nc\.openbsd|telnet)$/;
const DEV_TCP = /\/dev\/(tcp|udp)\/([^/\s"']+)\/\d+/;
/** A redirection that binds a shell's stdin or stdout to a descriptor (`0>&1`, `<&5`, `>& /dev/tcp`). */
const FD_BIND = /\d?[<>]&\s*\d|>&\s*\/dev\/(tcp|udp)|<>\s*\/dev\/(tcp|udp)|0<&/;

function words(c: Call): string[] {
  return c.args.map((a) => a.str ?? a.text);
}

function interactive(c: Call): boolean {
  return words(c).some((w) => /^-[a-z]*i[a-z]*$/.test(w));
}

/** A shell command that reads its commands from stdin (no script, no -c). */
function readsStdin(c: Call): boolean {
  if (c.kind !== 'command' || !SHELL_CMD.test(c.callee)) return false;
  const ws = words(c);
  return !ws.some((w) => /^-[a-z]*c$/i.test(w)) && !ws.some((w) => !w.startsWith('-') && !/^\d?[<>]/.test(w));
}

function sameLine(model: CodeModel, c: Call): Call[] {
  return model.calls.filter((o) => o !== c && o.line === c.line && o.origin === c.origin);
}

/**
 * `sh -c "sh -i >& /dev/tcp/…"` behind a wrapper (nohup, setsid) whose inline code the extractor does not
 * open: read the -c string itself. A port probe (`bash -c "</dev/tcp/h/p"`) binds no shell and stays out.
 */
function inlineShellBind(c: Call): boolean {
  if (!SHELL_CMD.test(c.callee)) return false;
  const ws = words(c);
  const code = ws[ws.indexOf('-c') + 1] ?? '';
  return (
    ws.includes('-c') && DEV_TCP.test(code) && /\b(ba|z|da|k)?sh\s+-i\b/.test(code) && FD_BIND.test(code)
  );
}

/** bash: `/dev/tcp` bound to an interactive shell, or read by an eval/shell loop nearby. */
function bashDevTcp(model: CodeModel): ReverseShell[] {
  const out: ReverseShell[] = [];
  for (const c of model.calls) {
    const m = DEV_TCP.exec(c.text);
    if (!m || c.kind !== 'command') continue;
    if (SHELL_CMD.test(c.callee) && (interactive(c) || FD_BIND.test(c.text)) && !words(c).includes('-c')) {
      out.push({ channel: c, runner: c, host: m[2]!, how: `${c.callee} bound to /dev/${m[1]}` });
      continue;
    }
    if (inlineShellBind(c)) {
      out.push({
        channel: c,
        runner: c,
        host: m[2]!,
        how: `${c.callee} -c runs a shell bound to /dev/${m[1]}`,
      });
      continue;
    }
    const runner = model.calls.find(
      (o) =>
        o.line >= c.line &&
        o.line <= c.line + 3 &&
        o !== c &&
        (o.callee === 'eval' || (readsStdin(o) && /<&\s*\d/.test(o.text))),
    );
    if (runner)
      out.push({
        channel: c,
        runner,
        host: m[2]!,
        how: `commands read from /dev/${m[1]} run by ${runner.callee}`,
      });
  }
  return out;
}

function netcatHost(c: Call): string | null {
  const ws = words(c).filter((w) => !w.startsWith('-') && !SHELL_PATH.test(w));
  return ws.find((w) => /^[\w.-]+$/.test(w) && /[a-z.]/i.test(w) && !/^\d+$/.test(w)) ?? null;
}

/** netcat/telnet/socat: `nc -e /bin/sh`, a shell piped between nc stages (mkfifo), socat exec:… tcp:… */
function netcatShell(model: CodeModel): ReverseShell[] {
  const out: ReverseShell[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'command') continue;
    const ws = words(c);
    if (NETCAT.test(c.callee)) {
      const exec = ws.findIndex((w) => /^(-e|-c|--exec|--sh-exec|--lua-exec)$/.test(w));
      if (exec >= 0 && SHELL_PATH.test(ws[exec + 1] ?? '')) {
        out.push({ channel: c, runner: c, host: netcatHost(c), how: `${c.callee} ${ws[exec]} runs a shell` });
        continue;
      }
      const shell = sameLine(model, c).find(
        (o) =>
          readsStdin(o) && (o.pipedTo.includes(c.callee) || c.pipedTo.includes(o.callee) || interactive(o)),
      );
      if (shell)
        out.push({
          channel: c,
          runner: shell,
          host: netcatHost(c),
          how: `${shell.callee} piped to and from ${c.callee}`,
        });
    } else if (c.callee === 'socat') {
      const exec = ws.find((w) => /^(exec|system):/i.test(w));
      const tcp = ws.find((w) => /^(tcp|tcp4|tcp6|openssl|ssl)(-connect)?:/i.test(w));
      if (exec && tcp && /sh\b|cmd|powershell/i.test(exec))
        out.push({
          channel: c,
          runner: c,
          host: tcp.split(':')[1] ?? null,
          how: 'socat joins a shell to a TCP connection',
        });
    }
  }
  return out;
}

const PY_CONNECT = /^socket\.(socket\(\)\.connect(_ex)?|create_connection)$/;
const PY_SPAWN =
  /^(pty\.spawn|subprocess\.(call|run|Popen|check_call|check_output)|os\.(system|popen|exec\w*|spawn\w*))$/;

function connectHost(c: Call): string | null {
  const m = /["']([^"']+)["']/.exec(c.args[0]?.text ?? '');
  return m?.[1] ?? null;
}

/** python: a socket duplicated onto stdio and a shell spawned, or a recv loop whose data a shell runs. */
function pythonShell(model: CodeModel): ReverseShell[] {
  const connect = model.calls.find((c) => PY_CONNECT.test(c.callee));
  if (!connect) return [];
  const dup = model.calls.some((c) => c.callee === 'os.dup2');
  const shellCmd = model.calls.find(
    (c) =>
      c.kind === 'command' &&
      SHELL_CMD.test(c.callee) &&
      /command run by/.test(c.origin ?? '') &&
      !words(c).includes('-c'),
  );
  const spawn = model.calls.find(
    (c) =>
      PY_SPAWN.test(c.callee) &&
      (shellCmd?.line === c.line || (c.callee === 'pty.spawn' && SHELL_PATH.test(c.args[0]?.str ?? ''))),
  );
  if (dup && spawn)
    return [
      {
        channel: connect,
        runner: spawn,
        host: connectHost(connect),
        how: 'socket duplicated onto stdin/stdout and a shell spawned',
      },
    ];
  const piped =
    spawn && ['stdin', 'stdout'].every((k) => /fileno|sock|conn|\bs\b/.test(spawn.named.get(k)?.text ?? ''));
  if (piped)
    return [
      {
        channel: connect,
        runner: spawn,
        host: connectHost(connect),
        how: 'a shell spawned with the socket as its stdin and stdout',
      },
    ];
  return recvLoop(model, connect, /\.recv(from)?$/, /^(subprocess\.\w+|os\.(system|popen))$|^(exec|eval)$/);
}

/** A loop that receives from the connection and hands what it got to a command runner or eval. */
function recvLoop(model: CodeModel, connect: Call, recv: RegExp, run: RegExp): ReverseShell[] {
  for (const loop of model.loops) {
    const inside = (c: Call): boolean => c.line >= loop.line && c.line <= loop.endLine;
    const got = model.calls.find((c) => inside(c) && recv.test(c.callee));
    const runner = model.calls.find(
      (c) =>
        inside(c) && run.test(c.callee) && !c.args.every((a) => a.str !== null && !a.str.includes('\u2026')),
    );
    if (got && runner)
      return [
        {
          channel: connect,
          runner,
          host: connectHost(connect),
          how: `a loop runs what ${got.callee} receives`,
        },
      ];
  }
  return [];
}

const JS_CONNECT =
  /^(net|tls)\.(connect|createConnection)$|^(net|tls)\.Socket\(\)\.connect$|\.Socket\(\)\.connect$/;

/** node: a socket piped into a spawned shell, or data events handed to child_process. */
function nodeShell(model: CodeModel): ReverseShell[] {
  const connect = model.calls.find((c) => JS_CONNECT.test(c.callee));
  if (!connect) return [];
  const shell = model.calls.find(
    (c) =>
      c.kind === 'command' &&
      SHELL_CMD.test(c.callee) &&
      /child_process/.test(c.origin ?? '') &&
      !words(c).includes('-c'),
  );
  const piped = model.calls.some(
    (c) =>
      /\.pipe$/.test(c.callee) && /std(in|out)/.test(`${c.receiver?.text ?? ''} ${c.args[0]?.text ?? ''}`),
  );
  if (shell && piped) {
    // net.connect(port, host) or net.connect({ host, port }): the host is a later argument or a property.
    const host =
      connect.named.get('host')?.str ??
      connect.args.find(
        (a) => a.str && /[a-z.]/i.test(a.str) && !a.str.includes('=>') && !a.text.trim().startsWith('{'),
      )?.str ??
      null;
    return [{ channel: connect, runner: shell, host, how: 'socket piped into a spawned shell' }];
  }
  const exec = model.calls.find(
    (c) => /^child_process\.(exec|execSync|spawn|spawnSync)$/.test(c.callee) && c.args[0]?.str === null,
  );
  const onData = model.calls.some((c) => /\.on$/.test(c.callee) && c.args[0]?.str === 'data');
  if (exec && onData)
    return [
      { channel: connect, runner: exec, host: null, how: 'data received on the socket run by child_process' },
    ];
  return [];
}

/** PowerShell: a TCPClient stream read in a loop whose text goes to Invoke-Expression. */
function powershellShell(ctx: FileContext, model: CodeModel): ReverseShell[] {
  const client = model.calls.find((c) => /Net\.Sockets\.(TCPClient|Socket)/i.test(c.text));
  const iex = model.calls.find((c) => c.callee === 'invoke-expression' || c.callee === 'iex');
  if (!client || !iex || !/GetStream\(\)|\.Receive\(/i.test(ctx.text)) return [];
  const host = /TCPClient[^'"]*\(\s*['"]([^'"]+)['"]/i.exec(client.text)?.[1] ?? null;
  return [{ channel: client, runner: iex, host, how: 'TCPClient stream text run by Invoke-Expression' }];
}

/** Perl/PHP/Ruby/awk one-liners (no bundled grammar): a socket and a shell in the code string of `-e`/`-r`. */
function oneLinerShell(model: CodeModel): ReverseShell[] {
  const out: ReverseShell[] = [];
  for (const c of model.calls) {
    if (c.kind !== 'command' || !/^(perl|php|ruby|lua|g?awk)$/.test(c.callee)) continue;
    // Flags count: `-MSocket` / `-rsocket` load the socket library.
    const code = c.args.map((a) => a.str ?? a.text).join(' ');
    const socket =
      /(IO::)?Socket\b|\bsocket\s*\(|\b(fsockopen|stream_socket_client|TCPSocket)\b|\/inet\/tcp\//.exec(code);
    const shell =
      /\b(exec|system|spawn|popen|proc_open|shell_exec|IO\.popen)\b[^;]*?(\/bin\/)?(ba|z|da)?sh\b|\|&\s*(ba)?sh|cmd\.exe/.test(
        code,
      );
    if (socket && shell)
      out.push({
        channel: c,
        runner: c,
        host: /["']((\d{1,3}\.){3}\d{1,3}|[\w-]+(\.[\w-]+)+)["']/.exec(code)?.[1] ?? null,
        how: `${c.callee} one-liner joins ${socket[0]} to a shell`,
      });
  }
  return out;
}

/** Every idiom is tried on every model: inline code (`python -c`, `bash -c`) is merged into the host's model. */
function find(ctx: FileContext, model: CodeModel): ReverseShell[] {
  const found = [
    ...bashDevTcp(model),
    ...netcatShell(model),
    ...oneLinerShell(model),
    ...pythonShell(model),
    ...nodeShell(model),
  ];
  return model.language === 'powershell' ? [...found, ...powershellShell(ctx, model)] : found;
}

export function remoteShellHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  // A payload in a document's code block that no instruction runs is a cheat sheet, not a script.
  const docs = /\.(md|markdown|mdx|rst|txt)$/i.test(ctx.file.path) && !ctx.reachable;
  const scale = docs ? 0.45 : 1;
  const note = docs ? '; quoted in a document that nothing runs' : '';
  for (const r of find(ctx, model)) {
    const line = Math.min(r.channel.line, r.runner.line);
    const endLine = Math.max(r.channel.endLine, r.runner.endLine);
    const span =
      endLine - line <= 12 ? { line, endLine } : { line: r.runner.line, endLine: r.runner.endLine };
    hits.push(callHit(ctx, r.runner, SHELL, 0.9 * scale, `reverse shell: ${r.how}${note}`, undefined, span));
    if (r.host && isDeclared(r.host.toLowerCase(), ctx.declaredHosts)) continue;
    const to = r.host ? `${r.host}, a host the skill does not declare` : 'a host hidden from the source';
    hits.push(
      callHit(
        ctx,
        r.channel,
        CHANNEL,
        0.85 * scale,
        `raw connection to ${to}${note}`,
        `Opens a raw connection to ${to} for a remote shell.`,
      ),
    );
  }
  return hits;
}

export const remoteShellDetector = codeDetector('code-remote-shell', REMOTE_SHELL_RULES, remoteShellHits, {
  acrossModules: true,
});
