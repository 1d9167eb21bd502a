// The bubblewrap backend (DESIGN section 5): bwrap started as an unprivileged host uid, every namespace
// unshared, an allowlisted read-only view of the host's system folders (system-view.ts) with private /tmp,
// /root, /var/tmp and /dev/shm, the sandbox HOME (with the workspace inside it) bound read-write, rlimits via
// prlimit, memory and pids via a cgroup per run, a wall-clock limit held twice (a timer here, `timeout` in the
// process chain, so a blocked or killed SkillAudit still ends it), a parent-death signal on every link of
// the chain, and strace outside the sandbox recording what happened.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../util/errors.js';
import { atExit } from '../util/interrupt.js';
import { makeTempDir, removeTempDir } from '../util/tempdir.js';
import { type CanarySet, seedCanaries } from './canaries.js';
import { DEFAULT_CANARY_SCAN_LIMITS } from './canary-scan.js';
import { createRunCgroup, type RunCgroup, removeStaleCgroups } from './cgroup.js';
import type { EvidenceBundle, LimitRecord } from './evidence.js';
import { findTool, isRoot } from './host-tools.js';
import { type LiveRun, registerRun, SandboxStoppedError, unregisterRun } from './live-runs.js';
import { type NetworkSink, settleSinkConnects, startNetworkSink } from './network-sink.js';
import { BoundedOutput } from './output-capture.js';
import { isAlive, killAll, killTree } from './process-tree.js';
import { checkRunRequest } from './request-check.js';
import { mountScratch, removeStaleScratch, unmountScratch, unmountScratchSync } from './scratch-disk.js';
import { SYSTEM_CA_BUNDLE } from './sink-ca.js';
import { type StraceEvidence, StraceParser } from './strace-parse.js';
import {
  interpreterPrefixes,
  plausibleHostname,
  type SyntheticEtc,
  systemViewArgs,
  writeSyntheticEtc,
} from './system-view.js';
import {
  type CreateSandboxOptions,
  DEFAULT_SANDBOX_LIMITS,
  type RunRequest,
  type RunResult,
  SANDBOX_INNER_PATHS,
  type Sandbox,
  type SandboxLimits,
  type SeedFile,
} from './types.js';
import { diffTrees, snapshotTrees, type WritableTree } from './writable-trees.js';

const SANDBOX_UID = 65534;
/** The user a run sees itself as: the first account of an ordinary machine, not nobody (the host uid stays 65534). */
const INNER_USER = { name: 'skill', uid: 1000 };
const INNER = SANDBOX_INNER_PATHS;
/** Empty folders the sandbox gets where a system has them; nothing written there survives or matters. */
const EMPTY_DIRS = ['/home', '/run', '/var/lib', '/var/cache', '/mnt', '/opt', '/srv'];
/**
 * Writable folders besides HOME and /tmp where scripts drop files (persistence, staging): each is a
 * private host folder, snapshotted like the others so what lands there is in the evidence.
 */
const EXTRA_WRITABLE: { name: 'root' | 'var-tmp' | 'dev-shm'; inner: string; mode: number }[] = [
  { name: 'root', inner: '/root', mode: 0o700 },
  { name: 'var-tmp', inner: '/var/tmp', mode: 0o1777 },
  { name: 'dev-shm', inner: '/dev/shm', mode: 0o1777 },
];
/** The wall clock is also enforced by `timeout` in the chain, this long after the timer here should fire. */
const WALL_BACKSTOP_MS = 2_000;
/** bwrap reads its arguments from this descriptor, so no canary value is on any command line. */
const ARGS_FD = 3;
/** The canary search gets what is left of the run's wall clock, and never less than this. */
const CANARY_SCAN_FLOOR_MS = 2_000;
const STRACE_SYSCALLS =
  'execve,execveat,clone,clone3,fork,vfork,socket,connect,sendto,sendmsg,sendmmsg,openat,openat2,open';
