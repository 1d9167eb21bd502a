// Harness installation: each pinned harness is installed once, on first use, into its own folder of a cache
// (`<agents dir>/<package>@<version>/`), never into the project's dependencies (they are large, native and
// only needed for model-backed audits). The folder must be visible inside the sandbox, which hides HOME.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage, UserError } from '../util/errors.js';

const execFileAsync = promisify(execFile);

export interface HarnessPackage {
  /** npm package name. */
  pkg: string;
  /** Exact version: harness output formats change between releases. */
  version: string;
  /** The executable, relative to the install prefix. */
  bin: string;
}

/** Host folders the bubblewrap sandbox replaces with empty private ones (src/sandbox/bubblewrap.ts). */
const HIDDEN_IN_SANDBOX = ['/root', '/home', '/run', '/var/tmp', '/tmp'];

export function isHiddenInSandbox(path: string): boolean {
  const abs = resolve(path);
  return HIDDEN_IN_SANDBOX.some((dir) => abs === dir || abs.startsWith(`${dir}/`));
}

/**
 * Where harnesses are installed: SKILLAUDIT_AGENTS_DIR, else a folder the sandbox can see: as root
 * /var/cache/skillaudit/agents; otherwise ~/.cache/skillaudit/agents (which the sandbox hides: see docs/agents.md).
 */
export function agentsDir(env: Record<string, string | undefined> = process.env): string {
  if (env.SKILLAUDIT_AGENTS_DIR) return resolve(env.SKILLAUDIT_AGENTS_DIR);
  if (process.getuid?.() === 0) return '/var/cache/skillaudit/agents';
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skillaudit', 'agents');
}

export function installFolder(p: HarnessPackage, dir = agentsDir()): string {
  return join(dir, `${p.pkg.replace('/', '+')}@${p.version}`);
}

const inFlight = new Map<string, Promise<string>>();

/** The harness's executable, installing the pinned package first when the cache lacks it. */
export function ensureHarness(p: HarnessPackage, dir = agentsDir()): Promise<string> {
  const folder = installFolder(p, dir);
  const bin = join(folder, p.bin);
  if (existsSync(bin)) return Promise.resolve(bin);
  let pending = inFlight.get(folder);
  if (!pending) {
    pending = install(p, folder, bin).finally(() => inFlight.delete(folder));
    inFlight.set(folder, pending);
  }
  return pending;
}

async function install(p: HarnessPackage, folder: string, bin: string): Promise<string> {
  if (isHiddenInSandbox(folder))
    throw new UserError(
      'USAGE',
      `the agents folder ${folder} is hidden inside the sandbox (it lies under ${HIDDEN_IN_SANDBOX.join(', ')}); ` +
        'set SKILLAUDIT_AGENTS_DIR to a folder outside them, e.g. /opt/skillaudit/agents',
    );
  // Install beside the final folder and rename: another process installing the same harness never sees half a tree.
  const staging = `${folder}.partial-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    await execFileAsync(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--loglevel=error',
        `${p.pkg}@${p.version}`,
      ],
      { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const stderr = ((error as { stderr?: string }).stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    throw new UserError(
      'NETWORK_UNAVAILABLE',
      `could not install ${p.pkg}@${p.version} into ${folder}: ${stderr || errorMessage(error)} ` +
        '(needs npm and the npm registry; or install it there yourself with ' +
        `npm install --prefix ${folder} ${p.pkg}@${p.version})`,
    );
  }
  if (!existsSync(join(staging, p.bin))) {
    rmSync(staging, { recursive: true, force: true });
    throw new UserError('NOT_FOUND', `${p.pkg}@${p.version} installed without its executable ${p.bin}`);
  }
  try {
    renameSync(staging, folder);
  } catch {
    // Someone else finished first: theirs is as good as ours.
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new UserError('NOT_FOUND', `harness executable missing: ${bin}`);
  return bin;
}
