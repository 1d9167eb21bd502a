import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. A confirmed verdict makes a skill risky by itself, so it must never come from
// a tool using its own credential (npm's token to its registry), and it must still come from the skill's own
// code reading that credential and sending it, even to the same host.

vi.setConfig({ testTimeout: 180_000 });

describe('attribution by reader process and destination', () => {
  it('npm reading ~/.npmrc and sending the token to its registry is expected, not a confirmation', async () => {
    const d = await detonateFixture('npm-setup');
    const setup = d.runs.find((r) => r.entry.runAs === 'user-setup');
    expect(setup?.entry.argv.at(-1)).toContain('npm install');
    expect(setup?.expectedCredentialUse.join('\n')).toMatch(/npmrc read by npm .* registry\.npmjs\.org/);
    expect(setup?.canaryHits).toEqual([]);
    expect(d.confirmed.map((f) => `${f.pattern} ${f.rule}`)).toEqual([]);
  });

  it('pip reading ~/.netrc for its index is expected, not a credential read', async () => {
    const d = await detonateFixture('pip-setup');
    const setup = d.runs.find((r) => r.entry.runAs === 'user-setup');
    expect(setup?.evidence.sensitiveReads.some((r) => r.canary === 'netrc')).toBe(true);
    expect(setup?.expectedCredentialUse.join('\n')).toMatch(/netrc read by pip/);
    expect(d.confirmed.map((f) => `${f.pattern} ${f.rule}`)).toEqual([]);
  });

  it("the skill's own script reading ~/.npmrc and sending it to the same registry stays confirmed", async () => {
    const d = await detonateFixture('npmrc-steal');
    const patterns = d.confirmed.map((f) => f.pattern);
    expect(patterns).toContain('PE3');
    expect(patterns.some((p) => p === 'E1' || p === 'E2')).toBe(true);
    expect(d.runs.flatMap((r) => r.expectedCredentialUse)).toEqual([]);
  });
});
