// A private network for one sandbox: two network namespaces joined by a veth pair. The sandbox side has a
// default route to the sink side; the sink side treats every IPv4 address as local and runs sink-server.ts,
// so any connection or DNS query ends at the logging sink. Neither namespace has any link to the host's
// network. Needs root. Names carry this process's pid, so a later start can remove what a crash left.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SinkRecord } from './evidence.js';
import { errorMessage } from '../util/errors.js';
import { makeTempDir, removeTempDir } from '../util/tempdir.js';
import { findTool } from './host-tools.js';
import { createSinkCa } from './sink-ca.js';

const run = promisify(execFile);
const NETNS_DIR = '/run/netns';
/** Connections of a finished run were closed by the kernel; the sink logs on close within an event-loop turn. */
const IDLE_SETTLE_MS = 50;
const PREFIX = 'skau-';
export const SANDBOX_ADDRESS = '192.0.2.2';
/** TEST-NET-1: never routed on the internet, so the sinkhole answer cannot leak anywhere. */
export const SINK_ADDRESS = '192.0.2.1';
/** The sink drops to this uid after binding its ports. */
const SINK_UID = 65534;
const EXTRA_PORTS = [
  1080, 1337, 1433, 2375, 2376, 3000, 3128, 3306, 4000, 4443, 4444, 5000, 5432, 5555, 5900, 6379, 6443, 6667,
  7000, 8000, 8008, 8080, 8081, 8088, 8443, 8888, 9000, 9001, 9090, 9200, 9443, 10000, 11211, 27017, 31337,
];
/** Ports the sink listens on (no REDIRECT without iptables): all privileged ports and common high ones. */
export const SINK_PORTS = [...Array.from({ length: 1024 }, (_, i) => i + 1), ...EXTRA_PORTS];

export interface NetworkSink {
  /** Path of the sandbox-side namespace, for `nsenter --net=`. */
  readonly netnsPath: string;
  readonly sinkAddress: string;
  readonly records: readonly SinkRecord[];
  /** CA bundle (host's plus the sink's CA) for the sandbox to trust, or null when HTTPS is not intercepted. */
  readonly caBundle: string | null;
  /** Why HTTPS is not intercepted, when it is not. */
  readonly tlsNote: string | null;
  /** Resolves once the sink has logged everything sent before this call. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

async function ip(...args: string[]): Promise<void> {
  await run(findTool('ip') ?? 'ip', args, { timeout: 10_000 });
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

async function processStart(pid: number): Promise<number | null> {
  try {
    return (await stat(`/proc/${pid}`)).ctimeMs;
  } catch {
    return null;
  }
}

/** Deletes namespaces left by SkillAudit processes that are gone (or whose pid was reused since). */
export async function removeStaleNamespaces(): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(NETNS_DIR);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = new RegExp(`^${PREFIX}(\\d+)-[0-9a-f]+-(box|sink)$`).exec(name);
    if (!m) continue;
    const owner = Number(m[1]);
    if (owner === process.pid) continue;
    const created = (await stat(`${NETNS_DIR}/${name}`).catch(() => null))?.ctimeMs ?? 0;
    const started = await processStart(owner);
    if (started !== null && started <= created) continue; // its owner is alive
    await ip('netns', 'delete', name).catch(() => undefined);
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

export async function startNetworkSink(): Promise<NetworkSink> {
  await removeStaleNamespaces();
  const tag = randomBytes(3).toString('hex');
  const box = `${PREFIX}${process.pid}-${tag}-box`;
  const sink = `${PREFIX}${process.pid}-${tag}-sink`;
  // Interface names are limited to 15 characters.
  const boxIf = `skb${tag}`;
  const sinkIf = `sks${tag}`;
  const cleanup = async () => {
    await ip('netns', 'delete', box).catch(() => undefined);
    await ip('netns', 'delete', sink).catch(() => undefined);
  };
  let child: ChildProcess | null = null;
  const caDir = makeTempDir('sink');
  chmodSync(caDir, 0o711);
  const cleanupAll = async () => {
    await cleanup();
    removeTempDir(caDir);
  };
  try {
    const ca = await createSinkCa(caDir, SINK_UID).catch((error: unknown) => ({
      error: errorMessage(error),
    }));
    await ipBatch(
      [],
      [
        `netns add ${box}`,
        `netns add ${sink}`,
        `link add ${boxIf} netns ${box} type veth peer name ${sinkIf} netns ${sink}`,
      ],
    );
    await ipBatch(
      ['-n', box],
      [
        'link set lo up',
        `addr add ${SANDBOX_ADDRESS}/24 dev ${boxIf}`,
        `link set ${boxIf} up`,
        `route add default via ${SINK_ADDRESS}`,
      ],
    );
    // Every IPv4 destination is local in the sink namespace, so the sink answers for any address.
    await ipBatch(
      ['-n', sink],
      [
        'link set lo up',
        `addr add ${SINK_ADDRESS}/24 dev ${sinkIf}`,
        `link set ${sinkIf} up`,
        'route add local 0.0.0.0/0 dev lo',
      ],
    );

    const { command, args } = sinkCommand();
    const prlimit = findTool('prlimit');
    const inner = [...(prlimit ? [prlimit, '--nofile=16384:16384', '--'] : []), command, ...args];
    child = spawn(
      findTool('ip') ?? 'ip',
      [
        'netns',
        'exec',
        sink,
        ...inner,
        SINK_ADDRESS,
        String(SINK_UID),
        SINK_PORTS.join(','),
        'error' in ca ? '' : ca.dir,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], cwd: process.cwd() },
    );
    const tls =
      'error' in ca ? { caBundle: null, tlsNote: ca.error } : { caBundle: ca.bundle, tlsNote: null };
    return await attach(child, `${NETNS_DIR}/${box}`, tls, cleanupAll);
  } catch (error) {
    child?.kill('SIGKILL');
    await cleanupAll();
    throw error;
  }
}

async function attach(
  child: ChildProcess,
  netnsPath: string,
  tls: { caBundle: string | null; tlsNote: string | null },
  cleanup: () => Promise<void>,
): Promise<NetworkSink> {
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
      15_000,
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
    netnsPath,
    sinkAddress: SINK_ADDRESS,
    records,
    ...tls,
    async settle() {
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
    async close() {
      if (closed) return;
      closed = true;
      child.stdin?.end();
      child.kill('SIGKILL');
      await cleanup();
    },
  };
}
