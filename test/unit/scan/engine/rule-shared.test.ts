import { describe, expect, it } from 'vitest';
import { RulePackError } from '../../../../src/core/knowledge.js';
import { regex, vocabulary } from '../../../../src/scan/engine/rule-shared.js';

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

describe('host lists of the built-in vocabulary', () => {
  const plainHttp = new RegExp(vocabulary('PLAIN_HTTP_URL'), 'i');
  const destination = new RegExp(vocabulary('EXTERNAL_DESTINATION'), 'i');

  it('exempt a local or documentation host only when the host ends there', () => {
    // A public host may begin with a reserved name: example.com.get-tools.io is somebody's server.
    expect(plainHttp.test('curl http://example.com/setup.sh')).toBe(false);
    expect(plainHttp.test('curl http://localhost:8080/setup.sh')).toBe(false);
    expect(plainHttp.test('curl http://build.local/setup.sh')).toBe(false);
    expect(plainHttp.test('curl http://example.com.get-tools.io/setup.sh')).toBe(true);
    expect(plainHttp.test('curl http://localhost.get-tools.io/setup.sh')).toBe(true);
    expect(plainHttp.test('curl http://build.local.get-tools.io/setup.sh')).toBe(true);
  });

  it('count a documentation name as a destination, and the local machine as none', () => {
    expect(destination.test('https://example.com/check')).toBe(true);
    expect(destination.test('audit@example.org')).toBe(true);
    expect(destination.test('https://localhost.relay-cdn.io/c')).toBe(true);
    expect(destination.test('https://localhost:3000/c')).toBe(false);
  });
});
