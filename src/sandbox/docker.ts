// The Docker backend, for users with a daemon: no network, read-only root, tmpfs scratch space, memory,
// pids and CPU limits, a non-root user, no capabilities. Evidence is the fs diff and output only: strace
// cannot follow a process the daemon starts, and the evidence says so.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { makeTempDir, removeTempDir } from '../util/tempdir.js';
import { type CanarySet, seedCanaries } from './canaries.js';
import type { EvidenceBundle } from './evidence.js';
import { findTool } from './host-tools.js';
import { BoundedOutput } from './output-capture.js';
import { checkRunRequest } from './request-check.js';
import {
  type CreateSandboxOptions,
  DEFAULT_SANDBOX_LIMITS,
  type RunRequest,
  type RunResult,
  SANDBOX_INNER_PATHS,
  type Sandbox,
  type SandboxLimits,
} from './types.js';
import { diffTrees, snapshotTrees, type WritableTree } from './writable-trees.js';

const run = promisify(execFile);
const INNER = SANDBOX_INNER_PATHS;
export const DEFAULT_DOCKER_IMAGE = 'debian:bookworm-slim';

/** Whether a Docker daemon answers, and why not when it does not. */
export async function dockerStatus(): Promise<{ usable: boolean; reason?: string }> {
  const docker = findTool('docker');
  if (!docker) return { usable: false, reason: 'docker client not found' };
  try {
    await run(docker, ['info', '--format', '{{.ServerVersion}}'], { timeout: 10_000 });
    return { usable: true };
  } catch (error) {
    const detail = ((error as { stderr?: string }).stderr ?? '').trim().split('\n')[0] ?? '';
    return {
      usable: false,
      reason: `docker daemon not reachable (docker info failed${detail ? `: ${detail}` : ''})`,
    };
  }
}

