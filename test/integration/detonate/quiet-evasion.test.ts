// Obfuscated code that does nothing in the sandbox (it acts only where a condition the sandbox lacks holds,
// as evasive stealers do) must not have its finding lowered by that quiet run.
import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

describe('a quiet run of hidden code', () => {
  it('keeps the obfuscation finding unsettled instead of lowering it', async () => {
    const d = await detonateFixture('quiet-b64');
    const sc3 = d.findings.filter((f) => f.pattern === 'SC3');
    expect(sc3.length).toBeGreaterThan(0);
    // The script did run to its end, quietly.
    expect(d.runs.some((r) => r.evidence.stdout.includes('ok') && r.stopped === null)).toBe(true);
    for (const f of sc3) {
      const v = d.verdicts.find((x) => x.finding === f.id)!;
      expect(v.kind).not.toBe('path_exists_not_triggered');
      expect(v.exploitConfidence).toBeGreaterThanOrEqual(0.6);
    }
  });
});
