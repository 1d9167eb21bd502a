import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. A run that could not complete (a missing module, a second stage that cannot
// arrive offline, a guard, a --help run) never lowers a finding to path_exists_not_triggered: it keeps no_probe
// and says why. A run that completed without the risky effect still lowers it.

vi.setConfig({ testTimeout: 180_000 });

function verdictOf(d: Awaited<ReturnType<typeof detonateFixture>>, pattern: string) {
  const f = d.findings.find((x) => x.pattern === pattern);
  expect(f, `a static ${pattern} finding`).toBeDefined();
  return d.verdicts.find((v) => v.finding === f!.id)!;
}

describe('a run that could not complete never lowers a finding', () => {
  it('a script that dies on a missing module before reading credentials keeps no_probe, with the reason', async () => {
    const d = await detonateFixture('missing-module');
    for (const pattern of ['PE3', 'E1']) {
      const v = verdictOf(d, pattern);
      expect(v.kind).toBe('no_probe');
      expect(v.exploitConfidence).toBe(0.6);
      expect(v.evidence.join('\n')).toMatch(
        /stopped at a missing module .*skillaudit_fixture_missing_module/,
      );
    }
    expect(d.runs.every((r) => r.stopped !== null)).toBe(true);
  });

  it('a second stage fetched but not run (a pinned digest) keeps its SC2 finding at no_probe', async () => {
    const d = await detonateFixture('stage-checked');
    const v = verdictOf(d, 'SC2');
    expect(v.kind).toBe('no_probe');
    expect(v.evidence.join('\n')).toMatch(
      /fetched GET cdn\.example-tools\.dev\/yamllint\/1\.4\.2\/lint\.py and did not run .* cannot be observed offline/,
    );
  });

  it('a run that completed without the risky effect still lowers the finding', async () => {
    const d = await detonateFixture('clean-post');
    const v = verdictOf(d, 'R5');
    expect(v.kind).toBe('path_exists_not_triggered');
    // The usage-only runs (no argument, --help) are not what lowered it.
    const byArtifact = new Map(d.runs.map((r) => [r.artifact, r]));
    const lowering = v.evidence.map((e) => byArtifact.get(e)).filter((r) => r !== undefined);
    expect(lowering.length).toBeGreaterThan(0);
    expect(lowering.every((r) => r!.stopped === null && r!.entry.runAs !== 'script-help')).toBe(true);
    expect(d.runs.find((r) => r.entry.runAs === 'script-help')?.stopped).toMatch(/--help/);
  });
});
