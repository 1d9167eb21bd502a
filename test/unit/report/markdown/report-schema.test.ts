import { describe, expect, it } from 'vitest';
import { validateReport } from '../../../../src/report/schema.js';
import { REPORT_FIXTURES, riskyReport } from '../../../support/report-fixtures.js';

describe('report JSON schema', () => {
  for (const [name, make] of Object.entries(REPORT_FIXTURES)) {
    it(`accepts the ${name} fixture after a JSON round trip`, () => {
      expect(validateReport(JSON.parse(JSON.stringify(make())))).toEqual([]);
    });
  }

  it('rejects a report with a wrong version, a bad enum and a missing section', () => {
    const report = JSON.parse(JSON.stringify(riskyReport())) as Record<string, unknown>;
    report.version = 1;
    (report.verdict as Record<string, unknown>).status = 'probably fine';
    delete report.notRun;
    const errors = validateReport(report);
    expect(errors).toContain('/version must be equal to constant');
    expect(errors.some((e) => e.startsWith('/verdict/status must be equal to one of'))).toBe(true);
    expect(errors).toContain("/ must have required property 'notRun'");
  });

  it('rejects out-of-range numbers, unknown keys and a malformed timestamp', () => {
    const report = JSON.parse(JSON.stringify(riskyReport())) as ReturnType<typeof riskyReport>;
    report.safety.score = 140;
    report.safety.findings[0]!.confidence = 1.5;
    (report.safety.findings[0] as unknown as Record<string, unknown>).extra = true;
    report.generatedAt = 'yesterday';
    const errors = validateReport(report);
    expect(errors).toContain('/safety/score must be <= 100');
    expect(errors).toContain('/safety/findings/0/confidence must be <= 1');
    expect(errors).toContain('/safety/findings/0 must NOT have additional properties');
    expect(errors).toContain('/generatedAt must match format "date-time"');
  });

  it('rejects a non-object', () => {
    expect(validateReport('report')).toEqual(['/ must be object']);
  });
});
