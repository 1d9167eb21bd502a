import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { staticQualityProfile } from '../../../src/quality/profile.js';
import { bar, explain, renderQualityText } from '../../../src/quality/render-text.js';
import { makeSkill } from './make-skill.js';

const plain = pc.createColors(false);

describe('quality text rendering', () => {
  it('draws 20-cell bars rounded to the nearest cell', () => {
    expect(bar(0)).toBe('░'.repeat(20));
    expect(bar(0.5)).toBe(`${'█'.repeat(10)}${'░'.repeat(10)}`);
    expect(bar(0.76)).toBe(`${'█'.repeat(15)}${'░'.repeat(5)}`); // 15.2 cells → 15
    expect(bar(1)).toBe('█'.repeat(20));
  });

  it('explains each static score with the evidence an author acts on', () => {
    const skill = makeSkill({
      frontmatter: { name: 'x', description: 'Merge PDF files and translate subtitles.' },
      body: '## Merge PDFs\n\nRun the merge. See references/api.md for options.\n',
      files: [{ path: 'references/api.md' }],
    });
    const [structure, concise, consistent] = staticQualityProfile(skill).dimensions;
    expect(explain(structure!)).toBe('missing: section-structure');
    expect(explain(concise!)).toMatch(/^~\d+ tokens, 0% repeated, links 1 bundled file$/);
    expect(explain(consistent!)).toMatch(/description terms not in body: files, translate, subtitles$/);
  });

  it('prints errors beside profiles and a closing count', () => {
    const skill = makeSkill({
      frontmatter: { name: 'x', description: 'Merge PDF files.' },
      body: '## A\n\n## B\n',
    });
    const text = renderQualityText(
      [
        { path: 'bad', error: { code: 'EMPTY_SKILL_MD', message: 'bad: SKILL.md is empty' } },
        { path: 'x', name: 'x', quality: staticQualityProfile(skill) },
      ],
      plain,
    );
    expect(text.split('\n')[0]).toBe('bad  ERROR  bad: SKILL.md is empty');
    expect(text).toMatch(/^x \(x\) {2}overall \d{1,3}%$/m);
    expect(text).toMatch(/^ {2}Task abstraction granularity {9}·{20} {2}not run: needs --model/m);
    expect(text.trimEnd().split('\n').at(-1)).toBe('2 skills: 1 profiled, 1 failed to load');
  });

  it('prints notes and not-run reasons shared by every skill once, after the skills', () => {
    const profile = (name: string) =>
      staticQualityProfile(
        makeSkill({ frontmatter: { name, description: 'Merge PDF files.' }, body: '## A\n\n## B\n' }),
      );
    const text = renderQualityText(
      [
        { path: 'a', name: 'a', quality: profile('a') },
        { path: 'b', name: 'b', quality: profile('b') },
      ],
      plain,
    );
    expect(text).toMatch(/^ {2}Efficiency {27}·{20} {2}not run: needs --model$/m);
    expect(text.match(/Efficiency: needs --model \(agent runs that record tokens/g)).toHaveLength(1);
    expect(text.match(/note: Overall is the mean of 3 of 9 dimensions/g)).toHaveLength(1);
    expect(text.indexOf('Not run for every skill:')).toBeGreaterThan(text.indexOf('b (b)'));
  });
});
