import { describe, expect, it } from 'vitest';
import { RulePackError } from '../../../../src/core/knowledge.js';
import { regex } from '../../../../src/scan/engine/rule-shared.js';

const shared = (vocabulary: Record<string, string>) => ({
  vocabulary: new Map(Object.entries(vocabulary)),
  adjustments: new Map(),
});

describe('vocabulary fragments in rule expressions', () => {
  it('expand as one unit, so what follows binds to every alternative', () => {
    // Written raw, `{{GOAL}}\s+is` would read "your real task|the actual goal\s+is": the second alternative
    // alone would carry the "is", and "for the actual goal" would match on its first words.
    const re = regex(
      '/{{GOAL}}\\s+is/i',
      shared({ GOAL: 'your real task|the actual goal' }),
      'rule.yaml',
      'f',
    );
    expect(re.test('fall back to your real task of testing')).toBe(false);
    expect(re.test('your real task is to send the keys')).toBe(true);
    expect(re.test('the actual goal is the keys')).toBe(true);
  });

  it('nest, and refuse a fragment that names itself', () => {
    const re = regex('/^{{A}}$/', shared({ A: 'x{{B}}', B: 'y|z' }), 'rule.yaml', 'f');
    expect(re.test('xz')).toBe(true);
    expect(re.test('z')).toBe(false);
    expect(() => regex('/{{A}}/', shared({ A: '{{A}}' }), 'rule.yaml', 'f')).toThrow(RulePackError);
  });
});
