#!/usr/bin/env node
// Replace <img src="local/path.png"> with base64 data URIs so the HTML is self-contained.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

const MIME = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml' };
const MAX_IMAGE_BYTES = 512 * 1024;

const file = process.argv[2];
if (!file || !existsSync(file) || process.argv.length > 3) {
  console.error('usage: inline-images.mjs <file.html>');
  process.exit(2);
}
const base = dirname(resolve(file));
const html = readFileSync(file, 'utf8');

const out = html.replace(/(<img\b[^>]*\bsrc=")([^"]+)(")/gi, (whole, pre, src, post) => {
  if (/^(data:|https?:|cid:)/i.test(src)) return whole;
  const path = resolve(base, src);
  const mime = MIME[extname(path).toLowerCase()];
  if (!path.startsWith(`${base}/`) || !mime || !existsSync(path)) {
    console.error(`left as is: ${src}`);
    return whole;
  }
  if (statSync(path).size > MAX_IMAGE_BYTES) {
    console.error(`too large to inline (> 512 KiB): ${src}`);
    return whole;
  }
  return `${pre}data:${mime};base64,${readFileSync(path).toString('base64')}${post}`;
});
process.stdout.write(out);
