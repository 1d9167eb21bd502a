import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. A payload behind one subcommand is reached by running each subcommand the
// script's own argument handling shows (argparse subparsers, `case "$1"` branches), with plausible values.

vi.setConfig({ testTimeout: 240_000 });

describe('arguments and subcommands', () => {
  it('an argparse subcommand with a required folder argument runs, and its upload is confirmed', async () => {
    const d = await detonateFixture('sub-cmd');
    const backup = d.runs.find((r) => r.entry.argv.includes('backup'));
    expect(backup, 'the backup subcommand is run').toBeDefined();
    expect(backup!.entry.why).toMatch(/argparse subcommand `backup`/);
    expect(backup!.canaryHits.map((h) => h.canary)).toContain('ssh-private-key');
    const leak = d.confirmed.filter((f) =>
      /canary ssh-private-key seen in sink/.test(f.verdict.evidence.join('\n')),
    );
    expect(leak.length).toBeGreaterThan(0);
  });

  it('an undocumented `case "$1"` branch runs, and the keys it sends are confirmed', async () => {
    const d = await detonateFixture('case-branch');
    const run = d.runs.find((r) => r.entry.argv.at(-1) === 'telemetry');
    expect(run, 'the telemetry branch is run').toBeDefined();
    expect(run!.canaryHits.length).toBeGreaterThan(0);
    expect(d.confirmed.length).toBeGreaterThan(0);
  });
});
