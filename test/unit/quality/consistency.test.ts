import { describe, expect, it } from 'vitest';
import { descriptionContentConsistency } from '../../../src/quality/consistency.js';
import { outlineMarkdown } from '../../../src/quality/outline.js';
import { contentTerms, sameTerm, stem } from '../../../src/quality/terms.js';
import { makeSkill } from './make-skill.js';

function consistency(spec: Parameters<typeof makeSkill>[0]) {
  const skill = makeSkill(spec);
  return descriptionContentConsistency(skill, outlineMarkdown(skill.body));
}

const BODY = `## Merge PDFs

1. Run \`scripts/merge_pdfs.py a.pdf b.pdf\`.

## Extract tables

- Read each page with pdfplumber.

Output goes to a CSV file.
`;

describe('terms', () => {
  it('stems inflections together and drops stopwords and generic skill words', () => {
    expect(['merge', 'merges', 'merged', 'merging'].map(stem)).toEqual(['merg', 'merg', 'merg', 'merg']);
    expect(['adding', 'running', 'mapped', 'filled', 'processed', 'libraries', 'matches'].map(stem)).toEqual([
      'add',
      'run',
      'map',
      'fill',
      'process',
      'library',
      'match',
    ]);
    expect(contentTerms('Use this skill when the user asks to extract tables from PDF files.')).toEqual([
      'extract',
      'tabl',
      'pdf',
      'fil',
    ]);
  });

  it('joins light-stem variants by a long shared prefix, not short or partial ones', () => {
    expect(sameTerm(stem('summary'), stem('summarise'))).toBe(true);
    expect(sameTerm(stem('summarize'), stem('summarise'))).toBe(true);
    expect(sameTerm(stem('documentation'), stem('document'))).toBe(true);
    expect(sameTerm(stem('transform'), stem('transfer'))).toBe(false);
    expect(sameTerm('form', 'format')).toBe(false);
  });

  it('splits CJK runs into bigrams and keeps Latin parts of mixed runs', () => {
    expect(contentTerms('合并PDF文件')).toEqual(['合并', 'pdf', '文件']);
  });
});

describe('description-content consistency', () => {
  it('matches the hand computation: 0.6·coverage + 0.4·focus = 0.6·5/6 + 0.4·4/7 = 0.7286', () => {
    const r = consistency({
      frontmatter: { name: 'pdf-tools', description: 'Merge PDF files and extract tables into CSV.' },
      body: BODY,
      files: [{ path: 'scripts/merge_pdfs.py', kind: 'script' }],
    });
    // Description terms (stems): merg, pdf, fil, extract, tabl, csv (6); evidence shows them as written.
    // In the action surface (headings, list items, script names): merg, pdf, extract, tabl → 4 × 1.
    // Only in the prose ("Output goes to a CSV file."): fil, csv → 2 × 0.5. Coverage = 5 / 6.
    expect(r.evidence.inActionSurface).toEqual(['merge', 'pdf', 'extract', 'tables']);
    expect(r.evidence.inBodyOnly).toEqual(['files', 'csv']);
    expect(r.evidence.coverage).toBeCloseTo(5 / 6, 10);
    // Action terms ("run", "scripts" and "py" are code words): merg pdf | extract tabl | merg pdf pdf pdf |
    // read pag pdfplumber | merg pdf → pdf ×5, merg ×3, then five singletons: 7 distinct terms, all salient.
    // The description names pdf, merg, extract and tabl → focus 4 / 7.
    expect(r.evidence.salientBodyTerms).toEqual([
      'pdfs',
      'merge',
      'extract',
      'tables',
      'read',
      'page',
      'pdfplumber',
    ]);
    expect(r.evidence.salientNamedInDescription).toEqual(['pdfs', 'merge', 'extract', 'tables']);
    expect(r.evidence.focus).toBeCloseTo(4 / 7, 10);
    expect(r.score).toBeCloseTo(0.6 * (5 / 6) + 0.4 * (4 / 7), 4);
  });

  it('scores a description that promises something else low', () => {
    const r = consistency({
      frontmatter: {
        name: 'pdf-tools',
        description: 'Translate spoken audio recordings into subtitles for videos.',
      },
      body: BODY,
    });
    expect(r.evidence.inActionSurface).toEqual([]);
    expect(r.score).toBeLessThan(0.1);
  });

  it('scores 0 with a reason when the description is missing or has no content words', () => {
    const missing = consistency({ frontmatter: { name: 'x' }, body: BODY });
    expect(missing.score).toBe(0);
    expect(missing.evidence.reason).toBe('the description has no content words');
    const generic = consistency({
      frontmatter: { name: 'x', description: 'Use this skill when the user asks.' },
      body: BODY,
    });
    expect(generic.score).toBe(0);
  });

  it('scores 0 with a reason when the body is empty', () => {
    const r = consistency({ frontmatter: { name: 'x', description: 'Merge PDF files.' }, body: '' });
    expect(r.score).toBe(0);
    expect(r.evidence.reason).toBe('the body has no content words');
  });

  it('takes salient terms from the prose when the body has no headings, steps, tables or scripts', () => {
    const r = consistency({
      frontmatter: { name: 'x', description: 'Rotate PDF pages.' },
      body: 'Rotate the pages of a PDF with qpdf and save the rotated PDF next to the original.',
    });
    // coverage: rotat, pdf, pag all only in prose → 3 × 0.5 / 3 = 0.5
    expect(r.evidence.coverage).toBeCloseTo(0.5, 10);
    // prose terms: rotat pag pdf qpdf sav rotat pdf next original → pdf, rotat (2 each), then pag, qpdf, sav, next, original
    expect(r.evidence.salientBodyTerms).toEqual([
      'rotate',
      'pdf',
      'pages',
      'qpdf',
      'save',
      'next',
      'original',
    ]);
    expect(r.evidence.focus).toBeCloseTo(3 / 7, 10);
    expect(r.score).toBeCloseTo(0.6 * 0.5 + 0.4 * (3 / 7), 4);
  });

  it('counts terms in shell command blocks as covered, without making their arguments salient', () => {
    const body =
      '## Merge PDFs\n\n```bash\npython3 scripts/pdf.py merge combined.pdf a.pdf b.pdf\n```\n\n```python\nrotate(page)\n```\n';
    const r = consistency({ frontmatter: { name: 'x', description: 'Merge and rotate PDF pages.' }, body });
    // merg and pdf: heading and bash block → action surface; rotat and pag only in the Python block → prose.
    expect(r.evidence.inActionSurface).toEqual(['merge', 'pdf']);
    expect(r.evidence.inBodyOnly).toEqual(['rotate', 'pages']);
    expect(r.evidence.coverage).toBeCloseTo((2 + 2 * 0.5) / 4, 10);
    // Salient terms come from the heading only: "combined" (an argument) is not one.
    expect(r.evidence.salientBodyTerms).toEqual(['merge', 'pdfs']);
    expect(r.score).toBeCloseTo(0.6 * 0.75 + 0.4 * 1, 4);
  });

  it('compares CJK descriptions and bodies through bigrams', () => {
    const r = consistency({
      frontmatter: { name: 'pdf-merge', description: '合并PDF文件' },
      body: '## 合并PDF文件\n\n1. 运行脚本\n',
    });
    expect(r.evidence.inActionSurface).toEqual(['合并', 'pdf', '文件']);
    expect(r.evidence.coverage).toBe(1);
  });
});
