// Network sinks in a CodeModel: for each call that talks to the network, where it goes (host), what data it
// carries in which channel (payload, auth, URL, stdin), and whether it has a timeout.

import { LOCAL_HOST_RE } from '../../core/hosts.js';
import { BARE_HOST_RE, hostOf, URL_RE } from './hosts.js';
import type { Call, Value } from './model.js';
import { T, Taint, UNKNOWN } from './model.js';
import { DNS_CALL_RE, DNS_COMMANDS, IP_HOST_RE, NETWORK_COMMANDS } from './names.js';
import {
  clientSendUse,
  gitPushUse,
  mailCommandUse,
  publishCommandUse,
  storageCallUse,
  storageCommandUse,
} from './network-channels.js';
import { isNetworkCallee } from './script.js';
import { readTaint, unionTaint } from './values.js';

export interface NetworkUse {
  call: Call;
  kind: 'http' | 'socket' | 'dns' | 'mail' | 'copy' | 'storage';
  /** Destination host, lower-case; null when unknown. */
  host: string | null;
  /** The host is not in the code but in this file of the skill, which the script reads it from. */
  shippedIn?: string;
  /** The destination (host or DNS name) is built from runtime data. */
  dynamicHost: boolean;
  url: string | null;
  /** The request carries data beyond its URL (POST body, form, upload, stdin). */
  sends: boolean;
  payload: Taint;
  auth: Taint;
  urlTaint: Taint;
  /** A timeout is set on this call (or the tool has a sane default). */
  timeout: boolean;
  /** The request downloads to this file (curl -o, wget -O, urlretrieve, -OutFile). */
  downloadTo: string | null;
  /** Body written after the request was opened (`req.write(x)`, `req.end(x)`). */
  written?: readonly Value[];
  /** What is sent is made at run time whatever the call's words show (a pushed repository holds what the script put in it). */
  runtimeBody?: true;
  /** Everything sent is written out in the call (`curl -d '{"user":"test"}'`): nothing of the machine's goes. */
  literalBody?: true;
}

export function isIpHost(host: string | null): boolean {
  return !!host && IP_HOST_RE.test(host) && !LOCAL_HOST_RE.test(host);
}

/** Private and link-local ranges are the user's own network (a NAS, a home server), not a drop box. */
const PRIVATE_IP =
  /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/;

/** A public IPv4 address: names no service anyone could recognise or declare. */
export function isPublicIpHost(host: string | null): boolean {
  return isIpHost(host) && !PRIVATE_IP.test(host!) && !host!.startsWith('[');
}

function flagValue(args: readonly Value[], flags: RegExp): { values: Value[]; present: boolean } {
  const values: Value[] = [];
  let present = false;
  args.forEach((a, i) => {
    const s = a.str ?? '';
    const eq = /^(--?[\w-]+)=(.*)$/s.exec(s);
    if (eq && flags.test(eq[1]!)) {
      present = true;
      values.push({ ...a, str: eq[2]! });
    } else if (flags.test(s)) {
      present = true;
      const next = args[i + 1];
      if (next) values.push(next);
    }
  });
  return { values, present };
}

function positionals(args: readonly Value[], withValue: RegExp): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const s = args[i]!.str ?? '';
    if (s.startsWith('-')) {
      if (withValue.test(s) && !s.includes('=')) i++;
      continue;
    }
    out.push(args[i]!);
  }
  return out;
}

/** `@file` arguments of curl read that file (credential uploads). */
function fileRefs(values: readonly Value[], line: number): Taint {
  let t = Taint.NONE;
  for (const v of values) {
    const m = /@([^;\s]+)/.exec(v.str ?? '');
    if (m) t = t.union(readTaint({ text: m[1]!, str: m[1]!, alts: [], taint: v.taint }, line));
  }
  return t;
}

/** curl's one-letter options that take a value. */
const CURL_SHORT_WITH_VALUE = 'dFHTuXbAeoxrmwCEKzYcDPQty';
const CURL_VALUE_FLAGS = new RegExp(
  `^(-[${CURL_SHORT_WITH_VALUE}]|--(data[\\w-]*|form[\\w-]*|header|upload-file|user|request|cookie|user-agent|referer|output|proxy|max-time|connect-timeout|url|json|retry|cert|key|config))$`,
);

