import { describe, expect, it } from 'vitest';
import { detonationCoverage } from '../../../src/detonate/coverage.js';

// The coverage headline counts what the run list shows: a run listed with exit code 0 that still stopped short
// of a clean end (a guard, a stand-in module) is said to be one, so "none ran to a clean end" never sits above
// runs listed with exit 0 without saying why.

function run(id: string, exitCode: number, stopped: string | null) {
  return {
    entry: { id, origin: { file: `scripts/${id}.sh` } },
    evidence: { stderr: '', stdout: '', processes: [] },
    exitCode,
    stopped,
    shimsUsed: [],
    instruments: { standIns: [], installsCut: [] },
  } as unknown as Parameters<typeof detonationCoverage>[0][number];
}

describe('coverage headline', () => {
  it('says how many runs exited 0 without a clean end', () => {
    const c = detonationCoverage(
      [run('a', 0, 'the run stopped at a guard (not configured)'), run('b', 0, null), run('c', 1, 'failed')],
      [],
      [],
    );
    expect(c.completed).toBe(1);
    expect(c.headline).toMatch(/^3 runs: 3 reached the skill's code, 1 ran to a clean end\./);
    expect(c.headline).toContain('1 run exited 0 but stopped short of a clean end');
  });

  it('says nothing of the kind when every run that exited 0 ended cleanly', () => {
    const c = detonationCoverage([run('a', 0, null), run('b', 2, 'failed')], [], []);
    expect(c.headline).not.toContain('exited 0');
  });
});
