import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { COMMIT_HASH } from '../util/commit-hash.js';
import { UserError } from '../util/errors.js';
import type { SourceSpec } from './source-spec.js';

// Shallow clones of a repository into a folder SkillAudit owns. Git never prompts, never runs hooks,
// never fetches submodules or LFS content, and only speaks the transports listed below; `file://` is
// allowed for local repositories only. Offline, a network URL fails fast with NETWORK_UNAVAILABLE.

type GitSpec = Extract<SourceSpec, { kind: 'git' }>;

const CLONE_TIMEOUT_MS = 120_000;
const DNS_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;
const NETWORK_ERROR =
  /could not resolve host|failed to connect|network is unreachable|connection timed out|connection refused|temporary failure in name resolution|could not read from remote repository/i;

interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function gitEnv(local: boolean): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes -o ConnectTimeout=15',
    GIT_ALLOW_PROTOCOL: local ? 'file' : 'https:http:ssh:git',
    GIT_LFS_SKIP_SMUDGE: '1',
  };
}

/** Config for every git SkillAudit runs: no hooks, no fsmonitor command, no submodules. */
export const SAFE_GIT_CONFIG: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'submodule.recurse=false',
];

function runGit(args: string[], local: boolean, cwd?: string, timeoutMs = CLONE_TIMEOUT_MS): Promise<GitRun> {
  const safety = [...SAFE_GIT_CONFIG];
  if (local) safety.push('-c', 'protocol.file.allow=always');
  return new Promise((done, fail) => {
    const child = spawn('git', [...safety, ...args], {
      cwd,
      env: gitEnv(local),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    // Keep only the tail of git's chatter: the last lines say what went wrong.
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-8192);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8192);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(new UserError('GIT_FAILED', `git could not be started (${error.message}); is git installed?`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? 'no message';
}

function failure(spec: GitSpec, run: GitRun, what: string): UserError {
  // git echoes URLs, tokens included; show only the redacted form.
  const said = lastLine(run.stderr).split(spec.url).join(spec.display);
  if (run.timedOut) {
    return new UserError(
      'GIT_FAILED',
      `${spec.display}: git ${what} took longer than ${CLONE_TIMEOUT_MS / 1000} s`,
    );
  }
  if (!spec.local && NETWORK_ERROR.test(run.stderr)) {
    return new UserError('NETWORK_UNAVAILABLE', `${spec.display}: cannot reach the repository (${said})`);
  }
  return new UserError('GIT_FAILED', `${spec.display}: git ${what} failed (${said})`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);
}

function canConnect(host: string, port: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect({ host, port });
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
    socket.once('connect', () => {
      socket.destroy();
      done();
    });
    socket.once('error', fail);
  });
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

/**
 * Offline, git can wait minutes on DNS or TCP; a quick lookup (and, for https without a proxy, a quick
 * connect) turns that into an immediate, clear NETWORK_UNAVAILABLE.
 */
async function checkReachable(spec: GitSpec): Promise<void> {
  if (spec.local || spec.host === null) return;
  const host = spec.host;
  const unavailable = (why: string) =>
    new UserError(
      'NETWORK_UNAVAILABLE',
      `${spec.display}: ${why}; the network is unavailable or the host is unknown`,
    );
  try {
    await withTimeout(lookup(host), DNS_TIMEOUT_MS);
  } catch (cause) {
    throw unavailable(
      `cannot resolve ${host} (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`,
    );
  }
  const https = /^https:\/\//i.test(spec.url);
  if (!https || PROXY_VARIABLES.some((name) => process.env[name])) return;
  const port = Number(new URL(spec.url).port) || 443;
  try {
    await canConnect(host, port);
  } catch (cause) {
    throw unavailable(
      `cannot connect to ${host}:${port} (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`,
    );
  }
}

export interface GitMirror {
  /** URL prefix as written in sources, e.g. https://github.com/ */
  from: string;
  /** Where git fetches it instead: a file:// URL (a local mirror) or another https URL. */
  to: string;
}

/** How clones reach remote hosts (the web service sets both; the CLI needs neither). */
export interface GitAccess {
  /** git's `url.<to>.insteadOf=<from>` rewrites: a mirrored URL's own host is never contacted. */
  mirrors?: readonly GitMirror[];
  /** Further `git -c name=value` settings, e.g. addresses a caller checked and pinned. */
  config?: readonly string[];
  /** The caller resolved, checked and pinned the host's addresses: no lookup or connect of our own. */
  addressesPinned?: boolean;
  /**
   * A commit is fetched at depth 1 or not at all: no fallback to the whole history (which a stranger's
   * nonexistent or abbreviated commit would otherwise cost us). Set for sources submitted to the service.
   */
  shallowOnly?: boolean;
}

type Git = (args: string[], cwd?: string, timeoutMs?: number) => Promise<GitRun>;

/** git with `access`'s settings for `spec`, and the URL to give it; checks the host is reachable first. */
async function gitFor(spec: GitSpec, access: GitAccess): Promise<{ git: Git; url: string }> {
  const mirror = spec.local ? undefined : access.mirrors?.find((m) => spec.url.startsWith(m.from));
  if (!mirror && !access.addressesPinned) await checkReachable(spec);
  const settings = [
    ...(access.config ?? []),
    ...(mirror ? [`url.${mirror.to}.insteadOf=${mirror.from}`] : []),
  ];
  // A file:// mirror needs the file transport that local clones use.
  const fileTransport = spec.local || /^file:\/\//i.test(mirror?.to ?? '');
  const git: Git = (args, cwd, timeoutMs) =>
    runGit([...settings.flatMap((s) => ['-c', s]), ...args], fileTransport, cwd, timeoutMs);
  const url = spec.local && !/^file:\/\//i.test(spec.url) ? `file://${resolve(spec.url)}` : spec.url;
  return { git, url };
}

// How far back a service looks for an abbreviated commit: the commits (no trees, no files) of the last 1,000
// of each branch and tag cost little; a stranger's abbreviation cannot make it fetch a whole history.
const ABBREVIATED_SEARCH_DEPTH = 1000;

/**
 * The full hash of an abbreviated commit. No server fetches an abbreviation, so the repository's commits alone
 * (a tree-less partial clone, beside `dest`) are fetched, the abbreviation is resolved there, and the caller
 * fetches that one commit at depth 1.
 */
async function expandCommit(
  spec: GitSpec,
  git: Git,
  url: string,
  ref: string,
  dest: string,
  access: GitAccess,
) {
  const commits = `${dest}.commits`;
  const depth = access.shallowOnly ? ['--depth', String(ABBREVIATED_SEARCH_DEPTH), '--no-single-branch'] : [];
  try {
    let run = await git(['clone', '-q', '--bare', '--filter=tree:0', ...depth, '--', url, commits]);
    if (run.code !== 0) throw failure(spec, run, `search for commit ${ref}`);
    run = await git(['rev-parse', '--verify', '-q', `${ref}^{commit}`], commits);
    if (run.code !== 0) {
      const where = access.shallowOnly
        ? `the last ${ABBREVIATED_SEARCH_DEPTH} commits of any branch or tag`
        : 'any branch or tag';
      throw new UserError(
        'GIT_FAILED',
        `${spec.display}: no single commit of ${where} starts with ${ref}; give the full hash`,
      );
    }
    return run.stdout.trim();
  } finally {
    await rm(commits, { recursive: true, force: true });
  }
}

/** Clones `spec` into `dest` (which must not exist yet) and returns the checked-out commit. */
export async function cloneRepository(spec: GitSpec, dest: string, access: GitAccess = {}): Promise<string> {
  const { git, url } = await gitFor(spec, access);
  const ref = spec.ref;
  const shallow = ['clone', '--depth', '1', '--no-tags', '--single-branch', '--no-recurse-submodules'];
  let run: GitRun;
  if (ref !== null && COMMIT_HASH.test(ref)) {
    // A commit is not a branch: fetch exactly that commit, or (unless shallowOnly) clone in full and check
    // it out (a server that refuses to send a commit by its hash).
    const commit = ref.length === 40 ? ref : await expandCommit(spec, git, url, ref, dest, access);
    run = await git(['init', '-q', dest]);
    if (run.code === 0) run = await git(['fetch', '-q', '--depth', '1', '--', url, commit], dest);
    if (run.code === 0) run = await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], dest);
    if (run.code !== 0 && !run.timedOut && !access.shallowOnly) {
      await git(['remote', 'add', 'origin', '--', url], dest);
      run = await git(['fetch', '-q', '--no-tags', 'origin'], dest);
      if (run.code === 0) run = await git(['checkout', '-q', '--detach', commit], dest);
    }
  } else {
    run = await git([...shallow, ...(ref ? ['--branch', ref] : []), '--', url, dest]);
  }
  if (run.code !== 0) throw failure(spec, run, ref ? `checkout of ${ref}` : 'clone');
  const head = await git(['rev-parse', 'HEAD'], dest);
  if (head.code !== 0) throw failure(spec, head, 'rev-parse');
  // The repository's metadata is ours, not the skill's: only the checked-out tree is loaded.
  await rm(join(dest, '.git'), { recursive: true, force: true });
  return head.stdout.trim();
}

const LS_REMOTE_TIMEOUT_MS = 15_000;

/**
 * The commit a branch or tag points at (a branch first, as `git clone --branch` chooses; an annotated tag's
 * commit), or the default branch's with a null ref; null when the repository has no such ref. One
 * `git ls-remote`: nothing is cloned.
 */
export async function resolveRemoteRef(spec: GitSpec, access: GitAccess = {}): Promise<string | null> {
  const { git, url } = await gitFor(spec, access);
  const ref = spec.ref;
  const names = ref === null ? ['HEAD'] : [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`];
  const run = await git(['ls-remote', '--', url, ...names], undefined, LS_REMOTE_TIMEOUT_MS);
  if (run.code !== 0) throw failure(spec, run, 'ls-remote');
  const found = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const [hash, name] = line.split('\t');
    if (hash && name && /^[0-9a-f]{40}$/i.test(hash)) found.set(name, hash.toLowerCase());
  }
  for (const name of names) {
    const hash = found.get(name);
    if (hash) return hash;
  }
  return null;
}
