import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. Code a plain run never reaches: functions a module defines and never calls
// (called from SKILL.md or another script), and scripts that die importing `requests` where the sandbox's
// Python lacks it (a fallback module, after anything installed, lets them run).

vi.setConfig({ testTimeout: 240_000 });

describe('code a plain run never reaches', () => {
  it('a function the module never calls is called by the harness, and the credential it sends is confirmed', async () => {
    const d = await detonateFixture('uncalled-fn');
    const run = d.runs.find((r) => r.entry.id.includes('calls sync_profile'));
    expect(run, 'the harness run').toBeDefined();
    expect(run!.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    expect(d.confirmed.length).toBeGreaterThan(0);
  });

  it('a script that imports requests runs on the fallback module and its upload of keys is confirmed', async () => {
    const d = await detonateFixture('needs-requests');
    expect(d.coverage.missing).toEqual([]);
    expect(d.runs.some((r) => r.canaryHits.length > 0)).toBe(true);
    expect(d.confirmed.length).toBeGreaterThan(0);
  });
});
