import { describe, expect, it } from 'vitest';
import { orderFindings } from '../../../src/core/format.js';
import type { Finding, Verdict } from '../../../src/core/types.js';
import type { DetonationResult } from '../../../src/detonate/index.js';
import { buildReport } from '../../../src/report/build.js';
import { decide } from '../../../src/score/verdict.js';
import { makeSkill } from '../scan/prose/make-skill.js';

// The verdict's first reason says why the status is what it is; a pass that weighed findings says so instead of
// reading like a verdict against the skill.

function finding(confidence: number): Finding {
  return {
    id: `f${confidence}`,
    pattern: 'PE1',
    family: 'privilege_escalation',
    severity: 'low',
    confidence,
    file: 'SKILL.md',
    line: 4,
    endLine: 4,
    evidence: 'allowed-tools: Bash',
    rule: 'fm.allowed-tools-broad',
    message: 'm',
    rationale: 'r',
  };
}

function reportFor(findings: Finding[], verdicts: Verdict[] = []) {
  const skill = makeSkill({ 'SKILL.md': '---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n' });
  const decision = decide(findings);
  return buildReport({
    skill,
    skillPath: 'demo-skill',
    scan: { findings, safetyScore: 100, status: decision.status, decision, notes: [] },
    detonation: verdicts.length
      ? ({
          verdicts,
          runtimeFindings: [],
          runs: [],
          coverage: [],
          skipped: [],
        } as unknown as DetonationResult)
      : null,
    quality: null,
    notRun: [],
    configuration: {},
  });
}

describe('verdict reasons', () => {
  it('lists findings a pass weighed as not a reason for concern, and names the status otherwise', () => {
    const confidences = Array.from({ length: 20 }, (_, i) => (i + 1) / 20);
    const weighedPass = confidences.find((c) => {
      const d = decide([finding(c)]);
      return d.status === 'pass' && d.because.length > 0;
    });
    const flagged = confidences.find((c) => decide([finding(c)]).status !== 'pass');
    // The checked-in model weighs PE1: some confidence passes with it as a reason, a higher one does not pass.
    expect(weighedPass).toBeDefined();
    expect(flagged).toBeDefined();
    const pass = reportFor([finding(weighedPass!)]);
    expect(pass.verdict.status).toBe('pass');
    expect(pass.verdict.reasons[0]).toMatch(
      /^weighed and not a reason for concern: excessive permissions \(SKILL\.md:4\)/,
    );
    const notPass = reportFor([finding(flagged!)]);
    expect(notPass.verdict.reasons[0]).toMatch(
      /^(caution|risky) because: excessive permissions \(SKILL\.md:4\)$/,
    );
    expect(reportFor([]).verdict.reasons).toEqual([]);
  });

  it('leads with what the sandbox confirmed, naming what the run saw and where it went', () => {
    const exfil: Finding = {
      ...finding(0.5),
      id: 'exfil',
      pattern: 'E2',
      family: 'data_exfiltration',
      severity: 'medium',
      file: 'scripts/sync.sh',
      line: 7,
      rule: 'code.env-harvest',
    };
    const report = reportFor(
      [finding(0.9), exfil],
      [
        {
          finding: 'exfil',
          kind: 'confirmed',
          exploitConfidence: 1,
          evidence: [
            'evidence/run-1.json',
            'POST https://collect.example/upload carried the AWS_SECRET_ACCESS_KEY canary',
          ],
        },
      ],
    );
    expect(report.verdict.status).toBe('risky');
    expect(report.verdict.reasons[0]).toBe(
      'confirmed at runtime: E2 Env Var Harvesting (scripts/sync.sh:7): POST https://collect.example/upload carried the AWS_SECRET_ACCESS_KEY canary',
    );
    // The confirmed medium finding is listed before the unconfirmed high one.
    const high = { ...report.safety.findings[0]!, severity: 'high' as const };
    const ordered = orderFindings([high, report.safety.findings[1]!]);
    expect(ordered[0]!.id).toBe('exfil');
  });
});
