import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { describe, expect, it } from 'vitest';
import { buildTree, type MdNode, Unsupported } from '../../../../src/core/markdown/tree.js';
import { fromMdast } from '../../../../src/core/markdown.js';
import { seededRandom } from '../../../../src/util/seeded-random.js';

// The event-built tree must carry exactly what the mdast tree carries for the walker: compared here on
// hand-picked edge cases and on many generated documents mixing them.

const OPTIONS = { extensions: [frontmatter(['yaml'])], mdastExtensions: [frontmatterFromMarkdown(['yaml'])] };

/** The fields the walker reads; the offsets of text, list items and the root are never read. */
function project(n: MdNode): unknown {
  if (n.type === 'text') return { text: n.value };
  if (n.type === 'root') return { root: n.children?.map(project) };
  return {
    type: n.type,
    start: n.start,
    end: n.type === 'listItem' ? undefined : n.end,
    value: n.value,
    depth: n.depth,
    lang: n.lang,
    alt: n.alt,
    title: n.title,
    children: n.children?.map(project) ?? null,
  };
}

type Outcome = { tree: unknown } | { error: true } | { unsupported: true };

function viaMdast(text: string): Outcome {
  try {
    return { tree: project(fromMdast(fromMarkdown(text, OPTIONS))) };
  } catch {
    return { error: true };
  }
}

function viaEvents(text: string): Outcome {
  try {
    return { tree: project(buildTree(text)) };
  } catch (error) {
    return error instanceof Unsupported ? { unsupported: true } : { error: true };
  }
}

/** Same tree, or the event builder steps aside (the caller then asks mdast). */
function expectSame(text: string): void {
  const events = viaEvents(text);
  if ('unsupported' in events) return;
  expect(events, JSON.stringify(text)).toEqual(viaMdast(text));
}

const PIECES = [
  '# Title',
  '## Sub *emph* `code`',
  '### closed ###',
  'Setext\n===',
  'Setext two\nlines\n---',
  'plain paragraph text',
  'line one  \nline two',
  'escaped\\\nbreak',
  'a &amp; b &#35; &#x41; &copy; &nosuch;',
  '\\*not emph\\* \\[x\\]',
  '**strong _nested emph_**',
  '[link](http://x.test "Title")',
  "[link *b*\nwrapped](u 't')",
  '[ref] and [ref][] and [text][ref]',
  '[ref]: http://def.test "Def title"',
  '[undefined ref]',
  '![alt *x* `c` <b>h</b>](i.png "img title")',
  '![outer ![inner](a.png) [l](u)](o.png)',
  '![refimg][ref]',
  '![](empty.png "t")',
  '<http://auto.test> <a@b.test>',
  'inline <span>html</span> and <!-- c -->',
  '<!-- block comment -->',
  '<div>\nblock html\n</div>',
  '```bash\necho hi\n```',
  '~~~ Py\\_x {.cls}\nprint(1)\n~~~',
  '```\nunclosed fence',
  '````\n```\ninner\n```\n````',
  '    indented code\n\tmore',
  '`` code ` tick ``',
  '`multi\nline code`',
  '- a\n- b\n\n- c',
  '1. one\n2) two\n3. three',
  '- outer\n  - inner\n    > quoted\n- next',
  '> quote\n> > nested\n> - list in quote',
  '* star\n+ plus\n- minus',
  '- [ ] task\n- [x] done',
  '---',
  '***',
  'lazy\ncontinuation\n> quote\nlazy line',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  'tab\tin\ttext',
  'nul\u0000char',
  'crlf line\r\nnext\r\n',
  'cr only\rnext',
  'trailing spaces   ',
  'Run:',
  'Bad example:',
  '',
];

const PREFIXES = ['', '', '', '  ', '    ', '> ', '- ', '1. ', '\t', '>> ', '- > '];
const SEPARATORS = ['\n', '\n\n', '\n\n', '\r\n', '\n\n\n', ' '];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function generate(next: () => number): string {
  const parts: string[] = [];
  if (next() < 0.2) parts.push('---\nname: x\ndescription: |\n  multi\n  line\n---');
  const count = 1 + Math.floor(next() * 10);
  for (let i = 0; i < count; i++) {
    const prefix = pick(next, PREFIXES);
    const piece = pick(next, PIECES).replaceAll('\n', `\n${next() < 0.5 ? prefix : ''}`);
    parts.push(prefix + piece);
  }
  return parts.map((p, i) => (i === 0 ? p : pick(next, SEPARATORS) + p)).join('');
}

describe('buildTree', () => {
  it.each(PIECES.map((p) => [p]))('matches mdast on %j', (text) => {
    expectSame(text);
    expectSame(`---\nname: x\n---\n${text}\n`);
    expectSame(`- ${text.replaceAll('\n', '\n  ')}`);
    expectSame(`> ${text.replaceAll('\n', '\n> ')}`);
  });

  it('matches mdast on generated documents', () => {
    const next = seededRandom(20261130);
    let unsupported = 0;
    for (let i = 0; i < 600; i++) {
      const text = generate(next);
      if ('unsupported' in viaEvents(text)) unsupported++;
      expectSame(text);
    }
    // The builder should handle nearly everything itself; stepping aside is for the odd case.
    expect(unsupported).toBeLessThan(6);
  }, 60_000);

  it('keeps no parser state from one document to the next', () => {
    // A lazy line 2 in one document must not turn the next one's setext underline into a rule.
    buildTree('> quote\nlazy');
    expect(buildTree('Title\n---').children![0]!.type).toBe('heading');
    // A definition in one document must not make the next one's brackets a link.
    buildTree('[ref]: http://x.test');
    expect(buildTree('[ref]').children![0]!.children![0]!.type).toBe('text');
  });

  it('finds the same offsets as the source', () => {
    const text = '# H\n\nSee [a](u "t") and `c`.\n';
    const root = buildTree(text);
    const paragraph = root.children![1]!;
    expect(text.slice(paragraph.start, paragraph.end)).toBe('See [a](u "t") and `c`.');
  });
});
