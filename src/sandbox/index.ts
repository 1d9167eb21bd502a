// Entry point of the sandbox layer: pick a usable backend (never fall back to running unsandboxed).
import { execFile } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { promisify } from 'node:util';
import { bubblewrapTools, createBubblewrapSandbox } from './bubblewrap.js';
import { createDockerSandbox, dockerStatus } from './docker.js';
import { isRoot } from './host-tools.js';
import type { BackendName, BackendStatus, CreateSandboxOptions, Sandbox } from './types.js';

export type { CanaryHit, CanaryHitKind, CanaryHitOptions } from './canaries.js';
export { findCanaryHits } from './canaries.js';
export type * from './evidence.js';
export { SandboxStoppedError, STOP_GRACE_MS, stopSandboxRuns } from './live-runs.js';
export { isVisibleInSandbox } from './system-view.js';
export type * from './types.js';
export { DEFAULT_SANDBOX_LIMITS, SANDBOX_INNER_PATHS } from './types.js';

const run = promisify(execFile);

/** Whether bubblewrap can actually create its namespaces here (a container may forbid user namespaces). */
async function bubblewrapStatus(): Promise<BackendStatus> {
  if (process.platform !== 'linux')
    return { backend: 'bubblewrap', usable: false, reason: 'bubblewrap needs Linux' };
  const tools = bubblewrapTools();
  if ('missing' in tools) return { backend: 'bubblewrap', usable: false, reason: tools.missing };
  const probe = [
    '--unshare-all',
    '--unshare-user',
    '--die-with-parent',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '/bin/true',
  ];
  const command = isRoot() ? tools.setpriv! : tools.bwrap;
  const args = isRoot()
    ? ['--reuid', '65534', '--regid', '65534', '--clear-groups', '--', tools.bwrap, ...probe]
    : probe;
  try {
    await run(command, args, { timeout: 10_000 });
  } catch (error) {
    const detail = ((error as { stderr?: string }).stderr ?? '').trim().split('\n')[0] ?? '';
    return {
      backend: 'bubblewrap',
      usable: false,
      reason: `bwrap cannot create a sandbox here: ${detail || 'failed'}`,
    };
  }
  if (!tools.strace)
    return {
      backend: 'bubblewrap',
      usable: true,
      reason: 'strace not found: runs will carry no process or network evidence',
    };
  return { backend: 'bubblewrap', usable: true };
}

/** Thrown when no backend can run code here: SkillAudit never runs a skill's code unsandboxed. */
export class SandboxUnavailableError extends Error {
  readonly code = 'SANDBOX_UNAVAILABLE';
  constructor(readonly statuses: BackendStatus[]) {
    super(
      `no usable sandbox backend (${statuses.map((s) => `${s.backend}: ${s.reason ?? 'unusable'}`).join('; ')}); refusing to run skill code unsandboxed`,
    );
    this.name = 'SandboxUnavailableError';
  }
}

const STATUS: Record<BackendName, () => Promise<BackendStatus>> = {
  bubblewrap: bubblewrapStatus,
  docker: async () => ({ backend: 'docker', ...(await dockerStatus()) }),
};

export async function detectBackends(): Promise<BackendStatus[]> {
  return [await STATUS.bubblewrap(), await STATUS.docker()];
}

/** A sandbox on the requested backend; 'auto' prefers bubblewrap and asks Docker only when it is unusable. */
export async function createSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  const wanted = options.backend ?? 'auto';
  for (const path of options.readOnlyPaths ?? [])
    if (!isAbsolute(path)) throw new Error(`readOnlyPaths must be absolute: ${path}`);
  const order: BackendName[] = wanted === 'auto' ? ['bubblewrap', 'docker'] : [wanted];
  const tried: BackendStatus[] = [];
  for (const backend of order) {
    const status = await STATUS[backend]();
    tried.push(status);
    if (!status.usable) continue;
    if (backend === 'docker') return createDockerSandbox(options);
    const tools = bubblewrapTools();
    if (!('missing' in tools)) return createBubblewrapSandbox(options, tools);
  }
  throw new SandboxUnavailableError(tried);
}
