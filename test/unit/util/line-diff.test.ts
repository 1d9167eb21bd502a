import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/util/line-diff.js';

/** Applies a unified diff to `from` the way patch does, checking every context and removed line. */
function applyDiff(from: string, diff: string): string {
  if (diff === '') return from;
  const a = from === '' ? [] : from.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let at = 0;
  const lines = diff.replace(/\n$/, '').split('\n').slice(2);
  for (const line of lines) {
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(line);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (at < start) out.push(a[at++]!);
      continue;
    }
    const body = line.slice(1);
    if (line[0] === '+') out.push(body);
    else {
      expect(a[at]).toBe(body);
      if (line[0] === ' ') out.push(body);
      at++;
    }
  }
  while (at < a.length) out.push(a[at++]!);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

const text = (n: number, f: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => f(i)).join('\n')}\n`;

describe('unifiedDiff', () => {
  it('writes the diff -u format: headers, hunk ranges, three lines of context', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const b = 'a\nB\nc\nd\ne\nf\ng\nh\nX\ni\nj\nk\n';
    expect(unifiedDiff(a, b, 'a/x', 'b/x')).toBe(
      '--- a/x\n+++ b/x\n@@ -1,10 +1,12 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n+X\n i\n j\n+k\n',
    );
  });

  it('splits distant changes into separate hunks', () => {
    const a = text(30, (i) => `line ${i}`);
    const b = a.replace('line 2\n', 'line two\n').replace('line 25\n', 'line twenty-five\n');
    const diff = unifiedDiff(a, b, 'a', 'b');
    expect(diff.match(/^@@ /gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,6 +1,6 @@');
    expect(diff).toContain('@@ -23,7 +23,7 @@');
    expect(applyDiff(a, diff)).toBe(b);
  });

  it('is empty for equal texts and numbers an empty side by the line before it', () => {
    expect(unifiedDiff('same\n', 'same\n', 'a', 'b')).toBe('');
    expect(unifiedDiff('', 'x\n', 'a', 'b')).toBe('--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n');
    expect(unifiedDiff('x\ny\n', '', 'a', 'b')).toBe('--- a\n+++ b\n@@ -1,2 +0,0 @@\n-x\n-y\n');
  });

  it('marks a last line without a newline the way diff -u does', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n', 'a', 'b')).toBe(
      '--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
    expect(unifiedDiff('a\n', 'a\nc', 'a', 'b')).toBe(
      '--- a\n+++ b\n@@ -1,1 +1,2 @@\n a\n+c\n\\ No newline at end of file\n',
    );
    expect(unifiedDiff('x', 'x', 'a', 'b')).toBe('');
  });

  it('round-trips through a patch on varied edits', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let trial = 0; trial < 50; trial++) {
      const a = text(1 + rand(40), () => `w${rand(6)}`);
      const b = text(rand(40), () => `w${rand(6)}`);
      expect(applyDiff(a, unifiedDiff(a, b, 'a', 'b'))).toBe(b);
    }
  });

  it('falls back to one replacement when the texts share almost nothing, and stays correct', () => {
    const a = text(5_000, (i) => `old ${i}`);
    const b = text(5_000, (i) => `new ${i}`);
    const diff = unifiedDiff(a, b, 'a', 'b');
    expect(diff.split('\n')[2]).toBe('@@ -1,5000 +1,5000 @@');
    expect(applyDiff(a, diff)).toBe(b);
  });
});
