import { describe, expect, it } from 'vitest';
import { outlineMarkdown } from '../../../src/quality/outline.js';

describe('outlineMarkdown', () => {
  it('finds ATX and setext headings with their lines, closing hashes removed', () => {
    const o = outlineMarkdown(
      '# Title #\n\nIntro line\nUsage\n=====\n\n## Steps ##\n#NotAHeading\n####### seven\n',
    );
    expect(o.headings).toEqual([
      { depth: 1, text: 'Title', line: 1 },
      { depth: 1, text: 'Usage', line: 4 },
      { depth: 2, text: 'Steps', line: 7 },
    ]);
  });

  it('treats --- after a list item or a blank line as a rule, not a heading', () => {
    const o = outlineMarkdown('- item\n---\n\n---\ntext\n');
    expect(o.headings).toEqual([]);
  });

  it('skips fenced code: backticks and tildes, longer closers, and an unclosed fence to the end', () => {
    const body =
      '```bash\n## not a heading\n````\n## Real\n~~~\n# inside tilde\n```\nstill inside\n~~~\n```python\n## unclosed\n';
    const o = outlineMarkdown(body);
    expect(o.headings.map((h) => h.text)).toEqual(['Real']);
    expect(o.codeBlocks.map((c) => [c.lang, c.line])).toEqual([
      ['bash', 1],
      ['', 5],
      ['python', 10],
    ]);
    expect(o.codeBlocks[1]!.text).toBe('# inside tilde\n```\nstill inside');
  });

  it('collects list items (bullets, numbers, task boxes) and table rows without the delimiter row', () => {
    const o = outlineMarkdown(
      '1. Run it\n2) Check it\n- [x] Done item\n* star\n\n| Task | Tool |\n|---|:---:|\n| Merge | qpdf |\n',
    );
    expect(o.listItems.map((i) => i.text)).toEqual(['Run it', 'Check it', 'Done item', 'star']);
    expect(o.tableRows.map((r) => [r.text, r.line])).toEqual([
      ['| Task | Tool |', 6],
      ['| Merge | qpdf |', 8],
    ]);
  });

  it('collects link targets and reference definitions outside code', () => {
    const o = outlineMarkdown(
      'See [forms](forms.md#fill) and ![img](<assets/a b.png>).\n\n[ref]: references/api.md\n\n```\n[x](inside.md)\n```\n',
    );
    expect(o.links).toEqual(['forms.md#fill', 'assets/a b.png', 'references/api.md']);
  });

  it('keeps prose line numbers aligned with the body by blanking code lines', () => {
    const o = outlineMarkdown('one\n```\ncode\n```\nfive\r\nsix');
    expect(o.prose.split('\n')).toEqual(['one', '', '', '', 'five', 'six']);
  });
});

describe('outlineMarkdown on edge lines', () => {
  it('keeps # runs that are part of the heading text and drops a closing run', () => {
    const o = outlineMarkdown('## C# tips\n## Done ##\n###\n## Issue #42\n');
    expect(o.headings.map((h) => h.text)).toEqual(['C# tips', 'Done', '', 'Issue #42']);
  });

  it('ignores empty list markers', () => {
    expect(outlineMarkdown('- \n1.   \n- real\n').listItems.map((i) => i.text)).toEqual(['real']);
  });
});
