// Crash cleanup: namespaces and cgroups named for a SkillAudit process that no longer exists are removed on start.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeStaleNamespaces } from '../../../src/sandbox/network-sink.js';
import { requireSandboxTools } from './support.js';

beforeAll(() => requireSandboxTools());

/** A pid that is certainly not running: past the kernel's pid_max. */
function deadPid(): number {
  return 4_194_304 + 1;
}

describe('stale network namespace cleanup', () => {
  it('removes namespaces whose owning process is gone and keeps live ones', async () => {
    // Another SkillAudit process, alive and busy: its namespace must survive this one's start.
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' });
    const stale = `skau-${deadPid()}-abc123-box`;
    const live = `skau-${owner.pid}-def456-box`;
    const foreign = 'other-tool-netns-test';
    for (const name of [stale, live, foreign]) execFileSync('ip', ['netns', 'add', name]);
    // The kernel remakes a /proc entry's inode, with fresh times, once its cache is dropped: a live owner's entry
    // is then newer than its namespace, which once had that namespace deleted under a running sandbox.
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync('/proc/sys/vm/drop_caches', '2');
    return removeStaleNamespaces()
      .then((removed) => {
        expect(removed).toContain(stale);
        expect(existsSync(`/run/netns/${stale}`)).toBe(false);
        expect(existsSync(`/run/netns/${live}`)).toBe(true);
        expect(existsSync(`/run/netns/${foreign}`)).toBe(true);
      })
      .finally(() => {
        owner.kill('SIGKILL');
        for (const name of [stale, live, foreign]) {
          try {
            execFileSync('ip', ['netns', 'delete', name], { stdio: 'ignore' });
          } catch {
            // Already removed.
          }
        }
      });
  });
});

describe('stale cgroup cleanup', () => {
  it('removes run groups whose owning process is gone', async () => {
    const { createRunCgroup, removeStaleCgroups } = await import('../../../src/sandbox/cgroup.js');
    const name = `skillaudit-${deadPid()}-0badc0de`;
    const made = await createRunCgroup(name, 64 * 1024 * 1024, 16);
    expect(made.cgroup).not.toBeNull();
    const removed = await removeStaleCgroups();
    expect(removed.some((dir) => dir.endsWith(`/${name}`))).toBe(true);
    expect(await made.cgroup!.members()).toEqual([]);
  });
});
