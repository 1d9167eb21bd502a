// Files a tool runs by convention: a Makefile target SKILL.md has the agent run (`make docs`), and the .envrc
// direnv sources. Both are code: read statically as shell, run as their tools run them. Real bubblewrap.
import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

describe('files a tool runs by convention', () => {
  it("a Makefile target's upload of a credential is found at its line and confirmed", async () => {
    const d = await detonateFixture('make-target');
    const confirmed = d.confirmed.filter((f) => f.file === 'Makefile').map((f) => `${f.pattern}:${f.line}`);
    expect(confirmed).toEqual(expect.arrayContaining(['PE3:4', 'E1:4']));
  });

  it('a send .envrc puts in the background is never lowered by the run ending first', async () => {
    const d = await detonateFixture('make-target');
    const envrc = d.findings.filter((f) => f.file === '.envrc' && f.rule.startsWith('code.'));
    expect(envrc.length).toBeGreaterThan(0);
    for (const f of envrc)
      expect(d.verdicts.find((v) => v.finding === f.id)?.kind).not.toBe('path_exists_not_triggered');
  });
});
