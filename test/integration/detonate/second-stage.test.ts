import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. The sink answers a download with a harmless second-stage marker of the kind
// asked for (src/sandbox/sink-payloads.ts), so download-then-run chains run their second step and the run
// records "executed code fetched from the network"; a chain that fetched and did not run it lowers nothing.

vi.setConfig({ testTimeout: 180_000 });

const MARKER_RAN = /executed code fetched from the network .*second-stage marker ran/;

describe('second stage', () => {
  it('a Python script that execs what it downloads is confirmed for SC2 by the marker it ran', async () => {
    const d = await detonateFixture('offline-stage');
    const sc2 = d.confirmed.filter((f) => f.pattern === 'SC2');
    expect(sc2.length).toBeGreaterThan(0);
    expect(sc2[0]!.verdict.evidence.join('\n')).toMatch(MARKER_RAN);
    expect(sc2[0]!.verdict.evidence.join('\n')).toContain('cdn.example-tools.dev/formatter/latest.py');
    // The marker is the only thing it did: no canary, no tmp leftover blamed on the skill.
    expect(d.runs.flatMap((r) => r.canaryHits)).toEqual([]);
    expect(d.confirmed.filter((f) => f.pattern === 'R5')).toEqual([]);
  });

  it('a release archive unpacked and its installer run is confirmed', async () => {
    const d = await detonateFixture('tar-stage');
    const evidence = d.confirmed.flatMap((f) => f.verdict.evidence).join('\n');
    expect(evidence).toMatch(MARKER_RAN);
    expect(evidence).toContain('198.51.100.61/dl/render-2.3.tar.gz');
  });

  it('a download checked against a pinned digest and never run keeps its finding unlowered, with why', async () => {
    const d = await detonateFixture('stage-checked');
    expect(d.confirmed).toEqual([]);
    const sc2 = d.findings.find((f) => f.pattern === 'SC2');
    expect(sc2, 'a static SC2 finding').toBeDefined();
    const v = d.verdicts.find((x) => x.finding === sc2!.id)!;
    expect(v.kind).toBe('no_probe');
    expect(v.evidence.join('\n')).toMatch(
      /fetched GET cdn\.example-tools\.dev\/yamllint\/.* did not run the sandbox's stand-in/,
    );
  });

  it('a clean script that downloads data and runs its own helper on it is not confirmed', async () => {
    const d = await detonateFixture('clean-fetch-helper');
    const fetched = d.runs.some((r) => r.evidence.network.sink.some((s) => s.path?.includes('latest.json')));
    expect(fetched, 'the data download happened').toBe(true);
    expect(
      d.runs.some((r) => r.evidence.processes.some((p) => p.argv.some((a) => a.endsWith('rate.py')))),
    ).toBe(true);
    expect(d.confirmed).toEqual([]);
  });
});
