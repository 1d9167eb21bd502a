// A call to the API of the service a skill says it works with, made as its SKILL.md documents, is what the skill
// exists for: never a confirmed "undeclared destination".
import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

describe('a service the skill names', () => {
  it("declares the service's API hosts: a Firebase audit calling Google's identity API is not confirmed", async () => {
    const d = await detonateFixture('clean-firebase-audit');
    const contacted = d.runs.flatMap((r) => r.evidence.network.sink.map((s) => s.host ?? ''));
    expect(contacted.some((h) => h.endsWith('googleapis.com'))).toBe(true);
    expect(d.runtimeFindings.filter((f) => f.rule === 'runtime.undeclared-destination')).toEqual([]);
    expect(d.confirmed).toEqual([]);
  });
});