/** A trace larger than this means a run is flooding syscalls on purpose; it is stopped. */
const MAX_TRACE_BYTES = 256 * 1024 * 1024;
/** Output far beyond the kept bytes only costs time: the run is stopped. */
const OUTPUT_KILL_FACTOR = 8;
const DEFAULT_DISK_BYTES = 1024 * 1024 * 1024;
/** Points the common TLS stacks (OpenSSL, Node, Python requests, curl) at the bundle with the sink's CA. */
const TRUST_SINK_CA_ENV = {
  SSL_CERT_FILE: SYSTEM_CA_BUNDLE,
  NODE_EXTRA_CA_CERTS: SYSTEM_CA_BUNDLE,
  REQUESTS_CA_BUNDLE: SYSTEM_CA_BUNDLE,
  CURL_CA_BUNDLE: SYSTEM_CA_BUNDLE,
};

export interface BubblewrapTools {
  bwrap: string;
  strace: string | null;
  setpriv: string | null;
  prlimit: string | null;
  nsenter: string | null;
  /** coreutils `timeout`: the wall-clock limit outside this process. */
  timeout: string | null;
  /** setpriv supports --pdeathsig (util-linux 2.33+): each link of the chain dies with its parent. */
  pdeathsig: boolean;
  sh: string;
  /** bwrap 0.8+ can forbid nested user namespaces (a kernel attack surface the skill has no need for). */
  disableUserns: boolean;
}

/** What a tool's --help said, per tool and option: asked once per process (each answer is a blocking exec). */
const helpAnswers = new Map<string, boolean>();

function helpMentions(tool: string | null, option: string): boolean {
  if (!tool) return false;
  const key = `${tool}\0${option}`;
  const known = helpAnswers.get(key);
  if (known !== undefined) return known;
  const answer = askHelp(tool, option);
  helpAnswers.set(key, answer);
  return answer;
}

function askHelp(tool: string, option: string): boolean {
  try {
    return execFileSync(tool, ['--help'], { encoding: 'utf8', timeout: 5_000 }).includes(option);
  } catch {
    return false;
  }
}

export function bubblewrapTools(): BubblewrapTools | { missing: string } {
  const bwrap = findTool('bwrap');
  if (!bwrap) return { missing: 'bwrap not found (install the bubblewrap package)' };
  const setpriv = findTool('setpriv');
  if (isRoot() && !setpriv)
    return { missing: 'setpriv not found (util-linux); refusing to run bwrap as root' };
  return {
    bwrap,
    strace: findTool('strace'),
    setpriv,
    prlimit: findTool('prlimit'),
    nsenter: findTool('nsenter'),
    timeout: findTool('timeout'),
    pdeathsig: helpMentions(setpriv, '--pdeathsig'),
    sh: findTool('sh') ?? '/bin/sh',
    disableUserns: helpMentions(bwrap, '--disable-userns'),
  };
}

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (!lstatSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) {
    const child = join(path, name);
    if (lstatSync(child).isSymbolicLink()) continue;
    chownTree(child, uid);
  }
}

function resolveCwd(cwd: string | undefined): string {
  if (!cwd) return INNER.workspace;
  const inner = cwd.startsWith('/') ? posix.normalize(cwd) : posix.join(INNER.workspace, cwd);
  if (inner !== INNER.workspace && !inner.startsWith(`${INNER.workspace}/`)) {
    throw new Error(`cwd must be inside the workspace (${INNER.workspace}): ${cwd}`);
  }
  return inner;
}

function signalName(code: number | null): string | null {
  if (code === null || code <= 128) return null;
  const names: Record<number, string> = {
    1: 'SIGHUP',
    2: 'SIGINT',
    6: 'SIGABRT',
    9: 'SIGKILL',
    11: 'SIGSEGV',
    15: 'SIGTERM',
    24: 'SIGXCPU',
    25: 'SIGXFSZ',
  };
  return names[code - 128] ?? `SIG${code - 128}`;
}

async function parseTraceFile(path: string, parser: StraceParser): Promise<StraceEvidence> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return parser.finish();
  try {
    let carry = '';
    const buf = Buffer.alloc(1024 * 1024);
    for (let read = 0; read < MAX_TRACE_BYTES; ) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      read += bytesRead;
      const lines = (carry + buf.toString('latin1', 0, bytesRead)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) parser.line(line);
    }
    if (carry) parser.line(carry);
  } finally {
    await handle.close();
  }
  return parser.finish();
}

