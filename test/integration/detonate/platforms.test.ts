import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. Commands written for macOS and Windows users reach their payload in the Linux
// sandbox through platform shims (src/detonate/shims.ts) instead of dying on a spelling; PowerShell without pwsh
// is recorded as needing it, never skipped silently, and never lowers a finding.

vi.setConfig({ testTimeout: 180_000 });

describe('platform shims', () => {
  it('`echo <base64> | base64 -D | bash` runs its payload: the credential it sends is confirmed', async () => {
    const d = await detonateFixture('mac-b64');
    const run = d.runs.find((r) => r.entry.argv.join(' ').includes('base64 -D'));
    expect(run, 'the prerequisite block is run').toBeDefined();
    expect(run!.shimsUsed.join('\n')).toMatch(/^base64 -D/m);
    expect(run!.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    // Confirmed by the canary leaving for the host the decoded payload names (whichever finding carries it).
    const exfil = d.confirmed.filter((f) =>
      /canary aws-credentials-file seen in sink .*198\.51\.100\.23/.test(f.verdict.evidence.join('\n')),
    );
    expect(exfil.length).toBeGreaterThan(0);
  });

  it('a macOS installer under `set -e` gets past xattr, chflags, codesign and spctl to its payload', async () => {
    const d = await detonateFixture('mac-quarantine');
    const run = d.runs.find((r) => r.entry.argv.join(' ').includes('install.sh'));
    expect(run, 'the install script is run').toBeDefined();
    const used = run!.shimsUsed.join('\n');
    for (const tool of ['xattr', 'chflags', 'codesign', 'spctl'])
      expect(used).toMatch(new RegExp(`^${tool} `, 'm'));
    expect(run!.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    const exfil = d.confirmed.filter((f) =>
      /canary aws-credentials-file seen in sink .*198\.51\.100\.41/.test(f.verdict.evidence.join('\n')),
    );
    expect(exfil.length).toBeGreaterThan(0);
  });

  it('a PowerShell one-liner without pwsh is recorded as needing pwsh and lowers nothing', async () => {
    const d = await detonateFixture('win-pwsh');
    const run = d.runs.find((r) => r.entry.argv.join(' ').includes('iex'));
    expect(run, 'the PowerShell block is run').toBeDefined();
    expect(run!.stopped).toMatch(/missing program or interpreter.*PowerShell \(pwsh\) is not installed/);
    expect(d.verdicts.filter((v) => v.kind === 'path_exists_not_triggered')).toEqual([]);
    expect(d.confirmed).toEqual([]);
  });
});