/**
 * One-letter options written together (`curl -sLo out URL`, `-fsSd @file`) as separate options, so a test for
 * `-o` or `-d` sees them: a letter that takes a value takes the rest of the group, or else the next argument.
 */
function splitShortFlags(args: readonly Value[], withValue: string): Value[] {
  const out: Value[] = [];
  for (const a of args) {
    const s = a.str ?? '';
    if (!/^-[a-zA-Z][^=]+$/.test(s) || s.startsWith('--')) {
      out.push(a);
      continue;
    }
    for (let k = 1; k < s.length; k++) {
      const letter = s[k]!;
      if (!/[a-zA-Z]/.test(letter)) {
        // Not a group of options after all (`-1`, `-o-`): kept whole.
        out.length -= k - 1;
        out.push(a);
        break;
      }
      out.push({ ...a, text: `-${letter}`, str: `-${letter}` });
      if (withValue.includes(letter)) {
        if (k + 1 < s.length) out.push({ ...a, text: s.slice(k + 1), str: s.slice(k + 1) });
        break;
      }
    }
  }
  return out;
}

// wget's one-letter options that take a value (`-O file`, `-T 30`, `-e robots=off`, `-P dir`).
const WGET_SHORT_WITH_VALUE = 'OoaPTtUewiBlQDARIX';
const WGET_VALUE_FLAGS = new RegExp(
  `^-[${WGET_SHORT_WITH_VALUE}]$|^--(output-document|timeout|header|user|password|tries|user-agent)$`,
);

/** A download tool's arguments with its one-letter options split as the tool reads them (curl, wget). */
function toolArgs(call: Call): Value[] {
  if (call.callee === 'curl') return splitShortFlags(call.args, CURL_SHORT_WITH_VALUE);
  if (call.callee === 'wget') return splitShortFlags(call.args, WGET_SHORT_WITH_VALUE);
  return [...call.args];
}

// The option that names the output file, per download tool (httpie's `http`/`https` as curl's).
const OUTPUT_FLAG: Readonly<Record<string, RegExp>> = {
  curl: /^(-o|--output)$/,
  http: /^(-o|--output)$/,
  https: /^(-o|--output)$/,
  wget: /^(-O|--output-document)$/,
};

/**
 * The files a download tool writes to, as its command line names them: `-o x`, `-sLo x`, `-sLo/tmp/x`, `--output=x`
 * for curl (and httpie); `-O x`, `-qO x`, `-qO/tmp/x`, `--output-document=x` for wget (`-` is standard output).
 * `args` are the call's arguments as toolArgs splits them.
 */
export function namedDownloadTargets(call: Call, args: readonly Value[] = toolArgs(call)): Value[] {
  const flag = OUTPUT_FLAG[call.callee];
  return flag ? flagValue(args, flag).values : [];
}

