// Markdown documents mixing the constructs the tree builders must agree on: hand-picked pieces, and
// documents generated from them under container prefixes and assorted separators.

export const PIECES = [
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

export function generate(next: () => number): string {
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

/** A piece as written, and placed after frontmatter, inside a list item and inside a blockquote. */
export function inContainers(text: string): string[] {
  return [
    text,
    `---\nname: x\n---\n${text}\n`,
    `- ${text.replaceAll('\n', '\n  ')}`,
    `> ${text.replaceAll('\n', '\n> ')}`,
  ];
}
