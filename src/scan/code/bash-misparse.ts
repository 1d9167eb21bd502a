import type { SyntaxNode } from './syntax-tree.js';

// tree-sitter-bash (0.25) misparses a pipeline of three or more commands followed, on a later line, by a
// command with a redirect: `ls | sort | uniq` then `curl … -d @secret 2>/dev/null` comes out as `uniq` with
// `curl …` as its arguments, and the second command disappears from every code rule. A simple command never
// runs past an unescaped line break, so a command node whose parts are separated by one marks the misparse;
// the text is then parsed in pieces cut at that line break (treesitter.ts), which the grammar gets right.

/**
 * Offsets of the line breaks that end a misparsed command: in each command node, the first line break between
 * two of its parts that no backslash escapes. Sorted. A command whose line opens a here-document is skipped:
 * the body follows the line break, and cutting there would parse the body as commands.
 */
export function misparsedLineBreaks(root: SyntaxNode, text: string): number[] {
  const cuts = new Set<number>();
  for (const command of root.descendantsOfType('command')) {
    const parts = command.children;
    for (let i = 1; i < parts.length; i++) {
      const from = parts[i - 1]!.endIndex;
      const at = unescapedBreak(text.slice(from, parts[i]!.startIndex));
      if (at < 0) continue;
      const cut = from + at;
      const lineStart = text.lastIndexOf('\n', cut - 1) + 1;
      if (!text.slice(lineStart, cut).includes('<<')) cuts.add(cut);
      break;
    }
  }
  return [...cuts].sort((a, b) => a - b);
}

function unescapedBreak(gap: string): number {
  for (let i = gap.indexOf('\n'); i !== -1; i = gap.indexOf('\n', i + 1)) {
    if (gap[i - 1] !== '\\' && !(gap[i - 1] === '\r' && gap[i - 2] === '\\')) return i;
  }
  return -1;
}
