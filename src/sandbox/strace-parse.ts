// Turns an strace log (-f, --decode-pids=pidns, default string escaping) into evidence: processes with
// argv and exit status, network attempts with destinations and payload heads, DNS query names, and opens
// of sensitive files. Only processes inside the sandbox count: the descendants of the bubblewrap process
// from the moment they exec'd the sandboxed program (bwrap's own setup is not the skill's behaviour).
import { posix } from 'node:path';
import { parseDnsQuestion } from './dns-wire.js';
import type { DnsQuery, NetworkAttempt, NetworkProtocol, ProcessRecord, SensitiveRead } from './evidence.js';
import { EVIDENCE_CAPS } from './evidence.js';
import { matchSensitivePath } from './sensitive-paths.js';
import { closingParen, splitArgs, stringLiterals } from './strace-text.js';

export interface StraceContext {
  /** Executable whose descendants are the sandbox (bwrap); null when every traced process counts. */
  sandboxExecutable: string | null;
  /** Working directory of the run inside the sandbox, to resolve relative opens. */
  cwd: string;
  /** Canary files by their path inside the sandbox. */
  canaryPaths: ReadonlyMap<string, string>;
}

export interface StraceEvidence {
  processes: ProcessRecord[];
  attempts: NetworkAttempt[];
  dnsQueries: DnsQuery[];
  sensitiveReads: SensitiveRead[];
  dropped: { processes: number; attempts: number; sensitiveReads: number };
}

// Local plumbing every libc tries first; not a network attempt worth reporting.
const MAX_ARGS = 256;
const NOISE_UNIX_PATHS = new Set(['/var/run/nscd/socket', '/run/nscd/socket']);

interface Proc {
  pid: number;
  ppid: number | null;
  executable: string | null;
  argv: string[];
  exit: ProcessRecord['exit'];
  /** Sequence number of the first successful execve, if any. */
  execSeq: number | null;
  firstSeq: number;
}

interface Pending<T> {
  pid: number;
  seq: number;
  item: T;
}

interface Destination {
  family: string;
  address: string;
  port: number | null;
}

interface Syscall {
  name: string;
  args: string[];
  /** Numeric return value (translated to strace's pid namespace when annotated), null for `?`. */
  ret: number | null;
  error: string | null;
}

const SYSCALL_RE = /^([a-z0-9_]+)\(/;

function parseSyscall(text: string): Syscall | null {
  const head = SYSCALL_RE.exec(text);
  if (!head) return null;
  const close = closingParen(text, head[0].length);
  if (close < 0) return null;
  const tail =
    /^\s*=\s*(-?\d+|\?|0x[0-9a-f]+)(?:\s+(E[A-Z0-9]+))?(?:.*?\/\*\s*(\d+) in strace's PID NS)?/.exec(
      text.slice(close + 1),
    );
  if (!tail) return null;
  const raw = tail[1]!;
  const translated = tail[3];
  const ret = translated ? Number(translated) : raw === '?' ? null : Number(raw);
  return { name: head[1]!, args: splitArgs(text.slice(head[0].length, close)), ret, error: tail[2] ?? null };
}

export function parseSockaddr(text: string): Destination | null {
  const family = /sa_family=(AF_\w+)/.exec(text)?.[1];
  if (!family) return null;
  if (family === 'AF_INET') {
    const port = /sin_port=htons\((\d+)\)/.exec(text)?.[1];
    const addr = /inet_addr\("([^"]+)"\)/.exec(text)?.[1];
    return { family, address: addr ?? '?', port: port ? Number(port) : null };
  }
  if (family === 'AF_INET6') {
    const port = /sin6_port=htons\((\d+)\)/.exec(text)?.[1];
    const addr = /inet_pton\(AF_INET6,\s*"([^"]+)"/.exec(text)?.[1];
    return { family, address: addr ?? '?', port: port ? Number(port) : null };
  }
  if (family === 'AF_UNIX') {
    const path = /sun_path=(@?)"((?:[^"\\]|\\.)*)"/.exec(text);
    return { family, address: path ? `${path[1]}${stringLiterals(`"${path[2]}"`)[0]}` : '?', port: null };
  }
  return { family, address: '?', port: null };
}

