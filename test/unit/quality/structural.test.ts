import { describe, expect, it } from 'vitest';
import { outlineMarkdown } from '../../../src/quality/outline.js';
import { STRUCTURAL_CRITERIA, structuralCompleteness } from '../../../src/quality/structural.js';
import { makeSkill } from './make-skill.js';

const BODY = `# CSV summary

## When to use

Summarise a CSV file: row count, column types and basic statistics per column.

## Steps

1. Run \`python scripts/summarize.py data.csv\`.
2. Report the table it prints.
`;

function score(spec: Parameters<typeof makeSkill>[0]) {
  const skill = makeSkill(spec);
  return structuralCompleteness(skill, outlineMarkdown(skill.body));
}

function unmet(result: ReturnType<typeof score>): string[] {
  return (result.evidence.criteria as { id: string; met: boolean }[]).filter((c) => !c.met).map((c) => c.id);
}

describe('structural completeness (seed 001 Table 10)', () => {
  it('uses the published weights, 10.5 in total', () => {
    expect(STRUCTURAL_CRITERIA.map((c) => [c.id, c.weight])).toEqual([
      ['frontmatter', 2.0],
      ['name', 1.5],
      ['description', 2.5],
      ['description-length', 1.0],
      ['instructional-body', 2.0],
      ['section-structure', 1.5],
    ]);
    expect(STRUCTURAL_CRITERIA.reduce((s, c) => s + c.weight, 0)).toBe(10.5);
  });

  it('scores a complete skill 10.5 / 10.5 = 1', () => {
    const r = score({
      frontmatter: { name: 'csv-summary', description: 'Summarise CSV files with per-column statistics.' },
      body: BODY,
    });
    expect(r.score).toBe(1);
    expect(r.evidence.achievedWeight).toBe(10.5);
    expect(unmet(r)).toEqual([]);
  });

  it('without frontmatter keeps only body and sections: (2.0 + 1.5) / 10.5 = 0.3333', () => {
    const r = score({ frontmatter: null, body: BODY });
    expect(unmet(r)).toEqual(['frontmatter', 'name', 'description', 'description-length']);
    expect(r.score).toBeCloseTo(3.5 / 10.5, 4);
  });

  it('with an empty body loses body and sections: (2 + 1.5 + 2.5 + 1) / 10.5 = 0.6667', () => {
    const r = score({ frontmatter: { name: 'x', description: 'Summarise CSV files quickly.' }, body: '' });
    expect(unmet(r)).toEqual(['instructional-body', 'section-structure']);
    expect(r.score).toBeCloseTo(7 / 10.5, 4);
  });

  it('a description of exactly 10 characters is in the 10-500 range but not "longer than 10": 8 / 10.5', () => {
    const r = score({ frontmatter: { name: 'x', description: 'Merges PDF' }, body: BODY });
    expect(unmet(r)).toEqual(['description']);
    expect(r.score).toBeCloseTo(8 / 10.5, 4);
  });

  it('a 501-character description passes "longer than 10" only: 9.5 / 10.5', () => {
    const r = score({ frontmatter: { name: 'x', description: 'a'.repeat(501) }, body: BODY });
    expect(unmet(r)).toEqual(['description-length']);
    expect(r.score).toBeCloseTo(9.5 / 10.5, 4);
  });

  it('a missing description fails both description criteria: 7 / 10.5', () => {
    const r = score({ frontmatter: { name: 'x' }, body: BODY });
    expect(unmet(r)).toEqual(['description', 'description-length']);
    expect(r.score).toBeCloseTo(7 / 10.5, 4);
  });

  it('counts characters as code points, so 11 CJK characters are longer than 10', () => {
    const r = score({ frontmatter: { name: 'x', description: '合并多个PDF文件为一个' }, body: BODY });
    expect((r.evidence.facts as { descriptionLength: number }).descriptionLength).toBe(12);
    expect(unmet(r)).toEqual([]);
  });

  it('a name that is not a string is not a provided name', () => {
    const r = score({ frontmatter: { name: 42, description: 'Summarise CSV files quickly.' }, body: BODY });
    expect(unmet(r)).toEqual(['name']);
  });

  it('counts ## and setext sections, not ### nor headings inside code fences', () => {
    const body = `Usage
-----

Some text that is long enough to be an instructional body of the skill.

### Not level two

\`\`\`markdown
## Inside a fence
## Also inside
\`\`\`
`;
    const r = score({ frontmatter: { name: 'x', description: 'Summarise CSV files quickly.' }, body });
    expect((r.evidence.facts as { level2Sections: number }).level2Sections).toBe(1);
    expect(unmet(r)).toEqual(['section-structure']);
  });

  it('needs more than 50 characters of body after trimming', () => {
    const fifty = 'x'.repeat(50);
    const r = score({
      frontmatter: { name: 'x', description: 'Summarise CSV files quickly.' },
      body: `\n\n${fifty}\n\n`,
    });
    expect(unmet(r)).toContain('instructional-body');
    const r2 = score({
      frontmatter: { name: 'x', description: 'Summarise CSV files quickly.' },
      body: `${fifty}y`,
    });
    expect(unmet(r2)).not.toContain('instructional-body');
  });
});
