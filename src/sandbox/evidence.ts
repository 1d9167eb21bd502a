// EvidenceBundle (DESIGN section 3): what one sandboxed run did, as plain JSON-serialisable data.
// Every list is bounded; `dropped` counts what was left out so a reader knows the record is partial.
import type { BackendName, NetworkMode, SandboxLimits } from './types.js';

export interface ProcessRecord {
  /** Host pid (strace runs outside the sandbox). */
  pid: number;
  ppid: number | null;
  /** The program of the last successful execve, null for a fork that never exec'd. */
  executable: string | null;
  argv: string[];
  exit: { code: number | null; signal: string | null } | null;
}

export type NetworkProtocol = 'tcp' | 'udp' | 'unix' | 'unknown';

export interface NetworkAttempt {
  pid: number;
  syscall: string;
  family: string;
  /** IP address, or the socket path for AF_UNIX. */
  address: string;
  port: number | null;
  protocol: NetworkProtocol;
  /** True when the call failed (unreachable, refused): the destination was never reached. */
  blocked: boolean;
  error: string | null;
  /** First bytes sent (latin1), for sendto/sendmsg. */
  payload?: string;
}

export interface DnsQuery {
  name: string;
  type: string;
  /** 'strace' saw it leave the process; 'sink' received it. */
  source: 'strace' | 'sink';
  pid?: number;
}

export interface SinkRecord {
  kind: 'dns' | 'tcp';
  /** Original destination address and port (the sink accepts every address); for DNS over UDP, the sink's. */
  address: string;
  port: number;
  /** 'https' was decrypted with the sink's CA; 'tls' is a handshake the client refused (logged by SNI). */
  protocol: 'dns' | 'http' | 'https' | 'tls' | 'raw';
  /** DNS query name, HTTP Host header or TLS SNI. */
  host?: string;
  queryType?: string;
  method?: string;
  path?: string;
  /** Request line and headers (HTTP), bounded. */
  headers?: string;
  /** First bytes of the body (HTTP) or of the stream (raw), base64. */
  bodyBase64?: string;
  /** All bytes the client sent: request line, headers and body (HTTP), or the stream (raw). */
  bytes: number;
  /** HTTP: the body's length, the data a request carries beyond asking for something. */
  bodyBytes?: number;
  /** The sandbox's address on its link to the sink (which sandbox sent it). */
  client?: string;
}

export interface SensitiveRead {
  pid: number;
  argv: string[];
  path: string;
  /** Why the path is sensitive: the rule id from sensitive-paths.ts. */
  rule: string;
  /** Name of the canary planted at this path, when it is one. */
  canary: string | null;
  write: boolean;
  error: string | null;
}

export interface FileState {
  type: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  size: number;
  sha256: string | null;
}

export type FsRoot = 'workspace' | 'home' | 'tmp' | 'root' | 'var-tmp' | 'dev-shm';

export interface FsChange {
  root: FsRoot;
  /** Relative to the root. */
  path: string;
  change: 'created' | 'modified' | 'deleted' | 'mode';
  before: FileState | null;
  after: FileState | null;
  /** First bytes of a created or modified regular file (latin1), for canary and payload checks. */
  head?: string;
  /** Canary tokens (or their encodings) found anywhere in the new content. */
  canaryTokens?: string[];
}

export interface LimitRecord {
  limit: keyof SandboxLimits | 'memory' | 'pids' | 'disk';
  value: number;
  /** prlimit, cgroup-v1, cgroup-v2, tmpfs, docker, or the timer/reader in this process. */
  via: string;
}

export interface CanaryRef {
  name: string;
  /** 'env:NAME', 'home:.ssh/id_rsa' or 'workspace:.env'. */
  location: string;
  token: string;
}

export interface EvidenceBundle {
  version: 1;
  backend: BackendName;
  argv: string[];
  processes: ProcessRecord[];
  network: {
    requested: NetworkMode;
    /** What the run actually had: no network at all, loopback only, or the logging sink. */
    mode: 'none' | 'loopback-only' | 'sink';
    note?: string;
    attempts: NetworkAttempt[];
    dnsQueries: DnsQuery[];
    sink: SinkRecord[];
  };
  sensitiveReads: SensitiveRead[];
  fsChanges: FsChange[];
  resources: {
    wallMs: number;
    cpuUserMs: number | null;
    cpuSystemMs: number | null;
    maxRssBytes: number | null;
  };
  limits: { applied: LimitRecord[]; notApplied: { limit: string; reason: string }[] };
  /** Why the run was stopped early, if it was. */
  killedFor: 'timeout' | 'output' | 'trace' | null;
  capture: { strace: boolean; note?: string };
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  canaries: CanaryRef[];
  dropped: { processes: number; attempts: number; sensitiveReads: number; fsChanges: number; sink: number };
  /**
   * The bounded search of written files for canary tokens (canary-scan.ts): what it examined, what it had
   * to skip and why; a file it skipped may hold a secret nobody looked for.
   */
  canaryScan?: {
    filesScanned: number;
    bytesScanned: number;
    filesSkipped: number;
    stoppedFor: 'files' | 'bytes' | 'time' | null;
    ms: number;
  };
}

export const EVIDENCE_CAPS = {
  processes: 2_000,
  attempts: 2_000,
  sensitiveReads: 1_000,
  fsChanges: 2_000,
  sink: 1_000,
  payloadBytes: 4_096,
  headBytes: 4_096,
} as const;