export async function createBubblewrapSandbox(
  options: CreateSandboxOptions,
  found: BubblewrapTools,
): Promise<Sandbox> {
  const tracing = options.trace !== false;
  const tools: BubblewrapTools = tracing ? found : { ...found, strace: null };
  const root = isRoot();
  const uid = root ? SANDBOX_UID : (process.getuid?.() ?? SANDBOX_UID);
  const base = makeTempDir('sandbox');
  const diskBytes = options.diskBytes ?? DEFAULT_DISK_BYTES;
  let scratch = false;
  let diskNote = 'a size-limited scratch disk needs root; HOME, workspace and /tmp are on the host disk';
  if (root) {
    await removeStaleCgroups();
    await removeStaleScratch();
    try {
      await mountScratch(base, diskBytes);
      scratch = true;
    } catch (error) {
      diskNote = `could not mount a size-limited tmpfs: ${errorMessage(error)}`;
    }
  }
  // strace's log stays off the scratch disk: a run filling that disk must not blind the trace.
  const traceDir = makeTempDir('strace');
  // Others (the sandbox uid) may traverse the base but not list it.
  chmodSync(base, 0o711);
  const home = join(base, 'home');
  const workspace = join(home, 'work');
  const tmp = join(base, 'tmp');
  const etc = join(base, 'etc');
  const extra = EXTRA_WRITABLE.map((w) => ({ ...w, hostPath: join(base, w.name) }));
  for (const dir of [home, workspace, tmp, etc, ...extra.map((w) => w.hostPath)])
    mkdirSync(dir, { recursive: true });
  chmodSync(tmp, 0o1777);
  for (const w of extra) chmodSync(w.hostPath, w.mode);
  writeFileSync(join(etc, 'resolv-none.conf'), 'nameserver 127.0.0.1\n');
  const identity = writeSyntheticEtc(etc, INNER_USER, plausibleHostname());
  chmodSync(etc, 0o755);

  let canarySet: CanarySet | null = null;
  let sink: NetworkSink | null = null;
  let sinkFailure: string | null = null;
  let disposed = false;
  let queue: Promise<unknown> = Promise.resolve();

  try {
    if (options.seedCanaries) {
      canarySet = await seedCanaries({
        hostHome: home,
        hostWorkspace: workspace,
        innerHome: INNER.home,
        innerWorkspace: INNER.workspace,
        extraEnv: options.envCanaries ?? [],
      });
    }
    for (const file of options.files ?? []) writeSeedFile(home, workspace, file);
    if (root) chownTree(home, uid);
    if (root) for (const dir of [tmp, ...extra.map((w) => w.hostPath)]) chownSync(dir, uid, uid);
  } catch (error) {
    if (scratch) await unmountScratch(base);
    removeTempDir(base);
    removeTempDir(traceDir);
    throw error;
  }

  const trees: WritableTree[] = [
    { name: 'workspace', hostPath: workspace },
    { name: 'home', hostPath: home, exclude: new Set(['work']) },
    { name: 'tmp', hostPath: tmp },
    ...extra.map((w) => ({ name: w.name, hostPath: w.hostPath })),
  ];
  // Interrupted or exiting without dispose(): the sandbox's namespace goes, and the scratch disk before the
  // temp-dir cleanup (registered earlier, so it runs later) removes its mount point.
  const forgetAtExit = atExit(() => {
    (sink as NetworkSink | null)?.closeSync();
    if (scratch) unmountScratchSync(base);
  });

  async function networkFor(
    requested: RunRequest['network'],
  ): Promise<{ mode: EvidenceBundle['network']['mode']; note?: string }> {
    if (requested !== 'sink') return { mode: 'loopback-only' };
    if (!root)
      return {
        mode: 'loopback-only',
        note: 'network sink needs root (network namespaces); loopback only, connect attempts from strace',
      };
    if (!tools.nsenter || !findTool('ip'))
      return { mode: 'loopback-only', note: 'network sink needs iproute2 and nsenter; loopback only' };
    if (!sink && !sinkFailure) {
      try {
        sink = await startNetworkSink(options.knownHosts, options.apiAnswer);
      } catch (error) {
        sinkFailure = errorMessage(error);
      }
    }
    if (!sink) return { mode: 'loopback-only', note: `network sink unavailable: ${sinkFailure}` };
    writeFileSync(
      join(etc, 'resolv-sink.conf'),
      `nameserver ${(sink as NetworkSink).sinkAddress}\noptions timeout:1 attempts:1\n`,
    );
    const tlsNote = (sink as NetworkSink).tlsNote;
    return tlsNote ? { mode: 'sink', note: tlsNote } : { mode: 'sink' };
  }

  async function runOnce(req: RunRequest): Promise<RunResult> {
    if (disposed) throw new Error('sandbox was disposed');
    checkRunRequest(req);
    const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...req.limits };
    // prlimit and cgroups take whole numbers.
    for (const key of Object.keys(limits) as (keyof SandboxLimits)[]) limits[key] = Math.ceil(limits[key]);
    const cwd = resolveCwd(req.cwd);
    const network = await networkFor(req.network);
    const activeSink: NetworkSink | null = network.mode === 'sink' ? sink : null;
    const sinkStart = activeSink?.records.length ?? 0;
    const runId = `skillaudit-${process.pid}-${randomBytes(4).toString('hex')}`;
    const tracePath = join(traceDir, `${runId}.strace`);

    const before = await snapshotTrees(trees);
    const applied: LimitRecord[] = scratch ? [{ limit: 'disk', value: diskBytes, via: 'tmpfs' }] : [];
    const notApplied: { limit: string; reason: string }[] = scratch
      ? []
      : [{ limit: 'disk', reason: diskNote }];
    let cgroup: RunCgroup | null = null;
    if (root) {
      const outcome = await createRunCgroup(runId, limits.memoryBytes, limits.maxProcesses);
      if (outcome.cgroup) {
        cgroup = outcome.cgroup;
        applied.push(...cgroup.applied);
      } else notApplied.push({ limit: 'memory', reason: outcome.reason });
    } else notApplied.push({ limit: 'memory', reason: 'cgroups need root or a delegated subtree' });

    let liveRun: LiveRun | null = null;
    try {
      const command = buildCommand({
        req,
        limits,
        cwd,
        uid,
        root,
        tools,
        network: network.mode,
        cgroup,
        tracePath,
        home,
        tmp,
        etc,
        extra,
        identity,
        canarySet,
        sink: activeSink,
        readOnlyPaths: options.readOnlyPaths ?? [],
        applied,
        notApplied,
      });
      applied.push(
        { limit: 'wallMs', value: limits.wallMs, via: 'timer' },
        ...(tools.timeout
          ? [{ limit: 'wallMs' as const, value: limits.wallMs + WALL_BACKSTOP_MS, via: 'timeout' }]
          : []),
        { limit: 'maxOutputBytes', value: limits.maxOutputBytes, via: 'reader' },
      );

      liveRun = registerRun(cgroup?.procsFiles ?? []);
      const started = performance.now();
      const child = spawn(command.argv[0]!, command.argv.slice(1), {
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        detached: true,
        env: { PATH: '/usr/bin:/bin' },
        // The links of the chain (a shell among them) export their working folder as PWD: never a host path.
        cwd: '/',
      });
      liveRun.pid = child.pid ?? null;
      // bwrap's own arguments (environment with canaries included) go through a pipe, never argv.
      const argsPipe = child.stdio[ARGS_FD] as NodeJS.WritableStream | null;
      argsPipe?.on('error', () => undefined);
      argsPipe?.end(command.bwrapArgs);
      let killedFor: EvidenceBundle['killedFor'] = null;
      const stopAll = (reason: NonNullable<EvidenceBundle['killedFor']>) => {
        killedFor ??= reason;
        if (child.pid) killTree(child.pid);
        if (cgroup) void cgroup.members().then(killAll);
      };
      const stdout = new BoundedOutput(limits.maxOutputBytes, child.stdout, () => checkOutput());
      const stderr = new BoundedOutput(limits.maxOutputBytes, child.stderr, () => checkOutput());
      function checkOutput(): void {
        if (stdout.total + stderr.total > limits.maxOutputBytes * OUTPUT_KILL_FACTOR) stopAll('output');
      }
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(req.stdin ?? '');
      const wallTimer = setTimeout(() => stopAll('timeout'), limits.wallMs);
      const traceWatch = setInterval(() => {
        void stat(tracePath)
          .then((s) => (s.size > MAX_TRACE_BYTES ? stopAll('trace') : undefined))
          .catch(() => undefined);
      }, 250);
      const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
        child.once('error', () => resolve({ code: null, signal: null }));
        child.once('close', (code, signal) => resolve({ code, signal }));
      });
      clearTimeout(wallTimer);
      clearInterval(traceWatch);
      const wallMs = Math.round(performance.now() - started);
      // The backstop outside this process ended it (the event loop was too busy for the timer).
      if (killedFor === null && wallMs >= limits.wallMs) killedFor = 'timeout';
      // Nothing may outlive the run: sweep the tree and the cgroup until both are empty.
      if (child.pid) killTree(child.pid);
      if (cgroup) {
        for (let i = 0; i < 50; i++) {
          const left = (await cgroup.members()).filter(isAlive);
          if (left.length === 0) break;
          killAll(left);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      // Stopped for an interrupt or a shutdown: what it did so far is no verdict on the skill.
      if (liveRun.stopped) throw new SandboxStoppedError();
      const usage = cgroup ? await cgroup.usage() : { cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null };

      const parser = new StraceParser({
        sandboxExecutable: tools.bwrap,
        cwd,
        canaryPaths: canarySet?.paths ?? new Map(),
      });
      const trace = tools.strace ? await parseTraceFile(tracePath, parser) : null;
      if (trace && activeSink) settleSinkConnects(trace.attempts);
      await rm(tracePath, { force: true });
      await activeSink?.settle();
      const sinkRecords = activeSink ? activeSink.records.slice(sinkStart) : [];
      const after = await snapshotTrees(trees);
      const canaries = canarySet?.canaries ?? [];
      // The search of written files shares the run's wall-clock budget (at least a couple of seconds).
      const fs = await diffTrees(trees, before, after, canaries, {
        ...DEFAULT_CANARY_SCAN_LIMITS,
        budgetMs: Math.max(CANARY_SCAN_FLOOR_MS, limits.wallMs - wallMs),
      });

      const main = trace?.processes.find((p) => p.executable !== null);
      const exitCode = main?.exit
        ? main.exit.code
        : exit.signal
          ? null
          : exit.code !== null && exit.code > 128
            ? null
            : exit.code;
      const exitSignal = main?.exit ? main.exit.signal : (exit.signal ?? signalName(exit.code));
      const timedOut = killedFor === 'timeout';

      const evidence: EvidenceBundle = {
        version: 1,
        backend: 'bubblewrap',
        argv: req.argv,
        processes: trace?.processes ?? [],
        network: {
          requested: req.network ?? 'none',
          mode: network.mode,
          ...(network.note ? { note: network.note } : {}),
          attempts: trace?.attempts ?? [],
          dnsQueries: [
            ...(trace?.dnsQueries ?? []),
            ...sinkRecords
              .filter((r) => r.kind === 'dns' && r.host)
              .map((r) => ({ name: r.host!, type: r.queryType ?? 'A', source: 'sink' as const })),
          ],
          sink: sinkRecords.slice(0, 1000),
        },
        sensitiveReads: trace?.sensitiveReads ?? [],
        fsChanges: fs.changes,
        resources: { wallMs, ...usage },
        limits: { applied, notApplied },
        killedFor,
        capture: tools.strace
          ? { strace: true }
          : {
              strace: false,
              note: tracing
                ? 'strace not found: no process, network or file-open evidence'
                : 'tracing turned off by the caller',
            },
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        canaries,
        dropped: {
          processes: trace?.dropped.processes ?? 0,
          attempts: trace?.dropped.attempts ?? 0,
          sensitiveReads: trace?.dropped.sensitiveReads ?? 0,
          fsChanges: fs.dropped,
          sink: Math.max(0, sinkRecords.length - 1000),
        },
        canaryScan: fs.canaryScan,
      };
      return {
        exitCode: timedOut ? null : exitCode,
        signal: timedOut ? 'SIGKILL' : exitSignal,
        timedOut,
        stdout: evidence.stdout,
        stderr: evidence.stderr,
        stdoutTruncated: evidence.stdoutTruncated,
        stderrTruncated: evidence.stderrTruncated,
        wallMs,
        evidence,
      };
    } finally {
      // Also on an unexpected error: a run's cgroup never outlives it.
      if (liveRun) unregisterRun(liveRun);
      await cgroup?.remove();
    }
  }

  return {
    backend: 'bubblewrap',
    workspace,
    home,
    inner: INNER,
    run(req: RunRequest): Promise<RunResult> {
      // One run at a time: each run's fs diff and sink slice must belong to it alone.
      const result = queue.then(() => runOnce(req));
      queue = result.catch(() => undefined);
      return result;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await queue;
      await (sink as NetworkSink | null)?.close();
      if (scratch) await unmountScratch(base);
      forgetAtExit();
      removeTempDir(base);
      removeTempDir(traceDir);
    },
  };
}

