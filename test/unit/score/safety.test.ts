import { describe, expect, it } from 'vitest';
import { assessSafety, safetyScore, safetyStatus } from '../../../src/score/safety.js';

describe('safety score (seed 000 eq. 8)', () => {
  it('is 100 and pass with no findings', () => {
    expect(safetyScore([])).toBe(100);
    expect(safetyStatus(100)).toBe('pass');
  });

  it('subtracts w(sev) x c_exist x c_exploit with the no_probe prior 0.6', () => {
    // 15*0.9*0.6 + 10*0.5*0.6 + 5*1*0.6 = 8.1 + 3 + 3 = 14.1
    const s = safetyScore([
      { severity: 'high', confidence: 0.9 },
      { severity: 'medium', confidence: 0.5 },
      { severity: 'low', confidence: 1 },
    ]);
    expect(s).toBe(85.9);
    expect(safetyStatus(s)).toBe('caution');
  });

  it('uses dynamic exploitability when given', () => {
    // 15*1*1 + 15*1*0.95 = 29.25
    const s = safetyScore([
      { severity: 'high', confidence: 1, exploitConfidence: 1 },
      { severity: 'high', confidence: 1, exploitConfidence: 0.95 },
    ]);
    expect(s).toBe(70.75);
    expect(safetyStatus(s)).toBe('risky');
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

  it('puts the boundary at 80: caution at 80, risky just below', () => {
    expect(safetyStatus(80)).toBe('caution');
    expect(safetyStatus(79.99)).toBe('risky');
    expect(safetyStatus(99.99)).toBe('caution');
  });

  it('calls a skill risky on one near-certain high finding, whatever the score', () => {
    // 15 * 0.9 * 0.6 = 8.1 -> 91.9: caution by the score alone, risky because the finding is decisive
    expect(assessSafety([{ severity: 'high', confidence: 0.9 }])).toEqual({ score: 91.9, status: 'risky' });
    expect(assessSafety([{ severity: 'high', confidence: 0.85 }]).status).toBe('risky');
    // below the decisive confidence, or not high severity: the score decides
    expect(assessSafety([{ severity: 'high', confidence: 0.84 }])).toEqual({
      score: 92.44,
      status: 'caution',
    });
    expect(assessSafety([{ severity: 'medium', confidence: 1 }]).status).toBe('caution');
    expect(
      assessSafety([
        { severity: 'low', confidence: 1 },
        { severity: 'medium', confidence: 0.97 },
      ]).status,
    ).toBe('caution');
  });

  it('lets a dynamic verdict undo the decisive rule only when the path was not triggered', () => {
    const certain = { severity: 'high' as const, confidence: 0.97 };
    // agent_refused (0.5): the package-level risk remains
    expect(assessSafety([{ ...certain, exploitConfidence: 0.5 }]).status).toBe('risky');
    // path_exists_not_triggered (0.2-0.49) and likely_false_positive (0.1-0.19): the score decides
    expect(assessSafety([{ ...certain, exploitConfidence: 0.3 }])).toEqual({
      score: 95.64,
      status: 'caution',
    });
    expect(assessSafety([{ ...certain, exploitConfidence: 0.1 }]).status).toBe('caution');
  });
});
