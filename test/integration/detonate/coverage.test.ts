import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runAudit } from '../../../src/pipeline/audit.js';
import { renderReportMarkdown } from '../../../src/report/markdown.js';
import { validateReport } from '../../../src/report/schema.js';

// Real bubblewrap + strace + sink, through the audit. Coverage is reported, not implied: detonation.json and the
// report say how many runs reached the skill's code, which died on a missing dependency (and which), and what
// the run budget left out; a section whose runs all died says so in its headline. Re-auditing resumes in the same folder and keeps the earlier evidence.

const FIXTURES = new URL('../../fixtures/detonate/', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'skillaudit-coverage-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
vi.setConfig({ testTimeout: 240_000 });

describe('detonation coverage', () => {
  it('runs that all died on a missing module say so in the headline, detonation.json and the report', async () => {
    const [first] = await runAudit(join(FIXTURES, 'missing-module'), { out });
    const report = first!.report!;
    expect(validateReport(report)).toEqual([]);
    const cov = report.runtime!.coverage!;
    expect(cov.missing).toContainEqual(
      expect.objectContaining({ kind: 'module', name: 'skillaudit_fixture_missing_module' }),
    );
    expect(cov.completed).toBe(0);
    expect(cov.headline).toMatch(
      /^No run reached the skill's code: .*module skillaudit_fixture_missing_module/,
    );
    expect(renderReportMarkdown(report)).toContain(`**Coverage:** No run reached the skill's code`);
    const onDisk = JSON.parse(readFileSync(join(first!.runDir!, 'detonation.json'), 'utf8'));
    expect(onDisk.coverage.headline).toBe(cov.headline);

    // The same content again: a new run folder, and the first one's evidence is still there.
    const [second] = await runAudit(join(FIXTURES, 'missing-module'), { out });
    // The same folder (a re-audit resumes there), with the earlier audit's evidence kept under previous/1/.
    expect(second!.runDir).toBe(first!.runDir);
    const kept = join(first!.runDir!, 'previous', '1');
    expect(readdirSync(join(kept, 'evidence')).length).toBe(onDisk.runs.length);
    expect(JSON.parse(readFileSync(join(kept, 'detonation.json'), 'utf8')).runs.length).toBe(
      onDisk.runs.length,
    );
  });

  it('entry points over the run budget and the scripts they leave out are listed', async () => {
    const [outcome] = await runAudit(join(FIXTURES, 'sub-cmd'), { out, detonation: { maxRuns: 2 } });
    const cov = outcome!.report!.runtime!.coverage!;
    expect(cov.runs).toBe(2);
    expect(cov.overBudget.length).toBeGreaterThan(0);
    expect(cov.overBudget.some((e) => e.includes('backup'))).toBe(true);
    expect(cov.headline).toMatch(/entry points? left out by the run budget/);
  });
});
