const fs = require('fs');
const MarkdownIt = require('markdown-it');

const [, , input, ...flags] = process.argv;
if (!input) {
  console.error('usage: build.js deck.md [--theme name] [--pdf]');
  process.exit(1);
}
const theme = flags.includes('--theme') ? flags[flags.indexOf('--theme') + 1] : 'white';
const md = new MarkdownIt({ html: true });
const slides = fs
  .readFileSync(input, 'utf8')
  .split(/^---$/m)
  .map((s) => `<section>${md.render(s)}</section>`)
  .join('\n');
fs.writeFileSync('deck.html', `<link rel="stylesheet" href="themes/${theme}.css"><div class="reveal"><div class="slides">${slides}</div></div>`);
console.log('wrote deck.html');
