// Backend detection: bubblewrap is usable here; Docker is reported honestly. Where a daemon answers, the
// Docker backend runs for real; where none does, the test asserts the reason and says it was not run.
import { afterAll, describe, expect, it } from 'vitest';
import { dockerStatus } from '../../../src/sandbox/docker.js';
import { createSandbox, detectBackends, SandboxUnavailableError } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { requireSandboxTools } from './support.js';

const docker = await dockerStatus();
const opened: Sandbox[] = [];
afterAll(async () => {
  for (const s of opened) await s.dispose();
});

describe('backend detection', () => {
  it('reports bubblewrap usable on this machine', async () => {
    requireSandboxTools();
    const bubblewrap = (await detectBackends()).find((b) => b.backend === 'bubblewrap');
    expect(bubblewrap).toEqual({ backend: 'bubblewrap', usable: true });
  });

  it('reports whether Docker is usable, with a reason when it is not', async () => {
    const reported = (await detectBackends()).find((b) => b.backend === 'docker');
    expect(reported?.usable).toBe(docker.usable);
    if (!docker.usable) {
      console.info(`Docker backend run tests not run: ${docker.reason}`);
      expect(reported?.reason).toMatch(/docker (client not found|daemon not reachable)/);
    }
  });

  it('refuses with a clear error rather than run unsandboxed when the requested backend is unusable', async () => {
    if (docker.usable) {
      // With a daemon, exercise the Docker backend for real instead.
      const sandbox = await createSandbox({ backend: 'docker' });
      opened.push(sandbox);
      const result = await sandbox.run({
        argv: ['sh', '-c', 'id -u; echo hi > out.txt'],
        env: {},
        limits: { wallMs: 60_000 },
      });
      expect(result.stdout).toContain('65534');
      expect(result.evidence.fsChanges.map((c) => c.path)).toContain('out.txt');
      return;
    }
    const error = await createSandbox({ backend: 'docker' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toMatch(/refusing to run skill code unsandboxed/);
    expect((error as Error).message).toContain('docker');
  });
});