function writeSeedFile(home: string, workspace: string, file: SeedFile): void {
  const inHome = file.path.startsWith('~/');
  const rel = posix.normalize(inHome ? file.path.slice(2) : file.path);
  if (rel.startsWith('..') || rel.startsWith('/') || rel === '.')
    throw new Error(`seed file path escapes the sandbox: ${file.path}`);
  const target = join(inHome ? home : workspace, rel);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  chmodSync(target, file.mode ?? 0o644);
}

interface CommandParts {
  req: RunRequest;
  limits: SandboxLimits;
  cwd: string;
  uid: number;
  root: boolean;
  tools: BubblewrapTools;
  network: EvidenceBundle['network']['mode'];
  cgroup: RunCgroup | null;
  tracePath: string;
  home: string;
  tmp: string;
  etc: string;
  extra: { inner: string; hostPath: string }[];
  identity: SyntheticEtc;
  canarySet: CanarySet | null;
  sink: NetworkSink | null;
  readOnlyPaths: string[];
  applied: LimitRecord[];
  notApplied: { limit: string; reason: string }[];
}

interface BuiltCommand {
  /** The process chain up to `bwrap --args 3`. */
  argv: string[];
  /** bwrap's arguments, NUL-separated, written to descriptor 3. */
  bwrapArgs: Buffer;
}