function socketProtocol(args: string[]): NetworkProtocol {
  const [domain = '', type = ''] = args;
  if (domain === 'AF_UNIX' || domain === 'AF_LOCAL') return 'unix';
  if (type.includes('SOCK_STREAM')) return 'tcp';
  if (type.includes('SOCK_DGRAM')) return 'udp';
  return 'unknown';
}

function isWriteOpen(flags: string): boolean {
  return /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(flags);
}

/** Payloads of a send call: the buffer argument of sendto, every iov_base of sendmsg/sendmmsg. */
function sendPayloads(call: Syscall): string[] {
  if (call.name === 'sendto') {
    const buf = call.args[1] ?? '';
    return buf.startsWith('"') ? stringLiterals(buf).slice(0, 1) : [];
  }
  const out: string[] = [];
  const re = /iov_base="((?:[^"\\]|\\.)*)"/g;
  const text = call.args[1] ?? '';
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(stringLiterals(`"${m[1]}"`)[0] ?? '');
  return out;
}

export class StraceParser {
  private seq = 0;
  private readonly procs = new Map<number, Proc>();
  /** Thread id to the thread-group (process) id. */
  private readonly tgid = new Map<number, number>();
  private readonly unfinished = new Map<number, string>();
  private readonly sockets = new Map<string, NetworkProtocol>();
  private readonly connected = new Map<
    string,
    { dest: Destination; attempt: Pending<NetworkAttempt> | null }
  >();
  private readonly attempts: Pending<NetworkAttempt>[] = [];
  private readonly dns: Pending<DnsQuery>[] = [];
  private readonly opens: Pending<Omit<SensitiveRead, 'argv'>>[] = [];
  private sandboxRoot: number | null = null;
  private overflow = { attempts: 0, sensitiveReads: 0 };

  constructor(private readonly ctx: StraceContext) {}

  private proc(tid: number): Proc {
    const pid = this.tgid.get(tid) ?? tid;
    let proc = this.procs.get(pid);
    if (!proc) {
      proc = { pid, ppid: null, executable: null, argv: [], exit: null, execSeq: null, firstSeq: this.seq };
      this.procs.set(pid, proc);
    }
    return proc;
  }

  line(raw: string): void {
    this.seq++;
    const m = /^(\d+)\s+(.*)$/.exec(raw);
    if (!m) return;
    const tid = Number(m[1]);
    let rest = m[2]!;
    if (rest.startsWith('+++')) {
      this.exitLine(tid, rest);
      return;
    }
    if (rest.startsWith('---')) return;
    const resumed = /^<\.\.\. [a-z0-9_]+ resumed>\s?(.*)$/.exec(rest);
    if (resumed) {
      const start = this.unfinished.get(tid);
      this.unfinished.delete(tid);
      if (start === undefined) return;
      rest = start + resumed[1]!;
    } else if (rest.endsWith('<unfinished ...>')) {
      this.unfinished.set(tid, rest.slice(0, -'<unfinished ...>'.length).trimEnd());
      // The pid exists from now on (children of a vfork appear before the parent resumes).
      this.proc(tid);
      return;
    }
    const call = parseSyscall(rest);
    if (call) this.syscall(tid, call);
  }

  private exitLine(tid: number, text: string): void {
    if (this.tgid.has(tid) && this.tgid.get(tid) !== tid) return; // a thread ended, not the process
    const proc = this.proc(tid);
    const exited = /exited with (\d+)/.exec(text);
    const killed = /killed by (SIG\w+)/.exec(text);
    if (exited) proc.exit = { code: Number(exited[1]), signal: null };
    else if (killed) proc.exit = { code: null, signal: killed[1]! };
  }

  private syscall(tid: number, call: Syscall): void {
    const proc = this.proc(tid);
    switch (call.name) {
      case 'execve':
      case 'execveat':
        if (call.ret === 0) this.exec(proc, call);
        return;
      case 'clone':
      case 'clone3':
      case 'fork':
      case 'vfork':
        if (call.ret !== null && call.ret > 0) this.fork(proc, call);
        return;
      case 'socket':
        if (call.ret !== null && call.ret >= 0)
          this.sockets.set(`${proc.pid}:${call.ret}`, socketProtocol(call.args));
        return;
      case 'connect':
        this.connect(proc, call);
        return;
      case 'sendto':
      case 'sendmsg':
      case 'sendmmsg':
        this.send(proc, call);
        return;
      case 'open':
      case 'openat':
      case 'openat2':
        this.open(proc, call);
        return;
    }
  }

