#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
import { CommitParser } from 'conventional-commits-parser';

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  console.error('usage: changelog.mjs <from-tag> <to-tag>');
  process.exit(2);
}

const SECTIONS = { feat: 'Features', fix: 'Fixes', perf: 'Performance' };
const log = execFileSync('git', ['log', '--format=%H%x1f%B%x1e', `${from}..${to}`], { encoding: 'utf8' });
const parser = new CommitParser();
const groups = { 'Breaking changes': [], Features: [], Fixes: [], Performance: [] };

for (const entry of log.split('\x1e')) {
  const [hash, body] = entry.trim().split('\x1f');
  if (!hash || !body) continue;
  const c = parser.parse(body);
  const line = `- ${c.subject ?? body.split('\n')[0]} (${hash.slice(0, 7)})`;
  if (c.notes.some((n) => n.title === 'BREAKING CHANGE') || /^\w+(\(.+\))?!:/.test(body)) {
    groups['Breaking changes'].push(line);
  } else if (SECTIONS[c.type]) {
    groups[SECTIONS[c.type]].push(line);
  }
}

const date = new Date().toISOString().slice(0, 10);
let out = `## ${to} (${date})\n`;
for (const [title, lines] of Object.entries(groups)) {
  if (lines.length) out += `\n### ${title}\n\n${lines.join('\n')}\n`;
}
process.stdout.write(out);