/**
 * strace → cgroup join → netns → `timeout` → drop to the sandbox uid → rlimits → bwrap → the command.
 * Each link dies with its parent (setpriv --pdeathsig, bwrap --die-with-parent), so a SkillAudit killed
 * with SIGKILL takes the whole tree with it.
 */
function buildCommand(p: CommandParts): BuiltCommand {
  const out: string[] = [];
  const dieWithParent = p.tools.pdeathsig ? [p.tools.setpriv!, '--pdeathsig', 'KILL', '--'] : [];
  if (p.tools.strace) {
    out.push(
      ...dieWithParent,
      p.tools.strace,
      '-f',
      '-q',
      '--seccomp-bpf',
      '--decode-pids=pidns',
      '-s',
      '1024',
      '-e',
      'signal=none',
    );
    out.push('-e', `trace=${STRACE_SYSCALLS}`, '-o', p.tracePath, '--');
  }
  if (p.cgroup) {
    // Join the run's cgroups before anything forks, then become the rest of the command line.
    const files = p.cgroup.procsFiles;
    out.push(
      p.tools.sh,
      '-c',
      'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"',
      'sh',
      String(files.length),
      ...files,
    );
  }
  if (p.sink) out.push(p.tools.nsenter!, `--net=${p.sink.netnsPath}`, '--');
  if (p.tools.timeout) {
    const seconds = (p.limits.wallMs + WALL_BACKSTOP_MS) / 1000;
    out.push(...dieWithParent, p.tools.timeout, '--signal=KILL', `${seconds}s`);
  }
  if (p.root)
    out.push(p.tools.setpriv!, '--reuid', String(p.uid), '--regid', String(p.uid), '--clear-groups', '--');
  if (p.tools.prlimit) {
    const { cpuSeconds, maxProcesses, maxFileBytes, maxOpenFiles } = p.limits;
    // With a pids cgroup per run, that is the process limit: RLIMIT_NPROC counts every process of the
    // sandbox uid on the host, so one run's fork bomb would starve every other run.
    const pidsCgroup = p.cgroup?.applied.some((a) => a.limit === 'pids') ?? false;
    out.push(
      p.tools.prlimit,
      `--cpu=${cpuSeconds}`,
      ...(pidsCgroup ? [] : [`--nproc=${maxProcesses}`]),
      `--fsize=${maxFileBytes}`,
      `--nofile=${maxOpenFiles}`,
    );
    p.applied.push(
      { limit: 'cpuSeconds', value: cpuSeconds, via: 'prlimit' },
      ...(pidsCgroup ? [] : [{ limit: 'maxProcesses' as const, value: maxProcesses, via: 'prlimit' }]),
      { limit: 'maxFileBytes', value: maxFileBytes, via: 'prlimit' },
      { limit: 'maxOpenFiles', value: maxOpenFiles, via: 'prlimit' },
    );
    if (!p.cgroup) {
      // Without a memory cgroup, bound the data segment (heap and private mappings) instead.
      out.push(`--data=${p.limits.memoryBytes}`);
      p.applied.push({ limit: 'memoryBytes', value: p.limits.memoryBytes, via: 'prlimit-data' });
    }
    out.push('--');
  } else
    p.notApplied.push({
      limit: 'cpuSeconds',
      reason: 'prlimit not found: no CPU, process, file-size or open-file limits',
    });
  out.push(p.tools.bwrap, '--args', String(ARGS_FD));

  const args: string[] = [
    '--unshare-all',
    '--unshare-user',
    '--uid',
    String(INNER_USER.uid),
    '--gid',
    String(INNER_USER.uid),
  ];
  if (p.tools.disableUserns) args.push('--disable-userns');
  if (p.network === 'sink') args.push('--share-net');
  // --as-pid-1: the command is pid 1, as in a container; bwrap's own command line as pid 1 would tell a
  // skill it runs under bubblewrap. It exits when the command does, as bwrap's reaper did.
  args.push(
    '--die-with-parent',
    '--new-session',
    '--as-pid-1',
    '--hostname',
    p.identity.hostname,
    '--clearenv',
  );
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: INNER.home,
    USER: INNER_USER.name,
    LOGNAME: INNER_USER.name,
    HOSTNAME: p.identity.hostname,
    LANG: 'C.UTF-8',
    TMPDIR: INNER.tmp,
    ...p.canarySet?.env,
    ...(p.sink?.caBundle ? TRUST_SINK_CA_ENV : {}),
    ...p.req.env,
  };
  for (const [key, value] of Object.entries(env)) args.push('--setenv', key, value);
  // The root is bwrap's own empty tmpfs: only what is listed here exists inside.
  args.push(...systemViewArgs(), ...p.identity.args, '--dev', '/dev', '--proc', '/proc');
  for (const dir of EMPTY_DIRS) args.push('--dir', dir);
  for (const w of p.extra) args.push('--bind', w.hostPath, w.inner);
  args.push('--bind', p.tmp, INNER.tmp, '--bind', p.home, INNER.home);
  // After the private folders, so a path under one of them is mounted on top (its mount point is made there).
  for (const path of [...interpreterPrefixes(), ...p.readOnlyPaths]) args.push('--ro-bind', path, path);
  args.push(
    '--ro-bind',
    join(p.etc, p.network === 'sink' ? 'resolv-sink.conf' : 'resolv-none.conf'),
    '/etc/resolv.conf',
  );
  if (p.sink?.caBundle && existsSync(SYSTEM_CA_BUNDLE)) {
    // Bound from the sandbox's own folder: mountinfo shows a bind's source path, and the sink's is named for it.
    const bundle = join(p.etc, 'ca-certificates.crt');
    if (!existsSync(bundle)) copyFileSync(p.sink.caBundle, bundle);
    args.push('--ro-bind', bundle, SYSTEM_CA_BUNDLE);
  }
  // Nothing may be written outside the bound writable folders, where the fs evidence would not see it.
  args.push('--remount-ro', '/', '--chdir', p.cwd);
  // bwrap takes the command itself only from its real command line.
  out.push('--', ...p.req.argv);
  return { argv: out, bwrapArgs: Buffer.from(args.map((a) => `${a}\0`).join('')) };
}
