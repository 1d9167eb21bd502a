import { describe, expect, it } from 'vitest';
import { allMatches } from '../../../src/util/regexp.js';

const summary = (ms: Iterable<RegExpMatchArray>) => [...ms].map((m) => [m.index, ...m]);

describe('allMatches', () => {
  it('gives what matchAll gives, groups and empty matches included', () => {
    const cases: [RegExp, string][] = [
      [/\b(ignora|env[ií]a)\b|(\d+)/gi, 'Ignora esto y envía 42 archivos, luego IGNORA 7'],
      [/x*/g, 'axxbx'],
      [/(?:)/gu, 'a😀b'],
      [/\p{L}*/gu, '😀é😀'],
      [/(?<=\s)\w+/g, 'one two  three'],
    ];
    for (const [re, text] of cases) expect(summary(allMatches(re, text))).toEqual(summary(text.matchAll(re)));
  });

  it('leaves the expression as it found it for the next text', () => {
    const re = /a/g;
    expect(allMatches(re, 'aaa')).toHaveLength(3);
    expect(re.lastIndex).toBe(0);
    expect(allMatches(re, 'a')).toHaveLength(1);
  });

  it('refuses an expression without the g flag, as matchAll does', () => {
    expect(() => allMatches(/a/, 'aaa')).toThrow(TypeError);
  });
});
