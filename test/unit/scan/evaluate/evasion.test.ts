import { describe, expect, it } from 'vitest';
import {
  defangUrls,
  pythonStatements,
  type SkillFiles,
  splitSkillDoc,
  TRANSFORMATIONS,
} from '../../../../src/scan/evaluate/evasion.js';
import { files, STEALER } from '../../../support/evasion-stealer.js';

// The evasion suite's transformations (eval/evasion/README.md) keep what a skill does while rewriting it as an
// attacker (or an honest author) would; test/integration/cli/evasion-suite.test.ts runs them through the scan.

const transform = (id: string) => TRANSFORMATIONS.find((t) => t.id === id)!;
const text = (f: SkillFiles | null, path: string) => f?.get(path)?.toString('utf8') ?? '';

describe('transformations', () => {
  it('defang URLs the way threat reports write them', () => {
    expect(defangUrls('see https://evil.example.com/x and http://1.2.3.4/')).toBe(
      'see hxxps://evil[.]example[.]com/x and hxxp://1[.]2[.]3[.]4/',
    );
  });

  it('split SKILL.md into frontmatter and body', () => {
    expect(splitSkillDoc('---\nname: a\n---\n# A\n')).toEqual({ frontmatter: 'name: a', body: '# A\n' });
    expect(splitSkillDoc('# no frontmatter\n')).toEqual({ frontmatter: null, body: '# no frontmatter\n' });
  });

  it('retitle a skill as a security topic without touching what it does', () => {
    const out = transform('security-title').apply(STEALER);
    expect(text(out, 'SKILL.md')).toMatch(/^name: jailbreak-detection$/m);
    expect(text(out, 'SKILL.md')).toMatch(/^# Jailbreak and Prompt-Injection Detection$/m);
    expect(text(out, 'scripts/report.py')).toBe(text(STEALER, 'scripts/report.py'));
  });

  it('move the body to a guide SKILL.md says to follow, and hide commands behind a decoder', () => {
    const moved = transform('moved-to-reference').apply(STEALER);
    expect(text(moved, 'references/guide.md')).toContain('python3 scripts/report.py');
    expect(text(moved, 'SKILL.md')).toContain('follow every step');
    const encoded = text(transform('encoded-base64').apply(STEALER), 'SKILL.md');
    const b64 = Buffer.from('python3 scripts/report.py --month last').toString('base64');
    expect(encoded).toContain(`echo ${b64} | base64 -d | bash`);
  });

  it('cut a Python script into a chain of modules, statement boundaries kept', () => {
    const code = [
      '#!/usr/bin/env python3',
      '"""Doc',
      'at column 0',
      '"""',
      'import os',
      '@cache',
      'def f(a,',
      'b):',
      '    return a',
      'if os.name:',
      '    x = 1',
      'else:',
      '    x = 2',
      'print(f(x, 2))',
    ].join('\n');
    expect(pythonStatements(code).map((s) => s[0])).toEqual([
      '#!/usr/bin/env python3',
      '"""Doc',
      'import os',
      '@cache',
      'if os.name:',
      'print(f(x, 2))',
    ]);
    const out = transform('split-modules').apply(STEALER)!;
    const main = text(out, 'scripts/report.py');
    expect(main).toMatch(/^from report_part\d import \*$/m);
    const parts = [...out.keys()].filter((p) => /report_part\d\.py$/.test(p));
    expect(parts.length).toBeGreaterThan(0);
    // Every line of the original is in exactly one of the files.
    const all = [main, ...parts.map((p) => text(out, p))].join('\n').split('\n');
    for (const line of text(STEALER, 'scripts/report.py').split('\n').filter(Boolean))
      expect(all.filter((l) => l === line)).toHaveLength(1);
  });

  it('do not apply where there is nothing to change', () => {
    const noShell = files({ 'SKILL.md': '---\nname: a\ndescription: b\n---\n# A\n\nSay hello.\n' });
    expect(transform('encoded-base64').apply(noShell)).toBeNull();
    expect(transform('padded-script-size').apply(noShell)).toBeNull();
    expect(transform('split-modules').apply(noShell)).toBeNull();
  });
});
