import type { SyntaxNode } from './syntax-tree.js';

// tree-sitter-bash (0.25) misparses a pipeline of three or more commands followed, on a later line, by a
// command with a redirect: `ls | sort | uniq` then `curl … -d @secret 2>/dev/null` comes out as `uniq` with
// `curl …` as its arguments, and the second command disappears from every code rule. A simple command never
// runs past an unescaped line break, so a command node whose parts are separated by one marks the misparse;
// the text is then parsed in pieces cut at that line break (treesitter.ts), which the grammar gets right.

/**
 * Offset of the first line break inside a command node (between two of its parts, not escaped by a
 * backslash), or null. Null too when that line opens a here-document: its body follows the line break, and
 * cutting there would parse the body as commands.
 */
export function misparsedLineBreak(root: SyntaxNode, text: string): number | null {
  for (const command of root.descendantsOfType('command')) {
    const parts = command.children;
    for (let i = 1; i < parts.length; i++) {
      const from = parts[i - 1]!.endIndex;
      const gap = text.slice(from, parts[i]!.startIndex);
      const at = unescapedBreak(gap);
      if (at < 0) continue;
      const cut = from + at;
      const lineStart = text.lastIndexOf('\n', cut - 1) + 1;
      return text.slice(lineStart, cut).includes('<<') ? null : cut;
    }
  }
  return null;
}

function unescapedBreak(gap: string): number {
  for (let i = gap.indexOf('\n'); i !== -1; i = gap.indexOf('\n', i + 1)) {
    if (gap[i - 1] !== '\\' && !(gap[i - 1] === '\r' && gap[i - 2] === '\\')) return i;
  }
  return -1;
}