  private exec(proc: Proc, call: Syscall): void {
    const pathArg = call.name === 'execveat' ? call.args[1] : call.args[0];
    const argvArg = call.name === 'execveat' ? call.args[2] : call.args[1];
    proc.executable = stringLiterals(pathArg ?? '')[0] ?? null;
    // Bounded: a hostile command line must not balloon the evidence.
    proc.argv = stringLiterals(argvArg ?? '').slice(0, MAX_ARGS);
    if (proc.execSeq === null) proc.execSeq = this.seq;
    if (this.ctx.sandboxExecutable !== null && proc.executable === this.ctx.sandboxExecutable) {
      this.sandboxRoot ??= proc.pid;
      proc.execSeq = null; // bwrap itself is not sandboxed behaviour
    }
  }

  private fork(parent: Proc, call: Syscall): void {
    const childTid = call.ret!;
    const flags = call.args.join(',');
    if (/CLONE_THREAD/.test(flags)) {
      this.tgid.set(childTid, parent.pid);
      this.procs.delete(childTid); // it may have shown up before the parent's clone returned
      return;
    }
    const child = this.proc(childTid);
    child.ppid = parent.pid;
    if (child.executable === null) {
      child.executable = parent.executable;
      child.argv = parent.argv;
    }
    // Descendant sockets stay usable after fork.
    for (const [key, proto] of this.sockets) {
      if (key.startsWith(`${parent.pid}:`))
        this.sockets.set(`${child.pid}:${key.slice(key.indexOf(':') + 1)}`, proto);
    }
  }

  private pushAttempt(proc: Proc, attempt: NetworkAttempt): Pending<NetworkAttempt> | null {
    if (this.attempts.length >= EVIDENCE_CAPS.attempts * 4) {
      this.overflow.attempts++;
      return null;
    }
    const pending = { pid: proc.pid, seq: this.seq, item: attempt };
    this.attempts.push(pending);
    return pending;
  }

  private connect(proc: Proc, call: Syscall): void {
    const dest = parseSockaddr(call.args[1] ?? '');
    if (!dest || dest.family === 'AF_NETLINK' || dest.family === 'AF_UNSPEC') return;
    if (dest.family === 'AF_UNIX' && NOISE_UNIX_PATHS.has(dest.address)) return;
    const key = `${proc.pid}:${call.args[0]}`;
    const protocol = dest.family === 'AF_UNIX' ? 'unix' : (this.sockets.get(key) ?? 'unknown');
    const failed = call.ret === -1 && call.error !== 'EINPROGRESS' && call.error !== 'EAGAIN';
    const attempt = this.pushAttempt(proc, {
      pid: proc.pid,
      syscall: call.name,
      family: dest.family,
      address: dest.address,
      port: dest.port,
      protocol,
      blocked: failed,
      error: call.error,
    });
    this.connected.set(key, { dest, attempt });
  }

  private send(proc: Proc, call: Syscall): void {
    const key = `${proc.pid}:${call.args[0]}`;
    const explicit = parseSockaddr(call.name === 'sendto' ? (call.args[4] ?? '') : (call.args[1] ?? ''));
    const known = this.connected.get(key);
    const dest = explicit && explicit.family !== 'AF_NETLINK' ? explicit : known?.dest;
    if (!dest || dest.family === 'AF_NETLINK' || dest.family === 'AF_UNIX') return;
    const payloads = sendPayloads(call);
    if (dest.port === 53) {
      for (const payload of payloads) {
        const q = parseDnsQuestion(Buffer.from(payload, 'latin1'));
        if (q)
          this.dns.push({
            pid: proc.pid,
            seq: this.seq,
            item: { name: q.name, type: q.type, source: 'strace', pid: proc.pid },
          });
      }
    }
    const head = payloads.join('').slice(0, EVIDENCE_CAPS.payloadBytes);
    // A connected socket's data belongs to its connect attempt; a datagram to an explicit address is its own.
    if (!explicit && known?.attempt) {
      known.attempt.item.payload ??= head;
      return;
    }
    const failed = call.ret === -1;
    this.pushAttempt(proc, {
      pid: proc.pid,
      syscall: call.name,
      family: dest.family,
      address: dest.address,
      port: dest.port,
      protocol: this.sockets.get(key) ?? 'udp',
      blocked: failed,
      error: call.error,
      payload: head,
    });
  }

