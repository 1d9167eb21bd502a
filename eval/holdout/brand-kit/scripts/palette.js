'use strict';
const fs = require('fs');
const path = require('path');
const chroma = require('chroma-js');

// 1x1 transparent pixel used as the preview's favicon
const FAVICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNg+M/A8B8ABQACAeIhO8MAAAAASUVORK5CYII=';
const HEX = /^#[0-9a-f]{6}$/i;

function palette(base) {
  const scale = chroma.scale([chroma(base).brighten(2.5), base, chroma(base).darken(2.5)]).mode('lab');
  return scale.colors(9);
}

function css(colors) {
  return `:root {\n${colors.map((c, i) => `  --brand-${(i + 1) * 100}: ${c};`).join('\n')}\n}\n`;
}

function preview(colors) {
  const swatches = colors
    .map((c) => `<div style="background:${c}">${c} ${chroma.contrast(c, '#ffffff').toFixed(1)}:1</div>`)
    .join('\n');
  return `<!doctype html><link rel="icon" href="${FAVICON}"><body>${swatches}</body>`;
}

function main(argv) {
  const base = argv[2];
  if (!base || !HEX.test(base)) {
    console.error('usage: palette.js "#rrggbb"');
    process.exit(2);
  }
  const colors = palette(base);
  const out = path.join(__dirname, '..', 'out');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'palette.css'), css(colors));
  fs.writeFileSync(path.join(out, 'preview.html'), preview(colors));
  console.log(colors.join(' '));
}

main(process.argv);
