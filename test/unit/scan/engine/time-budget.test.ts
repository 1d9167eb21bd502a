import { describe, expect, it } from 'vitest';
import { SKILL_BUDGET_MS } from '../../../../src/scan/engine/budget.js';
import { scanSkill } from '../../../../src/scan/engine/scan.js';
import type { Detector } from '../../../../src/scan/rule.js';
import { makeSkill } from '../prose/make-skill.js';
import { testRule } from './test-rule.js';

// The per-skill time budget: once a skill's detectors have taken it, the rest are skipped and the scan says
// which files they missed, so one pathological skill cannot stall a corpus.

/** A detector, written here, that takes `ms` of wall time on a.py (none elsewhere) and reports one hit per file. */
function slowDetector(ms: number): Detector {
  return {
    name: 'slow',
    rules: [testRule('test.slow', 'E1', 'slow')],
    appliesTo: (f) => f.language === 'python',
    detect: (ctx) => {
      const until = performance.now() + (ctx.file.path === 'scripts/a.py' ? ms : 0);
      while (performance.now() < until) {
        // busy: a detector stuck on its input
      }
      return [
        { rule: 'test.slow', line: 1, endLine: 1, evidence: ctx.file.path, confidence: 0.9, rationale: 'r' },
      ];
    },
  };
}

const files = {
  'SKILL.md': '# x\n',
  'scripts/a.py': 'a = 1\n',
  'scripts/b.py': 'b = 1\n',
  'scripts/c.py': 'c = 1\n',
};

describe('scan time budget', () => {
  it('skips the detectors left once the budget is spent and names the files they did not read', async () => {
    const scan = await scanSkill(makeSkill(files), { detectors: [slowDetector(1000)], budgetMs: 500 });
    // a.py starts within the budget and is not interrupted (the check comes before each detector); the
    // budget is spent when it ends, so b.py and c.py are not read.
    expect(scan.findings.map((f) => f.file)).toEqual(['scripts/a.py']);
    expect(scan.notes).toEqual([
      "incomplete analysis: the scan's time budget (0.5 s) was spent; scripts/b.py was not read by slow",
      "incomplete analysis: the scan's time budget (0.5 s) was spent; scripts/c.py was not read by slow",
    ]);
  });

  it('leaves a scan within the budget complete and silent', async () => {
    const scan = await scanSkill(makeSkill(files), { detectors: [slowDetector(1)] });
    expect(SKILL_BUDGET_MS).toBeGreaterThanOrEqual(10_000);
    expect(scan.findings).toHaveLength(3);
    expect(scan.notes).toEqual([]);
  });
});
