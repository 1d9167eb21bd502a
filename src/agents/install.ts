// Harness installation: each pinned harness is installed once, on first use, into its own folder of a cache
// (`<agents dir>/<package>@<version>/`), never into the project's dependencies (they are large, native and
// only needed for model-backed audits). The sandbox hides HOME and /tmp, so a run binds the harness folder
// back in, read-only (harness-run.ts).
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { isVisibleInSandbox } from '../sandbox/index.js';
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

/** The bubblewrap sandbox shows only allowlisted system folders (src/sandbox/system-view.ts); others are bound in. */
export function isHiddenInSandbox(path: string): boolean {
  return !isVisibleInSandbox(path);
}

/** The machine-wide cache: shared by every user who can write to it (root, or a group an admin chose). */
export const SYSTEM_AGENTS_DIR = '/var/cache/skillaudit/agents';

/**
 * Where harnesses are installed, first match wins: `SKILLAUDIT_AGENTS_DIR`; the machine-wide cache when this
 * user can create or write it; `$XDG_CACHE_HOME/skillaudit/agents`; `~/.cache/skillaudit/agents`.
 */
export function agentsDir(
  env: Record<string, string | undefined> = process.env,
  systemDir = SYSTEM_AGENTS_DIR,
): string {
  if (env.SKILLAUDIT_AGENTS_DIR) return resolve(env.SKILLAUDIT_AGENTS_DIR);
  if (canWrite(systemDir)) return systemDir;
  return resolve(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'skillaudit', 'agents');
}

/** Whether `dir` can be written, or created: its nearest existing ancestor is a writable folder. */
function canWrite(dir: string): boolean {
  let at = resolve(dir);
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) return false;
    at = up;
  }
  try {
    if (!statSync(at).isDirectory()) return false;
    accessSync(at, constants.W_OK);
    return true;
  } catch {
    return false;
  }
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
