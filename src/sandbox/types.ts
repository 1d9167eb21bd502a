// The sandbox contract every backend implements. Stages (detonate, run) talk only to these types.
import type { EvidenceBundle } from './evidence.js';

export interface SandboxLimits {
  /** Wall-clock budget of one run; the whole process tree is killed when it runs out. */
  wallMs: number;
  cpuSeconds: number;
  memoryBytes: number;
  maxProcesses: number;
  maxFileBytes: number;
  maxOpenFiles: number;
  /** Bytes of stdout and of stderr kept; a run that keeps printing far beyond this is killed. */
  maxOutputBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  wallMs: 30_000,
  cpuSeconds: 20,
  memoryBytes: 512 * 1024 * 1024,
  maxProcesses: 128,
  maxFileBytes: 64 * 1024 * 1024,
  maxOpenFiles: 256,
  maxOutputBytes: 1024 * 1024,
};

export type NetworkMode = 'none' | 'sink';

export interface RunRequest {
  argv: string[];
  /** The complete environment of the run: nothing is inherited from the host. */
  env: Record<string, string>;
  /** Working directory: relative to the workspace, or an absolute path inside the sandbox workspace. */
  cwd?: string;
  stdin?: string;
  limits?: Partial<SandboxLimits>;
  /** 'sink' routes all traffic to a logging sink when the host allows it; otherwise the run says why not. */
  network?: NetworkMode;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  wallMs: number;
  evidence: EvidenceBundle;
}

export type BackendName = 'bubblewrap' | 'docker';

/** Paths as the sandboxed process sees them. */
export interface SandboxInnerPaths {
  home: string;
  workspace: string;
  tmp: string;
}

/** Every backend lays the sandbox out the same way, so callers can plan paths before creating one. */
export const SANDBOX_INNER_PATHS: Readonly<SandboxInnerPaths> = Object.freeze({
  home: '/home/skill',
  workspace: '/home/skill/work',
  tmp: '/tmp',
});

export interface Sandbox {
  readonly backend: BackendName;
  /** Host path of the workspace (the sandbox's working tree, read-write inside). */
  readonly workspace: string;
  /** Host path of the sandbox HOME (seeded with canaries when asked). */
  readonly home: string;
  readonly inner: SandboxInnerPaths;
  run(req: RunRequest): Promise<RunResult>;
  dispose(): Promise<void>;
}

export interface SeedFile {
  /** Relative to the workspace; `~/` prefixes a path relative to HOME instead. */
  path: string;
  content: Buffer | string;
  mode?: number;
}

export interface CreateSandboxOptions {
  backend?: 'auto' | BackendName;
  seedCanaries?: boolean;
  /** With seedCanaries: more environment variables planted as canary secrets (a skill's own key names). */
  envCanaries?: readonly string[];
  files?: SeedFile[];
  /** bubblewrap as root: size of the tmpfs holding HOME, the workspace and /tmp (default 1 GiB). */
  diskBytes?: number;
  /** bubblewrap only: record processes, network attempts and file opens with strace (default true). */
  trace?: boolean;
  /** Docker only: the image runs are made in. */
  image?: string;
  /**
   * Absolute host folders shown inside at the same path, read-only, even under a folder the sandbox replaces
   * (/home, /tmp, ...): e.g. an agent harness installed in the user's cache. Nothing inside can write to them.
   */
  readOnlyPaths?: string[];
  /**
   * Host names the skill's own text and code reference (detonate/referenced-hosts.ts). With the sink, these must
   * resolve and be served even where unreferenced junk names get NXDOMAIN. Not read by the backends yet: the
   * sink's DNS policy (issue 17) is to use it.
   */
  knownHosts?: string[];
  /** With the network sink: the JSON body this sandbox's API calls are answered with (default a generic one). */
  apiAnswer?: string;
}

export interface BackendStatus {
  backend: BackendName;
  usable: boolean;
  reason?: string;
}
