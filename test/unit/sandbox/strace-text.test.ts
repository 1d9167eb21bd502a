import { describe, expect, it } from 'vitest';
import {
  closingParen,
  decodeStraceString,
  splitArgs,
  stringLiterals,
} from '../../../src/sandbox/strace-text.js';

describe('decodeStraceString', () => {
  it('decodes octal escapes of one to three digits as bytes', () => {
    const decoded = decodeStraceString('\\364\\17\\1\\0\\3abc');
    expect([...Buffer.from(decoded, 'latin1')]).toEqual([0o364, 0o17, 1, 0, 3, 97, 98, 99]);
  });

  it('decodes hex, quote, backslash and control escapes', () => {
    expect(decodeStraceString('a\\x41\\"q\\\\n\\n\\t')).toBe('aA"q\\n\n\t');
  });

  it('keeps a trailing lone backslash (a truncated string) as is', () => {
    expect(decodeStraceString('abc\\')).toBe('abc\\');
  });
});

describe('stringLiterals', () => {
  it('finds every literal, including ones with escaped quotes, and ignores strace truncation dots', () => {
    expect(stringLiterals('["sh", "-c", "echo \\"hi\\""...], 0x1')).toEqual(['sh', '-c', 'echo "hi"']);
  });
});

describe('splitArgs', () => {
  it('splits at top-level commas only, respecting brackets and strings', () => {
    const args = splitArgs('3, {sa_family=AF_INET, sin_port=htons(53)}, "a, b", [1, 2]');
    expect(args).toEqual(['3', '{sa_family=AF_INET, sin_port=htons(53)}', '"a, b"', '[1, 2]']);
  });

  it('returns what it has for unbalanced (cut) input', () => {
    expect(splitArgs('AT_FDCWD, "/etc/pa')).toEqual(['AT_FDCWD', '"/etc/pa']);
  });
});

describe('closingParen', () => {
  it('skips parentheses inside strings', () => {
    const text = 'execve("/bin/sh", ["sh", "-c", "f() { :; }"]) = 0';
    expect(text.slice(closingParen(text, 7) + 1)).toBe(' = 0');
  });
});
