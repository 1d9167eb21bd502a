// Private networks for sandboxes. One sink network namespace per SkillAudit process runs sink-server.ts
// and treats every IPv4 address as local, so any connection or DNS query ends at the logging sink. Each
// sandbox gets its own namespace joined to the sink by a veth pair on its own /30 (from 198.18.0.0/15,
// reserved for benchmarking and never routed), with a default route to the sink; the sink tells
// sandboxes apart by their address. No namespace has any link to the host's network. Needs root. Names
// carry this process's pid, so a later start can remove what a crash left.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../util/errors.js';
import { makeTempDir, removeTempDir } from '../util/tempdir.js';
import type { NetworkAttempt, SinkRecord } from './evidence.js';
import { findTool } from './host-tools.js';
import { createSinkCa } from './sink-ca.js';

const NETNS_DIR = '/run/netns';
/** Connections of a finished run were closed by the kernel; the sink logs on close within an event-loop turn. */
const IDLE_SETTLE_MS = 50;
/** The shared sink outlives its last sandbox briefly, so sandboxes made one after another reuse it. */
const LINGER_MS = 5_000;
const PREFIX = 'skau-';
/** What DNS answers for every name: TEST-NET-1, routed to the sink inside the sandbox and nowhere else. */
export const SINKHOLE_ADDRESS = '192.0.2.1';
/** The sink drops to this uid after binding its ports. */
const SINK_UID = 65534;
const LINKS = 16_384; // /30 links in 198.18.0.0/16
const EXTRA_PORTS = [
  1080, 1337, 1433, 2375, 2376, 3000, 3128, 3306, 4000, 4443, 4444, 5000, 5432, 5555, 5900, 6379, 6443, 6667,
  7000, 8000, 8008, 8080, 8081, 8088, 8443, 8888, 9000, 9001, 9090, 9200, 9443, 10000, 11211, 27017, 31337,
];
/** Ports the sink listens on (no REDIRECT without iptables): all privileged ports and common high ones. */
export const SINK_PORTS = [...Array.from({ length: 1024 }, (_, i) => i + 1), ...EXTRA_PORTS];

/**
 * A non-blocking TCP connect (strace sees only EINPROGRESS) to a port the sink does not listen on was refused:
 * in sink mode every IPv4 destination but the sandbox's own loopback is the sink. Marks those attempts so.
 */
export function settleSinkConnects(attempts: NetworkAttempt[]): void {
  const listening = new Set(SINK_PORTS);
  for (const a of attempts) {
    const ownLoopback = a.address.startsWith('127.') || a.address === '0.0.0.0';
    if (a.error !== 'EINPROGRESS' || a.family !== 'AF_INET' || a.port === null || ownLoopback) continue;
    if (listening.has(a.port)) continue;
    a.blocked = true;
    a.error = 'ECONNREFUSED';
  }
}

export interface NetworkSink {
  /** Path of the sandbox-side namespace, for `nsenter --net=`. */
  readonly netnsPath: string;
  /** The sink's address on this sandbox's link: its DNS server. */
  readonly sinkAddress: string;
  /** Everything the sink logged from this sandbox so far. */
  readonly records: readonly SinkRecord[];
  /** CA bundle (host's plus the sink's CA) for the sandbox to trust, or null when HTTPS is not intercepted. */
  readonly caBundle: string | null;
  /** Why HTTPS is not intercepted, when it is not. */
  readonly tlsNote: string | null;
  /** Resolves once the sink has logged everything sent before this call. */
  settle(): Promise<void>;
  close(): Promise<void>;
  /** At exit, when nothing can be awaited: deletes the namespace (the sink process exits with this one). */
  closeSync(): void;
}

/** Several ip commands in one process (each start costs tens of milliseconds). */
async function ipBatch(global: string[], commands: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = execFile(
      findTool('ip') ?? 'ip',
      [...global, '-batch', '-'],
      { timeout: 10_000 },
      (error) => (error ? reject(error) : resolve()),
    );
    child.stdin?.end(`${commands.join('\n')}\n`);
  });
}

const deleteNetns = (name: string) => ipBatch([], [`netns delete ${name}`]).catch(() => undefined);

function deleteNetnsSync(name: string): void {
  try {
    execFileSync(findTool('ip') ?? 'ip', ['netns', 'delete', name], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // Already gone.
  }
}

/**
 * Deletes namespaces left by SkillAudit processes that are gone. A live owner is known by its /proc entry alone:
 * that entry's times are when the kernel last made its inode, not when the process started, so comparing them
 * with the namespace's age deleted live sandboxes' namespaces. A reused pid only delays a stale one's removal.
 */
export async function removeStaleNamespaces(): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(NETNS_DIR);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = new RegExp(`^${PREFIX}(\\d+)-[0-9a-f]+-box$`).exec(name);
    if (!m) continue;
    const owner = Number(m[1]);
    if (owner === process.pid) continue;
    if (existsSync(`/proc/${owner}`)) continue;
    await deleteNetns(name);
    removed.push(name);
  }
  return removed;
}