export async function createDockerSandbox(options: CreateSandboxOptions): Promise<Sandbox> {
  const docker = findTool('docker');
  if (!docker) throw new Error('docker client not found');
  const image = options.image ?? DEFAULT_DOCKER_IMAGE;
  const base = makeTempDir('docker');
  const home = join(base, 'home');
  const workspace = join(home, 'work');
  mkdirSync(workspace, { recursive: true });
  chmodSync(base, 0o711);
  let canarySet: CanarySet | null = null;
  if (options.seedCanaries) {
    canarySet = await seedCanaries({
      hostHome: home,
      hostWorkspace: workspace,
      innerHome: INNER.home,
      innerWorkspace: INNER.workspace,
      extraEnv: options.envCanaries ?? [],
    });
  }
  for (const file of options.files ?? []) {
    const inHome = file.path.startsWith('~/');
    const rel = posix.normalize(inHome ? file.path.slice(2) : file.path);
    if (rel.startsWith('..') || rel.startsWith('/'))
      throw new Error(`seed file path escapes the sandbox: ${file.path}`);
    const target = join(inHome ? home : workspace, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content, { mode: file.mode ?? 0o644 });
  }
  await run('chown', ['-R', '65534:65534', home]).catch(() => undefined);
  const trees: WritableTree[] = [
    { name: 'workspace', hostPath: workspace },
    { name: 'home', hostPath: home, exclude: new Set(['work']) },
  ];
  let queue: Promise<unknown> = Promise.resolve();

  async function runOnce(req: RunRequest): Promise<RunResult> {
    checkRunRequest(req);
    const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...req.limits };
    const name = `skillaudit-${process.pid}-${randomBytes(4).toString('hex')}`;
    const env = { HOME: INNER.home, PATH: '/usr/local/bin:/usr/bin:/bin', ...canarySet?.env, ...req.env };
    const cwd = req.cwd
      ? req.cwd.startsWith('/')
        ? req.cwd
        : posix.join(INNER.workspace, req.cwd)
      : INNER.workspace;
    const args = [
      'run',
      '--rm',
      '-i',
      '--name',
      name,
      '--network',
      'none',
      '--read-only',
      '--user',
      '65534:65534',
    ];
    args.push(
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      '/var/tmp',
    );
    args.push(
      '--memory',
      String(limits.memoryBytes),
      '--memory-swap',
      String(limits.memoryBytes),
      '--pids-limit',
      String(limits.maxProcesses),
    );
    args.push(
      '--ulimit',
      `cpu=${limits.cpuSeconds}`,
      '--ulimit',
      `fsize=${limits.maxFileBytes}`,
      '--ulimit',
      `nofile=${limits.maxOpenFiles}`,
    );
    args.push('-v', `${home}:${INNER.home}`, '-w', cwd);
    for (const path of options.readOnlyPaths ?? []) args.push('-v', `${path}:${path}:ro`);
    for (const [key, value] of Object.entries(env)) args.push('-e', `${key}=${value}`);
    args.push(image, ...req.argv);

    const before = await snapshotTrees(trees);
    const started = performance.now();
    const child = spawn(docker!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let killedFor: EvidenceBundle['killedFor'] = null;
    const stop = (reason: NonNullable<EvidenceBundle['killedFor']>) => {
      killedFor ??= reason;
      void run(docker!, ['kill', name]).catch(() => undefined);
    };
    const stdout = new BoundedOutput(limits.maxOutputBytes, child.stdout, () => check());
    const stderr = new BoundedOutput(limits.maxOutputBytes, child.stderr, () => check());
    function check(): void {
      if (stdout.total + stderr.total > limits.maxOutputBytes * 8) stop('output');
    }
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(req.stdin ?? '');
    const timer = setTimeout(() => stop('timeout'), limits.wallMs);
    const exit = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    });
    clearTimeout(timer);
    const wallMs = Math.round(performance.now() - started);
    const after = await snapshotTrees(trees, before);
    const canaries = canarySet?.canaries ?? [];
    const fs = await diffTrees(trees, before, after, canaries);
    const timedOut = killedFor === 'timeout';
    const evidence: EvidenceBundle = {
      version: 1,
      backend: 'docker',
      argv: req.argv,
      processes: [],
      network: {
        requested: req.network ?? 'none',
        mode: 'none',
        note: req.network === 'sink' ? 'the Docker backend has no network sink; --network none' : undefined,
        attempts: [],
        dnsQueries: [],
        sink: [],
      },
      sensitiveReads: [],
      fsChanges: fs.changes,
      resources: { wallMs, cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null },
      limits: {
        applied: [
          { limit: 'memoryBytes', value: limits.memoryBytes, via: 'docker' },
          { limit: 'maxProcesses', value: limits.maxProcesses, via: 'docker' },
          { limit: 'cpuSeconds', value: limits.cpuSeconds, via: 'docker' },
          { limit: 'maxFileBytes', value: limits.maxFileBytes, via: 'docker' },
          { limit: 'maxOpenFiles', value: limits.maxOpenFiles, via: 'docker' },
          { limit: 'wallMs', value: limits.wallMs, via: 'timer' },
        ],
        notApplied: [],
      },
      killedFor,
      capture: { strace: false, note: 'Docker backend: no process, network or file-open trace' },
      stdout: stdout.text(),
      stderr: stderr.text(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      canaries,
      dropped: { processes: 0, attempts: 0, sensitiveReads: 0, fsChanges: fs.dropped, sink: 0 },
      canaryScan: fs.canaryScan,
    };
    const signal = exit !== null && exit > 128 ? `SIG${exit - 128}` : null;
    return {
      exitCode: timedOut || signal ? null : exit,
      signal: timedOut ? 'SIGKILL' : signal,
      timedOut,
      stdout: evidence.stdout,
      stderr: evidence.stderr,
      stdoutTruncated: evidence.stdoutTruncated,
      stderrTruncated: evidence.stderrTruncated,
      wallMs,
      evidence,
    };
  }

  return {
    backend: 'docker',
    workspace,
    home,
    inner: INNER,
    run(req) {
      const result = queue.then(() => runOnce(req));
      queue = result.catch(() => undefined);
      return result;
    },
    async dispose() {
      await queue;
      removeTempDir(base);
    },
  };
}
