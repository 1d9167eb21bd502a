import { describe, expect, it } from 'vitest';
import type { RuleInfo } from '../../../src/core/rule.js';
import type { Finding } from '../../../src/core/types.js';
import { toSarif } from '../../../src/report/sarif.js';
import { toScanJson } from '../../../src/report/scan-json.js';
import type { SkillScanResult } from '../../../src/scan/source/scan-source.js';
import { decide } from '../../../src/score/verdict.js';
import { sarifErrors } from '../../support/sarif-schema.js';

const rules: RuleInfo[] = [
  { id: 'code.env-harvest', pattern: 'E2', message: 'Environment harvested', help: 'Do not send env.' },
  { id: 'code.no-timeout', pattern: 'R2', message: 'No timeout', help: 'Add a timeout.' },
  { id: 'md.unused', pattern: 'P1', message: 'unused', help: 'unused' },
];

function finding(over: Partial<Finding>): Finding {
  return {
    id: 'abc123',
    pattern: 'E2',
    family: 'data_exfiltration',
    severity: 'high',
    confidence: 0.9,
    file: 'scripts/sync.py',
    line: 12,
    endLine: 14,
    evidence: 'requests.post(URL, json=dict(os.environ))',
    rule: 'code.env-harvest',
    message: 'Environment harvested',
    rationale: 'env flows to network',
    ...over,
  };
}

const results: SkillScanResult[] = [
  {
    path: 'skills/sync',
    name: 'sync',
    scan: {
      findings: [
        finding({}),
        finding({
          id: 'def',
          pattern: 'R2',
          severity: 'low',
          family: 'robustness',
          rule: 'code.no-timeout',
          line: 3,
          endLine: 3,
          suppressed: { by: 'baseline', reason: 'accepted' },
        }),
      ],
      safetyScore: 91.9,
      status: 'caution',
      decision: decide([]),
      notes: [],
    },
  },
  { path: 'skills/broken', name: null, error: { code: 'BINARY_SKILL_MD', message: 'SKILL.md is binary' } },
];

describe('SARIF output', () => {
  it('is a valid SARIF 2.1.0 log', () => {
    expect(sarifErrors(toSarif(results, rules))).toEqual([]);
  });

  it('describes a rule once when more than one detector applies it', () => {
    const log = toSarif(results, [...rules, ...rules]);
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules?.map((r) => r.id)).toEqual(['code.env-harvest', 'code.no-timeout']);
  });

  it('carries rule metadata, levels, locations and suppressions', () => {
    const log = toSarif(results, rules);
    const run = log.runs[0]!;
    expect(run.tool.driver.rules?.map((r) => r.id)).toEqual(['code.env-harvest', 'code.no-timeout']);
    expect(run.tool.driver.rules?.[0]?.properties?.['security-severity']).toBe('8.0');
    expect(run.tool.driver.rules?.[0]?.help?.text).toBe('Do not send env.');
    const [high, low] = run.results!;
    expect(high?.level).toBe('error');
    expect(high?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('skills/sync/scripts/sync.py');
    expect(high?.locations?.[0]?.physicalLocation?.region).toMatchObject({ startLine: 12, endLine: 14 });
    expect(low?.level).toBe('note');
    expect(low?.suppressions).toEqual([{ kind: 'external', justification: 'accepted' }]);
    expect(run.invocations?.[0]?.executionSuccessful).toBe(false);
  });

  it("carries each scanned skill's verdict and rating, and the command's exit code", () => {
    const log = toSarif(results, rules, 1);
    expect(sarifErrors(log)).toEqual([]);
    const run = log.runs[0]!;
    const scanned = results.filter((r) => r.scan);
    expect(run.properties?.skills).toEqual(
      scanned.map((r) => ({
        path: r.path,
        name: r.name,
        status: r.scan!.status,
        rating: r.scan!.decision.rating,
      })),
    );
    expect(run.invocations?.[0]?.exitCode).toBe(1);
  });

  it('the validator rejects a broken log (so the check above means something)', () => {
    const log = toSarif(results, rules) as unknown as { runs: { results: { level: string }[] }[] };
    log.runs[0]!.results[0]!.level = 'catastrophic';
    expect(sarifErrors(log).length).toBeGreaterThan(0);
  });

  it('a log with no findings is still valid', () => {
    expect(sarifErrors(toSarif([], rules))).toEqual([]);
  });
});

describe('scan JSON contract', () => {
  it('has exactly the contract keys', () => {
    const json = toScanJson(results);
    expect(json.version).toBe(1);
    expect(Object.keys(json.skills[0]!).sort()).toEqual([
      'because',
      'findings',
      'name',
      'path',
      'rating',
      'risk',
      'safetyScore',
      'status',
    ]);
    expect(json.skills[0]!.risk).toBeGreaterThanOrEqual(0);
    expect(json.skills[0]!.rating).toBe(results[0]!.scan!.decision.rating);
    expect(Object.keys(json.skills[1]!)).not.toContain('risk');
    expect(Object.keys(json.skills[0]!.findings[0]!).sort()).toEqual(
      ['confidence', 'endLine', 'evidence', 'file', 'line', 'message', 'pattern', 'rule', 'severity'].sort(),
    );
    expect(json.skills[0]!.findings[1]!.suppressed).toEqual({ by: 'baseline', reason: 'accepted' });
    expect(json.skills[1]).toMatchObject({
      path: 'skills/broken',
      status: null,
      error: 'BINARY_SKILL_MD: SKILL.md is binary',
    });
  });
});
