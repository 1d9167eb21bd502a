import { describe, expect, it } from 'vitest';
import { parseSkillMd } from '../../../../src/intake/frontmatter.js';
import { staticQualityProfile } from '../../../../src/quality/index.js';
import {
  candidateSkill,
  findTargets,
  isBetter,
  renderSkillMd,
  type Scores,
  sectionsPresent,
} from '../../../../src/quality/optimize/index.js';
import { makeSkill } from '../make-skill.js';

// Which weaknesses a rewrite is asked to fix, how a candidate SKILL.md is assembled, and how candidates compare.

const weak = makeSkill({
  folderName: 'csv-tool',
  frontmatter: { name: 'csv-tool', description: 'Helps.' },
  body: 'This does stuff with tables and prints a summary of every column for people.\n',
});

const strong = makeSkill({
  folderName: 'csv-tool',
  frontmatter: { name: 'csv-tool', description: 'Summarise CSV tables: counts per column.' },
  body: [
    '# CSV tool',
    '',
    '## Steps',
    '',
    '1. Summarise the CSV table: counts per column.',
    '',
    '## When not to use',
    '',
    'Not for spreadsheets.',
    '',
    '## Examples',
    '',
    '- Summarise sales.csv: counts per column.',
    '',
  ].join('\n'),
});

describe('findTargets', () => {
  it('names what the profile found missing, weakest first', () => {
    const targets = findTargets(weak, staticQualityProfile(weak));
    expect(targets.map((t) => t.id)).toEqual(['description', 'structure', 'boundaries', 'examples']);
    const description = targets[0]!;
    expect(description.reasons).toContain('A description longer than 10 characters is provided: no');
    expect(description.weakness).toBe(1);
    expect(targets[1]!.reasons).toEqual(['At least two second-level sections are present: no']);
    for (let i = 1; i < targets.length; i++)
      expect(targets[i - 1]!.weakness).toBeGreaterThanOrEqual(targets[i]!.weakness);
  });

  it('asks for nothing a skill already has', () => {
    const ids = findTargets(strong, staticQualityProfile(strong)).map((t) => t.id);
    expect(ids).not.toContain('structure');
    expect(ids).not.toContain('boundaries');
    expect(ids).not.toContain('examples');
    expect(ids).not.toContain('conciseness');
    expect(sectionsPresent(strong)).toBe(2);
    expect(sectionsPresent(weak)).toBe(0);
  });

  it('asks for conciseness when the prose repeats itself, quoting the repeated line', () => {
    const line = 'Always check the column types before you write the summary table for the user.';
    const repetitive = makeSkill({
      frontmatter: { name: 'example-skill', description: 'Summarise tables.' },
      body: `## A\n\n${line}\n\n## B\n\n${line}\n\n${line}\n`,
    });
    const target = findTargets(repetitive, staticQualityProfile(repetitive)).find(
      (t) => t.id === 'conciseness',
    );
    expect(target?.reasons[0]).toMatch(/^\d+% of the prose repeats itself: "Always check the column types/);
  });
});

describe('renderSkillMd and candidateSkill', () => {
  it('keeps every other frontmatter key and comment, replaces the description, and parses like intake', () => {
    const text = [
      '---',
      '# owned by the data team',
      'name: csv-tool',
      'description: Helps.',
      'allowed-tools: Bash(python:*)',
      'license: MIT',
      '---',
      'Old body.',
      '',
    ].join('\n');
    const original = makeSkill({ folderName: 'csv-tool', frontmatter: parseSkillMd(text).frontmatter });
    original.files[0] = { ...original.files[0]!, text };
    original.bodyStartLine = parseSkillMd(text).bodyStartLine;

    const md = renderSkillMd(original, {
      name: 'csv-tool',
      description: 'Summarise CSV tables: a long line that YAML must not fold into several lines at all.',
      body: '## Steps\r\n\r\nDo it.',
    });
    expect(md).toContain('# owned by the data team\n');
    expect(md).toContain('allowed-tools: Bash(python:*)\n');
    expect(md).toContain('description: "Summarise CSV tables: a long line');
    expect(md.endsWith('## Steps\n\nDo it.\n')).toBe(true);

    const candidate = candidateSkill(original, md);
    expect(candidate.frontmatter).toEqual({
      name: 'csv-tool',
      description: 'Summarise CSV tables: a long line that YAML must not fold into several lines at all.',
      'allowed-tools': 'Bash(python:*)',
      license: 'MIT',
    });
    expect(candidate.body).toBe(parseSkillMd(md).body);
    expect(candidate.files.find((f) => f.path === 'SKILL.md')?.text).toBe(md);
    expect(candidate.diagnostics).toEqual([]);
    expect(candidate.id).not.toBe(original.id);
  });

  it('writes a frontmatter with the folder name when the original has none', () => {
    const bare = makeSkill({ folderName: 'bare-skill', body: 'Just text.' });
    const md = renderSkillMd(bare, { name: 'bare-skill', description: 'Does one thing.', body: 'Body.' });
    expect(md).toBe('---\nname: bare-skill\ndescription: Does one thing.\n---\n\nBody.\n');
  });
});

describe('isBetter', () => {
  const scores = (overall: number, sections: number): Scores => ({ overall, dimensions: [], sections });
  it('compares overall first, then the two unscored sections on a tie', () => {
    expect(isBetter(scores(0.8, 0), scores(0.7, 2))).toBe(true);
    expect(isBetter(scores(0.7, 2), scores(0.8, 0))).toBe(false);
    expect(isBetter(scores(0.8, 1), scores(0.8, 0))).toBe(true);
    expect(isBetter(scores(0.8, 1), scores(0.8, 1))).toBe(false);
  });
});