function sinkCommand(): { command: string; args: string[] } {
  const here = import.meta.url;
  const server = fileURLToPath(new URL(here.endsWith('.ts') ? './sink-server.ts' : './sink-server.js', here));
  // From source (tests, tsx) the server is TypeScript: load it through tsx's ESM loader.
  const loader = here.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
  return { command: process.execPath, args: [...loader, server] };
}

interface SharedSink {
  /** The sink process; its network namespace is the sink's. */
  pid: number;
  /** False once the sink process has exited: a dead sink is replaced, not reused. */
  alive(): boolean;
  records: SinkRecord[];
  caBundle: string | null;
  tlsNote: string | null;
  sync(): Promise<void>;
  /** Names the sink resolves even when they look made up: hosts the skill's own files name. */
  know(hosts: readonly string[]): void;
  /** The JSON a sandbox's API calls get (null: the generic answer again). */
  answer(client: string, json: string | null): void;
  close(): Promise<void>;
}

let shared: Promise<SharedSink> | null = null;
let users = 0;
let lingerTimer: NodeJS.Timeout | null = null;
let nextLink = 0;

/** Runs `ip` inside the network namespace of process `pid`. */
async function ipIn(pid: number, commands: string[]): Promise<void> {
  const nsenter = findTool('nsenter');
  if (!nsenter) throw new Error('nsenter not found');
  await new Promise<void>((resolve, reject) => {
    const child = execFile(
      nsenter,
      ['-t', String(pid), '-n', '--', findTool('ip') ?? 'ip', '-batch', '-'],
      { timeout: 10_000 },
      (error) => (error ? reject(error) : resolve()),
    );
    child.stdin?.end(`${commands.join('\n')}\n`);
  });
}

