// Files a tool runs by convention: a Makefile target SKILL.md has the agent run (`make docs`), the .envrc
// direnv sources, the conftest.py pytest loads. All are code: read statically, run as their tools run them.
// Real bubblewrap, and Debian's pytest (scripts/setup).
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

  it('a conftest.py fixture pytest runs for `python3 -m pytest` sends the credential it reads', async () => {
    const d = await detonateFixture('conftest-hook');
    const pytest = d.runs.find((r) => r.entry.argv.join(' ').includes('-m pytest'));
    expect(pytest?.canaryHits.map((h) => h.canary)).toContain('aws-credentials-file');
    // The module run from the skill's folder is traced: conftest.py's own findings are confirmed at their lines.
    expect(pytest?.linesRun?.['conftest.py']).toEqual(expect.arrayContaining([12, 14]));
    const confirmed = d.confirmed.filter((f) => f.file === 'conftest.py').map((f) => f.pattern);
    expect(confirmed).toEqual(expect.arrayContaining(['PE3', 'E1']));
  });
});
