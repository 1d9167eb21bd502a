import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ALLOWED_HOSTS } from '../../../src/server/host-guard.js';
import { type RunningService, type ServiceConfig, startService } from '../../../src/server/service.js';

// Helpers for the web service tests: a bare git repository served as the mirror of
// https://github.com/acme/skills (this machine cannot reach github.com), and the CLI as a child process.

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const TOKEN = 'test-token-0123456789abcdef';
export const REPO_URL = 'https://github.com/acme/skills';

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    stdio: 'pipe',
  });

/**
 * Writes `files` (path → content; `@examples/<name>` copies that example folder) into a fresh repository and
 * serves it as `<root>/mirror/acme/skills.git`. Returns the mirror folder for --git-mirror.
 */
export function makeMirror(root: string, files: Record<string, string>): string {
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  git(work, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(files)) {
    const abs = join(work, path);
    if (content.startsWith('@examples/')) {
      cpSync(join(REPO_ROOT, content.slice(1)), abs, { recursive: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'skills');
  const mirror = join(root, 'mirror');
  mkdirSync(join(mirror, 'acme'), { recursive: true });
  git(root, 'clone', '-q', '--bare', work, join(mirror, 'acme', 'skills.git'));
  // Like GitHub, the mirror serves partial clones (the service's commit-only search for a short hash).
  git(join(mirror, 'acme', 'skills.git'), 'config', 'uploadpack.allowFilter', 'true');
  return mirror;
}

export function skillMd(name: string, body = '# Use\n\nAsk the agent.\n'): string {
  return `---\nname: ${name}\ndescription: Test skill ${name} for the web service.\n---\n${body}`;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code (or signal) once the process ended. */
  exited: Promise<number | string>;
}

/** Starts `skillaudit serve --port 0 …` from dist/ and waits for its `listening on` line. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  if (!existsSync(join(REPO_ROOT, 'dist', 'server', 'service.js'))) {
    throw new Error('dist/ has no server build: run `npm run build` before the service tests');
  }
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'skillaudit.js'), 'serve', '--port', '0', ...args],
    {
      env: { ...process.env, SKILLAUDIT_SERVER_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr, exited };
}

export interface AuditJson {
  id: string;
  status: string;
  stage?: string;
  attempts: number;
  finishedAt?: string;
  error?: { code: string; message: string };
  verdict?: { status: string; rating?: number; reason?: string; safetyScore: number; advice: string };
  contentHash?: string;
  [key: string]: unknown;
}

export async function submit(
  url: string,
  body: unknown,
  token: string | null = TOKEN,
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${url}/api/audits`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** The admin token's Authorization header: reading audits needs a token unless the service is --public. */
export const AUTH = { Authorization: `Bearer ${TOKEN}` };

export async function getAudit(url: string, id: string, token: string | null = TOKEN): Promise<AuditJson> {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  return (await (await fetch(`${url}/api/audits/${id}`, { headers })).json()) as AuditJson;
}

/** Polls an audit until `until` holds (default: it has ended). */
export async function waitFor(
  url: string,
  id: string,
  until: (a: AuditJson) => boolean = (a) => a.status === 'done' || a.status === 'failed',
  timeoutMs = 50_000,
  token: string | null = TOKEN,
): Promise<AuditJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const audit = await getAudit(url, id, token);
    if (until(audit)) return audit;
    if (Date.now() > deadline) throw new Error(`audit ${id} still ${audit.status} (${audit.stage ?? ''})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An in-process service on a free loopback port with the tests' token and no detonation, unless `overrides` say. */
export function startTestService(
  dataDir: string,
  overrides: Partial<ServiceConfig> = {},
): Promise<RunningService> {
  return startService({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    token: TOKEN,
    concurrency: 1,
    policy: { allowedHosts: new Set(DEFAULT_ALLOWED_HOSTS), allowPrivate: false, mirrors: [] },
    maxUploadBytes: 1024 * 1024,
    rateLimitPerMinute: 100,
    maxQueued: 10,
    limits: {},
    detonate: false,
    log: () => {},
    ...overrides,
  });
}
