import type { Rule } from '../../../../src/core/rule.js';

/** A rule of a detector written in a test, weighted by framing as the built-in code rules are. */
export function testRule(id: string, pattern: Rule['pattern'], message: string): Rule {
  const framing = { instruction: 1, example: 0.5, 'user-action': 0.35, 'documents-risk': 0.2 };
  return { id, pattern, message, help: 'h', tags: [], framing };
}
