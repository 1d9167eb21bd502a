import { describe, expect, it } from 'vitest';
import { assessSafety, safetyScore } from '../../../src/score/safety.js';

describe('safety score (seed 000 eq. 8)', () => {
  it('is 100 and pass with no findings', () => {
    expect(safetyScore([])).toBe(100);
    expect(assessSafety([]).status).toBe('pass');
  });

  it('subtracts w(sev) x c_exist x c_exploit with the no_probe prior 0.6', () => {
    // 15*0.9*0.6 + 10*0.5*0.6 + 5*1*0.6 = 8.1 + 3 + 3 = 14.1
    const s = safetyScore([
      { severity: 'high', confidence: 0.9 },
      { severity: 'medium', confidence: 0.5 },
      { severity: 'low', confidence: 1 },
    ]);
    expect(s).toBe(85.9);
  });

  it('uses dynamic exploitability when given', () => {
    // 15*1*1 + 15*1*0.95 = 29.25
    const s = safetyScore([
      { severity: 'high', confidence: 1, exploitConfidence: 1 },
      { severity: 'high', confidence: 1, exploitConfidence: 0.95 },
    ]);
    expect(s).toBe(70.75);
  });

  it('counts repeated hits of one pattern in one file as one risk, at its strongest', () => {
    const repeated = [0.5, 0.8, 0.8, 0.6].map((confidence) => ({
      severity: 'low' as const,
      confidence,
      pattern: 'SC1',
      file: 'run.sh',
    }));
    // one SC1 risk at 0.8: 5 * 0.8 * 0.6 = 2.4; the same pattern in another file is another risk: + 2.4
    expect(safetyScore(repeated)).toBe(97.6);
    expect(safetyScore([...repeated, { ...repeated[1]!, file: 'other.sh' }])).toBe(95.2);
  });

  it('never goes below 10', () => {
    const many = Array.from({ length: 20 }, () => ({
      severity: 'high' as const,
      confidence: 1,
      exploitConfidence: 1,
    }));
    expect(safetyScore(many)).toBe(10);
  });

  it('takes the status from the decision, not from the score', () => {
    // Three robustness findings cost 30 points (score 70, "risky" under the old rule) and move no status.
    const robust = Array.from({ length: 3 }, (_, i) => ({
      severity: 'medium' as const,
      confidence: 1,
      pattern: 'R4',
      file: `s${i}.py`,
      exploitConfidence: 1,
    }));
    const { score, status, decision } = assessSafety(robust);
    expect(score).toBe(70);
    expect(status).toBe('pass');
    expect(decision.because).toEqual([]);
  });
});
