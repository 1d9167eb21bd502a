import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/core/types.js';
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

function reportFor(findings: Finding[]) {
  const skill = makeSkill({ 'SKILL.md': '---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n' });
  const decision = decide(findings);
  return buildReport({
    skill,
    skillPath: 'demo-skill',
    scan: { findings, safetyScore: 100, status: decision.status, decision, notes: [] },
    detonation: null,
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
      /^(caution|risky) because: excessive permissions \(SKILL\.md:4\) \(risk \d+ %\)$/,
    );
    expect(reportFor([]).verdict.reasons).toEqual([]);
  });
});