async function startSharedSink(): Promise<SharedSink> {
  await removeStaleNamespaces();
  const unshare = findTool('unshare');
  if (!unshare) throw new Error('unshare not found (util-linux)');
  const caDir = makeTempDir('sink');
  chmodSync(caDir, 0o711);
  let child: ChildProcess | null = null;
  // The sink's namespace is anonymous: it lives exactly as long as the sink process, which exits when this
  // process goes away (its stdin closes), so a crash leaves nothing behind.
  const cleanup = async () => {
    child?.kill('SIGKILL');
    removeTempDir(caDir);
  };
  try {
    const ca = await createSinkCa(caDir, SINK_UID).catch((error: unknown) => ({
      error: errorMessage(error),
    }));
    const { command, args } = sinkCommand();
    const prlimit = findTool('prlimit');
    const inner = [...(prlimit ? [prlimit, '--nofile=16384:16384', '--'] : []), command, ...args];
    const sinkArgs = [SINKHOLE_ADDRESS, String(SINK_UID), SINK_PORTS.join(','), 'error' in ca ? '' : ca.dir];
    child = spawn(unshare, ['--net', '--', ...inner, ...sinkArgs], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: process.cwd(),
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error('could not start the network sink');
    // Every IPv4 destination is local in the sink namespace, so the sink answers for any address.
    // (unshare execs the sink, so this pid is in the new namespace once unshare has run; retry briefly.)
    for (let attempt = 0; ; attempt++) {
      try {
        const own = await readlink(`/proc/${pid}/ns/net`);
        if (own === (await readlink('/proc/self/ns/net'))) throw new Error('namespace not yet created');
        await ipIn(pid, ['link set lo up', 'route add local 0.0.0.0/0 dev lo']);
        break;
      } catch (error) {
        if (attempt >= 100) throw error;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const tls =
      'error' in ca ? { caBundle: null, tlsNote: ca.error } : { caBundle: ca.bundle, tlsNote: null };
    return await attach(child, pid, tls, cleanup);
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function attach(
  child: ChildProcess,
  pid: number,
  tls: { caBundle: string | null; tlsNote: string | null },
  cleanup: () => Promise<void>,
): Promise<SharedSink> {
  const records: SinkRecord[] = [];
  const waiters = new Map<number, () => void>();
  let syncCounter = 0;
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`network sink did not start in time: ${stderr}`)),
      30_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`network sink exited (${code}): ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let msg: { type?: string; record?: SinkRecord; n?: number; message?: string };
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.type === 'ready') {
        clearTimeout(timer);
        resolve();
      } else if (msg.type === 'record' && msg.record) records.push(msg.record);
      else if (msg.type === 'sync' && msg.n !== undefined) waiters.get(msg.n)?.();
      else if (msg.type === 'error') reject(new Error(`network sink failed: ${msg.message}`));
    });
  });
  await ready;
  let closed = false;
  return {
    pid,
    alive: () => !closed && child.exitCode === null && child.signalCode === null,
    records,
    ...tls,
    async sync() {
      if (closed || child.exitCode !== null) return;
      // Bytes a finished run sent may still sit in the sink's socket buffers: give its event loop a turn.
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      const n = ++syncCounter;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2_000);
        waiters.set(n, () => {
          clearTimeout(timer);
          waiters.delete(n);
          resolve();
        });
        child.stdin?.write(`sync ${n}\n`);
      });
    },
    know(hosts) {
      // One name per line on the control channel: only plain DNS names, so no line can carry a command.
      const names = hosts.filter((h) => h.length <= 253 && /^[A-Za-z0-9_.-]+$/.test(h));
      if (!closed && names.length)
        child.stdin?.write(names.map((h) => `known ${h.toLowerCase()}\n`).join(''));
    },
    answer(client, json) {
      // Base64 keeps the answer on one control line whatever it holds.
      const body = json === null ? '-' : Buffer.from(json).toString('base64');
      if (!closed) child.stdin?.write(`answer ${client} ${body}\n`);
    },
    async close() {
      if (closed) return;
      closed = true;
      child.stdin?.end();
      await cleanup();
    },
  };
}

async function acquireShared(): Promise<SharedSink> {
  users++;
  if (lingerTimer) {
    clearTimeout(lingerTimer);
    lingerTimer = null;
  }
  try {
    const current = shared;
    if (current && !(await current).alive() && shared === current) shared = null;
    shared ??= startSharedSink();
    return await shared;
  } catch (error) {
    shared = null;
    users--;
    throw error;
  }
}

function releaseShared(): void {
  users--;
  if (users > 0 || !shared) return;
  const closing = shared;
  lingerTimer = setTimeout(() => {
    lingerTimer = null;
    if (users > 0 || shared !== closing) return;
    shared = null;
    void closing.then((s) => s.close()).catch(() => undefined);
  }, LINGER_MS);
  lingerTimer.unref();
}

function linkAddresses(index: number): { sink: string; box: string } {
  const base = (index % LINKS) * 4;
  const prefix = `198.18.${base >> 8}`;
  return { sink: `${prefix}.${(base & 255) + 1}`, box: `${prefix}.${(base & 255) + 2}` };
}

/**
 * A network namespace for one sandbox, linked to this process's sink (started on first use). `apiAnswer`: the JSON
 * its API calls get instead of the generic one.
 */
export async function startNetworkSink(
  knownHosts: readonly string[] = [],
  apiAnswer?: string,
): Promise<NetworkSink> {
  const sink = await acquireShared();
  sink.know(knownHosts);
  const tag = randomBytes(3).toString('hex');
  const box = `${PREFIX}${process.pid}-${tag}-box`;
  // Interface names are limited to 15 characters.
  const boxIf = `skb${tag}`;
  const sinkIf = `sks${tag}`;
  const address = linkAddresses(nextLink++);
  try {
    await ipBatch(
      [],
      [`netns add ${box}`, `link add ${boxIf} netns ${box} type veth peer name ${sinkIf} netns ${sink.pid}`],
    );
    await ipBatch(
      ['-n', box],
      [
        'link set lo up',
        `addr add ${address.box}/30 dev ${boxIf}`,
        `link set ${boxIf} up`,
        `route add default via ${address.sink}`,
      ],
    );
    await ipIn(sink.pid, [`addr add ${address.sink}/30 dev ${sinkIf}`, `link set ${sinkIf} up`]);
    // Set or cleared: the address may have served another sandbox before.
    sink.answer(address.box, apiAnswer ?? null);
  } catch (error) {
    await deleteNetns(box);
    releaseShared();
    throw error;
  }
  let closed = false;
  return {
    netnsPath: `${NETNS_DIR}/${box}`,
    sinkAddress: address.sink,
    get records() {
      return sink.records.filter((r) => r.client === address.box);
    },
    caBundle: sink.caBundle,
    tlsNote: sink.tlsNote,
    settle: () => sink.sync(),
    async close() {
      if (closed) return;
      closed = true;
      // Deleting the namespace destroys its end of the veth pair, and with it the sink's end.
      await deleteNetns(box);
      // Its records go too: the shared log stays bounded and the address can be reused.
      const kept = sink.records.filter((r) => r.client !== address.box);
      sink.records.splice(0, sink.records.length, ...kept);
      releaseShared();
    },
    closeSync() {
      if (closed) return;
      closed = true;
      deleteNetnsSync(box);
    },
  };
}