function commandUse(call: Call): NetworkUse | null {
  const name = call.callee;
  if (!NETWORK_COMMANDS.has(name) && !DNS_COMMANDS.has(name)) return null;
  const line = call.line;
  const base = { call, downloadTo: null as string | null };
  if (DNS_COMMANDS.has(name)) {
    const target = positionals(call.args, /^-(t|type|class|p)$/).find(
      (a) => !(a.str ?? '').startsWith('@') && !(a.str ?? '').startsWith('+'),
    );
    if (!target) return null;
    const { host, dynamic } = hostOf(`dns://${target.str ?? UNKNOWN}`);
    return {
      ...base,
      kind: 'dns',
      host,
      dynamicHost: dynamic || target.taint.bits !== 0,
      url: target.str,
      sends: dynamic,
      payload: target.taint,
      auth: Taint.NONE,
      urlTaint: target.taint,
      timeout: true,
    };
  }
  if (name === 'curl' || name === 'http' || name === 'https') {
    const args = toolArgs(call);
    const data = flagValue(args, /^(-d|-F|-T|--data[\w-]*|--form[\w-]*|--upload-file|--json)$/);
    const auth = flagValue(args, /^(-H|-u|-b|--header|--user|--cookie|--oauth2-bearer)$/);
    const method = flagValue(args, /^(-X|--request)$/).values[0]?.str ?? '';
    const explicit = flagValue(args, /^--url$/).values;
    const urls = explicit.length
      ? explicit
      : positionals(args, CURL_VALUE_FLAGS).filter(
          (a) => URL_RE.test(a.str ?? '') || BARE_HOST_RE.test(a.str ?? '') || a.taint.bits !== 0,
        );
    const url = urls[0] ?? null;
    const { host, dynamic } = hostOf(url?.str ?? null);
    const stdinUsed = data.values.some((v) => /@-$/.test(v.str ?? ''));
    // `@file`, `name=@file` and `@-` (stdin) send what is read, not what is written.
    const literal =
      data.present &&
      data.values.every((v) => v.str !== null && !v.str.includes(UNKNOWN) && !/^\w*=?@/.test(v.str));
    const payload = unionTaint(data.values)
      .union(fileRefs(data.values, line))
      .union(stdinUsed ? call.stdin : Taint.NONE);
    const out =
      namedDownloadTargets(call, args)[0]?.str ??
      (args.some((a) => /^-[a-zA-Z]*O$|^--remote-name$/.test(a.str ?? ''))
        ? (url?.str?.split('/').pop() ?? null)
        : null);
    return {
      ...base,
      kind: 'http',
      host,
      dynamicHost: dynamic,
      url: url?.str ?? null,
      sends: data.present || /^(POST|PUT|PATCH)$/i.test(method) || name !== 'curl',
      ...(literal ? { literalBody: true as const } : {}),
      payload,
      auth: unionTaint(auth.values),
      urlTaint: url?.taint ?? Taint.NONE,
      timeout: flagValue(args, /^(-m|--max-time|--connect-timeout)$/).present,
      downloadTo: out,
    };
  }
  if (name === 'wget') {
    const args = toolArgs(call);
    const data = flagValue(args, /^--(post-data|post-file|body-data|body-file)$/);
    const urls = positionals(args, WGET_VALUE_FLAGS);
    const url = urls[0] ?? null;
    const { host, dynamic } = hostOf(url?.str ?? null);
    const dest = namedDownloadTargets(call, args)[0]?.str ?? null;
    const fileData = data.values.filter((_, i) => /file/.test(call.args[i]?.str ?? ''));
    return {
      ...base,
      kind: 'http',
      host,
      dynamicHost: dynamic,
      url: url?.str ?? null,
      sends: data.present,
      payload: unionTaint(data.values).union(
        fileRefs(
          fileData.map((v) => ({ ...v, str: `@${v.str}` })),
          line,
        ),
      ),
      auth: unionTaint(flagValue(call.args, /^--(header|user|password)$/).values),
      urlTaint: url?.taint ?? Taint.NONE,
      timeout:
        flagValue(call.args, /^(-T|--timeout|--read-timeout|--connect-timeout)$/).present ||
        call.args.some((a) => /^-T\d+$|^--timeout=/.test(a.str ?? '')),
      downloadTo: dest === '-' ? null : (dest ?? url?.str?.split(/[/?#]/).filter(Boolean).pop() ?? null),
    };
  }
  if (name === 'invoke-webrequest' || name === 'invoke-restmethod' || name === 'send-mailmessage') {
    const uri =
      flagValue(call.args, /^-(uri|url)$/i).values[0] ?? positionals(call.args, /^-\w+$/)[0] ?? null;
    const { host, dynamic } = hostOf(uri?.str ?? null);
    const body = flagValue(call.args, /^-(body|infile|form)$/i);
    const method = flagValue(call.args, /^-method$/i).values[0]?.str ?? '';
    return {
      ...base,
      kind: name === 'send-mailmessage' ? 'mail' : 'http',
      host,
      dynamicHost: dynamic,
      url: uri?.str ?? null,
      sends: body.present || /post|put|patch/i.test(method) || name === 'send-mailmessage',
      payload: unionTaint(body.values).union(call.stdin),
      auth: unionTaint(flagValue(call.args, /^-(headers|credential|token)$/i).values),
      urlTaint: uri?.taint ?? Taint.NONE,
      timeout: flagValue(call.args, /^-timeoutsec$/i).present,
      downloadTo: flagValue(call.args, /^-outfile$/i).values[0]?.str ?? null,
    };
  }
  // nc, socat, scp, rsync, ftp, telnet, ssh: the data is whatever they read (ssh passes its stdin on).
  const targets = positionals(call.args, /^-[pPiolwsqe]$/);
  const remote =
    targets.find((a) => /^[\w.-]*[a-z0-9-]\.[a-z0-9.-]+|@[\w.-]+:|^[\w.-]+:\//i.test(a.str ?? '')) ??
    targets[0] ??
    null;
  const hostText = remote?.str?.replace(/^[^@]*@/, '').replace(/:.*$/, '') ?? null;
  const { host, dynamic } = hostOf(hostText ? `x://${hostText}` : null);
  // `nc -z host port` only checks that the port answers (zero-I/O mode): nothing is sent.
  const portCheck =
    /^(nc|ncat|netcat)$/.test(name) && call.args.some((a) => /^-[a-zA-Z]*z/.test(a.str ?? ''));
  return {
    ...base,
    kind: /^(?:scp|rsync|s?ftp|ssh)$/.test(name) ? 'copy' : 'socket',
    host,
    dynamicHost: dynamic,
    url: remote?.str ?? null,
    sends: !portCheck,
    payload: call.stdin
      .union(unionTaint(targets.filter((t) => t !== remote)))
      .union(unionTaint(targets.map((t) => ({ ...t, taint: readTaint(t, line) })))),
    auth: Taint.NONE,
    urlTaint: remote?.taint ?? Taint.NONE,
    timeout: name !== 'nc' || call.args.some((a) => /^-w/.test(a.str ?? '')),
    downloadTo: null,
  };
}

const PAYLOAD_KEYS = /^(data|json|files|body|form|content|payload|message|msg|text)$/;
// Query parameters carry API keys as often as headers do (appid=, key=), so they count as auth.
const AUTH_KEYS =
  /^(headers|auth|cookies|cookie|token|apiKey|api_key|Authorization|params|query|searchParams)$/i;

/**
 * The argument naming a socket's host: node's `net.connect(port, host)` puts the port first (a bare port means
 * localhost), an options object names `host`; python's `connect(("h", p))` and `create_connection` lead with it.
 */
function socketHostArg(call: Call): Value | null {
  const first = call.args[0];
  if (!first) return call.named.get('host') ?? null;
  if (first.text.trim().startsWith('{')) return call.named.get('host') ?? { ...first, text: "'localhost'" };
  if (/^\d+$/.test(first.str ?? first.text.trim()))
    return call.args[1] ?? { ...first, text: "'localhost'", str: 'localhost' };
  return first;
}

function callUse(call: Call): NetworkUse | null {
  const c = call.callee;
  if (!isNetworkCallee(c) && !DNS_CALL_RE.test(c)) return null;
  if (DNS_CALL_RE.test(c)) {
    const name = call.args[0] ?? null;
    const { host, dynamic } = hostOf(`dns://${name?.str ?? UNKNOWN}`);
    return {
      call,
      kind: 'dns',
      host,
      dynamicHost: dynamic,
      url: name?.str ?? null,
      sends: dynamic,
      payload: name?.taint ?? Taint.NONE,
      auth: Taint.NONE,
      urlTaint: name?.taint ?? Taint.NONE,
      timeout: true,
      downloadTo: null,
    };
  }
  const verb = /\.(\w+)$/.exec(c)?.[1] ?? '';
  const isRequest = verb === 'request' && !/^https?\./.test(c);
  const urlArg = (isRequest ? call.args[1] : call.args[0]) ?? call.named.get('url') ?? null;
  const socket = /socket|net\.|tls\.|dgram|create_connection/.test(c);
  let urlStr = urlArg?.str ?? null;
  const socketHost = socket ? socketHostArg(call) : urlArg;
  if (socket && socketHost)
    urlStr = `x://${/["'`]([^"'`]+)["'`]/.exec(socketHost.text)?.[1] ?? socketHost.str ?? UNKNOWN}`;
  const hostOpt = call.named.get('hostname') ?? call.named.get('host');
  if (!urlStr && hostOpt?.str) urlStr = `x://${hostOpt.str}`;
  const { host, dynamic } = hostOf(urlStr);
  let payload = Taint.NONE;
  let auth = Taint.NONE;
  for (const [k, v] of call.named) {
    if (PAYLOAD_KEYS.test(k)) payload = payload.union(v.taint);
    else if (AUTH_KEYS.test(k)) auth = auth.union(v.taint);
  }
  // Positional data: requests.post(url, data), axios.post(url, data), urlopen(url, data), sendBeacon(url, data).
  const dataArg = /(post|put|patch)$|urlopen|sendBeacon|send|sendall|sendto/.test(c)
    ? call.args[socket ? 0 : 1]
    : undefined;
  if (dataArg?.text.trim().startsWith('{') && /^(axios|fetch)/.test(c))
    payload = payload.union(dataArg.taint);
  else if (dataArg) payload = payload.union(dataArg.taint);
  if (/urlopen/.test(c) && urlArg) payload = payload.union(urlArg.taint);
  const method = (
    call.named.get('method')?.str ??
    (isRequest ? call.args[0]?.str : verb) ??
    ''
  ).toLowerCase();
  const sends =
    /post|put|patch|send|sendall|sendto|sendbeacon/.test(method) ||
    payload.bits !== 0 ||
    call.named.has('data') ||
    call.named.has('json') ||
    call.named.has('body') ||
    call.named.has('files');
  const timeout =
    call.named.has('timeout') ||
    call.named.has('signal') ||
    call.named.has('timeoutMs') ||
    (/urlopen/.test(c) && call.args.length >= 3) ||
    /^(httpx|aiohttp|got|ky)/.test(c) ||
    socket ||
    /WebSocket|sendBeacon|dns|gethostbyname|getaddrinfo|XMLHttpRequest|Request$/.test(c);
  const downloadTo = /urlretrieve/.test(c) ? (call.args[1]?.str ?? null) : null;
  return {
    call,
    kind: socket ? 'socket' : /smtp/i.test(c) ? 'mail' : 'http',
    host,
    dynamicHost: dynamic,
    url: urlStr,
    sends,
    payload,
    auth,
    urlTaint: urlArg?.taint ?? Taint.NONE,
    timeout,
    downloadTo,
  };
}

/** Every network use of a model, in line order. */
export function networkUses(calls: readonly Call[]): NetworkUse[] {
  const out: NetworkUse[] = [];
  for (const call of calls) {
    const use =
      call.kind === 'command'
        ? (storageCommandUse(call) ??
          mailCommandUse(call) ??
          publishCommandUse(call) ??
          gitPushUse(call, calls) ??
          commandUse(call))
        : (storageCallUse(call) ?? clientSendUse(call, calls) ?? callUse(call));
    if (use) out.push(use);
    else if (call.kind === 'call') attachBody(out, call);
  }
  return out;
}

/** `req.write(data)` / `req.end(data)` on a request object: the request's body, written after it was opened. */
const BODY_WRITE_RE = /^(.+)\(\)\.(write|end)$/;

function attachBody(uses: NetworkUse[], call: Call): void {
  const opener = BODY_WRITE_RE.exec(call.callee)?.[1];
  if (!opener || !isNetworkCallee(opener)) return;
  const data = unionTaint(call.args);
  const i = uses.findLastIndex((u) => u.call.callee === opener && u.call.line <= call.line);
  if (i < 0 || call.args.length === 0) return;
  const use = uses[i]!;
  uses[i] = {
    ...use,
    sends: true,
    payload: use.payload.union(data),
    written: [...(use.written ?? []), ...call.args],
  };
}

/** All data the request carries, by any channel. */
export function carried(use: NetworkUse): Taint {
  return use.payload.union(use.auth).union(use.urlTaint);
}

export { hostOf, T };
