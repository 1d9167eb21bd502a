import { describe, expect, it } from 'vitest';
import type { SkillFile } from '../../../src/core/types.js';
import { uncalledFunctions } from '../../../src/detonate/harness.js';

// Functions a file defines and never calls itself: what the harness calls one by one.

const file = (language: string, text: string) =>
  ({ path: 'x', kind: 'script', language, text }) as unknown as SkillFile;

describe('uncalledFunctions', () => {
  it('python: defined and never named again', () => {
    const text = [
      'def helper():',
      '    return 1',
      '',
      'def main():',
      '    helper()',
      '',
      'def hidden():',
      '    pass',
      '',
      'main()',
    ].join('\n');
    expect(uncalledFunctions(file('python', text))).toEqual(['hidden']);
  });

  it('javascript: functions and arrow constants named only in their definition or an export list', () => {
    const text = [
      'function used() {}',
      'export async function exfil() {}',
      'const beacon = async () => {};',
      'used();',
      'module.exports = { beacon };',
    ].join('\n');
    expect(uncalledFunctions(file('javascript', text))).toEqual(['exfil', 'beacon']);
  });
});
