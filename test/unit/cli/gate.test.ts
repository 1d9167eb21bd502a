import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { gateExitCode, gateLine, parseFailOn } from '../../../src/cli/gate.js';
import type { Finding } from '../../../src/core/types.js';

const high = { severity: 'high', confidence: 0.9 } as Finding;
const lowConfidenceHigh = { severity: 'high', confidence: 0.3 } as Finding;

describe('the exit-code gate', () => {
  it('--fail-on follows the verdict: risky by default, caution, never', () => {
    const skills = (status: 'pass' | 'caution' | 'risky') => [{ status, findings: [high] }];
    expect(gateExitCode(false, skills('pass'), { failOn: 'risky' })).toBe(0);
    expect(gateExitCode(false, skills('caution'), { failOn: 'risky' })).toBe(0);
    expect(gateExitCode(false, skills('risky'), { failOn: 'risky' })).toBe(1);
    expect(gateExitCode(false, skills('caution'), { failOn: 'caution' })).toBe(1);
    expect(gateExitCode(false, skills('pass'), { failOn: 'caution' })).toBe(0);
    expect(gateExitCode(false, skills('risky'), { failOn: 'never' })).toBe(0);
    expect(gateExitCode(true, skills('pass'), { failOn: 'never' })).toBe(2);
  });

  it('--fail-on-finding adds the severity gate, above the confidence floor, suppressed findings aside', () => {
    const pass = [{ status: 'pass' as const, findings: [high] }];
    expect(gateExitCode(false, pass, { failOn: 'risky', failOnFinding: 'high' })).toBe(1);
    expect(gateExitCode(false, pass, { failOn: 'risky', failOnFinding: 'high', minConfidence: 0.95 })).toBe(
      0,
    );
    const weak = [{ status: 'pass' as const, findings: [lowConfidenceHigh] }];
    expect(gateExitCode(false, weak, { failOn: 'never', failOnFinding: 'low', minConfidence: 0.5 })).toBe(0);
    const suppressed = [
      { status: 'pass' as const, findings: [{ ...high, suppressed: { by: 'baseline', reason: 'ok' } }] },
    ];
    expect(gateExitCode(false, suppressed as never, { failOn: 'never', failOnFinding: 'low' })).toBe(0);
  });

  it('--fail-on takes verdicts; a severity there names the flag that takes it', () => {
    expect(parseFailOn('caution')).toBe('caution');
    expect(parseFailOn('none')).toBe('never');
    expect(() => parseFailOn('high')).toThrow(InvalidArgumentError);
    expect(() => parseFailOn('high')).toThrow(/--fail-on-finding high/);
    expect(() => parseFailOn('nope')).toThrow(/risky, caution, never/);
  });

  it('says what the gate did in words', () => {
    expect(gateLine(1, { failOn: 'risky' })).toBe('fail-on risky: failed');
    expect(gateLine(0, { failOn: 'never' })).toBe('fail-on never: the gate never fails');
    expect(gateLine(2, { failOn: 'risky' })).toBe('some skills could not be scanned');
  });
});
