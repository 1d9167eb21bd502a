import { describe, expect, it } from 'vitest';
import {
  CONCISENESS,
  conciseness,
  disclosureScore,
  linkedBundledFiles,
  repetition,
} from '../../../src/quality/conciseness.js';
import { outlineMarkdown } from '../../../src/quality/outline.js';
import { estimateTokens } from '../../../src/quality/tokens.js';
import { makeSkill } from './make-skill.js';

/** `n` distinct words ("w0 w1 …"), so no 6-word shingle repeats. */
function distinctWords(n: number, prefix = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
}

function concise(spec: Parameters<typeof makeSkill>[0]) {
  const skill = makeSkill(spec);
  return conciseness(skill, outlineMarkdown(skill.body));
}

describe('estimateTokens', () => {
  it('counts ASCII at four characters a token, CJK at one, other letters at two', () => {
    expect(estimateTokens('a'.repeat(4000))).toBe(1000);
    expect(estimateTokens('abcde')).toBe(2); // ceil(5 / 4)
    expect(estimateTokens('文件合并')).toBe(4);
    expect(estimateTokens('привет')).toBe(3); // 6 Cyrillic letters / 2
    expect(estimateTokens('')).toBe(0);
  });
});

describe('repetition', () => {
  it('counts shingles that repeat earlier ones: a 10-word sentence twice repeats 5 of 15', () => {
    const sentence = 'convert every page of the input document into plain text';
    expect(sentence.split(' ')).toHaveLength(10);
    // 20 words give 20 − 6 + 1 = 15 shingles; the second copy's 5 full shingles (starting at words 10..14) repeat.
    const r = repetition(`${sentence}\n${sentence}`, 6, 12);
    expect(r.shingles).toBe(15);
    expect(r.repeated).toBe(5);
    expect(r.share).toBeCloseTo(5 / 15, 10);
    expect(r.repeatedLines).toEqual([{ text: sentence, lines: [12, 13] }]);
  });

  it('is 0 for text shorter than a shingle and for text without repeats', () => {
    expect(repetition('too short to repeat').share).toBe(0);
    expect(repetition(distinctWords(500)).share).toBe(0);
  });
});

describe('disclosureScore', () => {
  it('follows the size bands and whether SKILL.md points to bundled files', () => {
    expect(disclosureScore(2000, 0)).toBe(1);
    expect(disclosureScore(2001, 0)).toBe(0.75);
    expect(disclosureScore(5000, 1)).toBe(1);
    expect(disclosureScore(5001, 2)).toBe(0.5);
    expect(disclosureScore(9000, 0)).toBe(0);
  });
});

describe('linkedBundledFiles', () => {
  it('matches links and path mentions to bundled files, ignoring case, ./, anchors and %20', () => {
    const body = [
      'For forms see FORMS.md.',
      'Run `python scripts/fill.py in.pdf`.',
      '[API](./references/api%20guide.md#auth) and [missing](references/none.md)',
      'Example output: report.pdf',
    ].join('\n');
    const skill = makeSkill({
      frontmatter: { name: 'x', description: 'Fill PDF forms.' },
      body,
      files: [
        { path: 'forms.md' },
        { path: 'scripts/fill.py' },
        { path: 'references/api guide.md' },
        { path: 'references/unused.md' },
      ],
    });
    expect(linkedBundledFiles(skill, outlineMarkdown(body))).toEqual([
      'forms.md',
      'references/api guide.md',
      'scripts/fill.py',
    ]);
  });
});

describe('conciseness', () => {
  it('uses the documented weights', () => {
    expect(CONCISENESS.weights).toEqual({ budget: 0.4, redundancy: 0.3, disclosure: 0.3 });
  });

  it('a short skill without repeats scores 0.4·1 + 0.3·1 + 0.3·1 = 1', () => {
    const r = concise({ frontmatter: { name: 'x', description: 'Short.' }, body: distinctWords(300) });
    expect(r.evidence.budget).toBe(1);
    expect(r.score).toBe(1);
  });

  it('a 5,000-token self-contained skill: budget (8000 − 5000) / 6000 = 0.5, disclosure 0.75 → 0.725', () => {
    // 20,000 ASCII characters including the frontmatter → 5,000 tokens; the body is distinct words.
    const header = '---\nname: x\ndescription: Long.\n---\n';
    const body = `${distinctWords(4000)}`.slice(0, 20_000 - header.length);
    const r = concise({ frontmatter: { name: 'x', description: 'Long.' }, body });
    expect(r.evidence.tokens).toBe(5000);
    expect(r.evidence.budget).toBeCloseTo(0.5, 10);
    expect(r.evidence.disclosure).toBe(0.75);
    // 5,000 tokens is still within the ceiling: self-contained medium skills get 0.75.
    expect(r.score).toBeCloseTo(0.4 * 0.5 + 0.3 * 1 + 0.3 * 0.75, 4);
  });

  it('a huge body scores budget 0 and, without links, disclosure 0: only non-repetition is left (0.3)', () => {
    const body = distinctWords(100_000); // ~600 KB of distinct words
    const r = concise({ frontmatter: { name: 'x', description: 'Huge.' }, body });
    expect(r.evidence.tokens as number).toBeGreaterThan(8000);
    expect(r.evidence.budget).toBe(0);
    expect(r.evidence.disclosure).toBe(0);
    expect(r.score).toBeCloseTo(0.3, 4);
  });

  it('a large skill that links a reference gets half the disclosure credit: 0.3 + 0.3·0.5 = 0.45', () => {
    const body = `See references/details.md for the rest.\n\n${distinctWords(100_000)}`;
    const r = concise({
      frontmatter: { name: 'x', description: 'Huge.' },
      body,
      files: [{ path: 'references/details.md' }],
    });
    expect(r.evidence.linkedFiles).toEqual(['references/details.md']);
    expect(r.score).toBeCloseTo(0.45, 4);
  });

  it('penalises repeated text and quotes the repeated lines with SKILL.md line numbers', () => {
    const rule = 'always validate the input file before running any conversion step here';
    const body = `## Steps\n\n${rule}\n\n${distinctWords(12)}\n\n${rule}\n`;
    const r = concise({ frontmatter: { name: 'x', description: 'Convert files.' }, body });
    const rep = r.evidence.repetition as { share: number; repeatedLines: { lines: number[] }[] };
    expect(rule.split(' ')).toHaveLength(11);
    // words: steps(1) + rule(11) + 12 distinct + rule(11) = 35 → 30 shingles; the second rule's 11 − 6 + 1 = 6 repeat.
    expect(rep.share).toBeCloseTo(6 / 30, 10);
    // The frontmatter takes lines 1-4, so the body starts on line 5 and the rule sits on lines 7 and 11.
    expect(rep.repeatedLines[0]!.lines).toEqual([7, 11]);
    expect(r.score).toBeCloseTo(0.4 + 0.3 * (1 - 0.2) + 0.3, 4);
  });

  it('does not count repeated code in fenced blocks as repetition', () => {
    const code = '```bash\npython scripts/run.py --input a.csv --output b.csv --verbose\n```';
    const r = concise({
      frontmatter: { name: 'x', description: 'Run.' },
      body: `${code}\n\n${code}\n\n${code}`,
    });
    expect((r.evidence.repetition as { share: number }).share).toBe(0);
  });

  it('scores an empty body without failing', () => {
    const r = concise({ frontmatter: { name: 'x', description: 'Nothing here.' }, body: '' });
    expect(r.status).toBe('scored');
    expect(r.score).toBe(1);
  });
});