  private open(proc: Proc, call: Syscall): void {
    // openat and openat2 take a directory fd first; openat2's flags are inside its `open_how` struct.
    const at = call.name !== 'open';
    const pathArg = at ? call.args[1] : call.args[0];
    const flags = (at ? call.args[2] : call.args[1]) ?? '';
    const raw = stringLiterals(pathArg ?? '')[0];
    if (raw === undefined) return;
    const dirfd = at ? call.args[0] : 'AT_FDCWD';
    if (!raw.startsWith('/') && dirfd !== 'AT_FDCWD') return; // relative to an fd we do not track
    const path = raw.startsWith('/') ? posix.normalize(raw) : posix.join(this.ctx.cwd, raw);
    const canary = this.ctx.canaryPaths.get(path) ?? null;
    const rule = matchSensitivePath(path);
    if (!rule && !canary) return;
    if (this.opens.length >= EVIDENCE_CAPS.sensitiveReads * 4) {
      this.overflow.sensitiveReads++;
      return;
    }
    this.opens.push({
      pid: proc.pid,
      seq: this.seq,
      item: {
        pid: proc.pid,
        path,
        rule: rule?.id ?? 'canary',
        canary,
        write: isWriteOpen(flags),
        error: call.ret === -1 ? call.error : null,
      },
    });
  }

  /** Whether an event of `pid` at `seq` happened inside the sandbox. */
  private inSandbox(pid: number, seq: number): boolean {
    if (this.ctx.sandboxExecutable === null) return true;
    if (this.sandboxRoot === null) return false;
    let proc = this.procs.get(pid);
    let execd = proc?.execSeq !== null && proc?.execSeq !== undefined && proc.execSeq <= seq;
    for (let depth = 0; proc && depth < 4096; depth++) {
      if (proc.ppid === this.sandboxRoot) return execd;
      if (proc.pid === this.sandboxRoot || proc.ppid === null) return false;
      proc = this.procs.get(proc.ppid);
      if (proc && proc.execSeq !== null && proc.pid !== this.sandboxRoot) execd = true;
    }
    return false;
  }

  finish(): StraceEvidence {
    const processes: ProcessRecord[] = [];
    let droppedProcesses = 0;
    for (const proc of this.procs.values()) {
      if (!this.inSandbox(proc.pid, Number.MAX_SAFE_INTEGER)) continue;
      if (processes.length >= EVIDENCE_CAPS.processes) {
        droppedProcesses++;
        continue;
      }
      processes.push({
        pid: proc.pid,
        ppid: proc.ppid,
        executable: proc.executable,
        argv: proc.argv,
        exit: proc.exit,
      });
    }
    const keep = <T>(list: Pending<T>[]) =>
      list.filter((p) => this.inSandbox(p.pid, p.seq)).map((p) => p.item);
    const attempts = keep(this.attempts);
    const seenDns = new Set<string>();
    const dnsQueries = keep(this.dns).filter((q) => {
      const key = `${q.name}\0${q.type}`;
      if (seenDns.has(key)) return false;
      seenDns.add(key);
      return true;
    });
    const seenOpen = new Set<string>();
    const sensitiveReads: SensitiveRead[] = [];
    for (const open of keep(this.opens)) {
      const key = `${open.pid}\0${open.path}\0${open.write}`;
      if (seenOpen.has(key)) continue;
      seenOpen.add(key);
      sensitiveReads.push({ ...open, argv: this.procs.get(open.pid)?.argv ?? [] });
    }
    return {
      processes,
      attempts: attempts.slice(0, EVIDENCE_CAPS.attempts),
      dnsQueries,
      sensitiveReads: sensitiveReads.slice(0, EVIDENCE_CAPS.sensitiveReads),
      dropped: {
        processes: droppedProcesses,
        attempts: this.overflow.attempts + Math.max(0, attempts.length - EVIDENCE_CAPS.attempts),
        sensitiveReads:
          this.overflow.sensitiveReads + Math.max(0, sensitiveReads.length - EVIDENCE_CAPS.sensitiveReads),
      },
    };
  }
}

export function parseStraceLog(text: string, ctx: StraceContext): StraceEvidence {
  const parser = new StraceParser(ctx);
  for (const line of text.split('\n')) parser.line(line);
  return parser.finish();
}
