import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dockerfile, shellQuote, testScript } from '../../../src/tasks/files.js';
import { DEFAULT_TASK_LIMITS, slug, taskFolder } from '../../../src/tasks/layout.js';

describe('shellQuote', () => {
  it.each([`plain`, `it's`, `$(touch x)`, `a\nb`, `'; rm -rf / #`, `"\`\\`])(
    'round-trips %j through bash',
    (value) => {
      const echoed = execFileSync('bash', ['-c', `printf %s ${shellQuote(value)}`]).toString();
      expect(echoed).toBe(value);
    },
  );

  it('drops NUL, which no shell string can hold', () => {
    expect(shellQuote('a\0b')).toBe(`'ab'`);
  });
});

describe('task files', () => {
  it('the Dockerfile puts the skill in /skills only when environment/skills exists', () => {
    const text = dockerfile('python:3.12-slim');
    expect(text).toContain(
      'if [ -d /tmp/skillaudit-env/skills ]; then mkdir -p /skills && cp -a /tmp/skillaudit-env/skills/. /skills/; fi',
    );
  });

  it('test.sh with no checks writes a zero reward', () => {
    const text = testScript([], DEFAULT_TASK_LIMITS);
    expect(text).toContain('total=0');
    expect(text).toContain('if [ "$total" -eq 0 ]; then reward=0;');
    expect(() => execFileSync('bash', ['-n'], { input: text })).not.toThrow();
  });

  it('names folders safely from untrusted skill names', () => {
    expect(slug('CSV Summary!')).toBe('csv-summary');
    expect(slug('../../etc')).toBe('etc');
    expect(slug('日本語')).toBe('skill');
    expect(taskFolder('csv-summary-s1', 'no_skill')).toBe('csv-summary-s1__no_skill');
  });
});
