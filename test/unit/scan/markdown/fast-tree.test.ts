import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildFastTree } from '../../../../src/core/markdown/fast-tree.js';
import { Unsupported } from '../../../../src/core/markdown/tree.js';
import { parseMarkdown, parseTreeMicromark, parseUncached } from '../../../../src/core/markdown.js';
import { seededRandom } from '../../../../src/util/seeded-random.js';
import { generate, inContainers, PIECES } from './generated-markdown.js';

// The markdown-it builder must give the scanner exactly what the micromark builder gives it: the same spans,
// code blocks, inline code and code ranges, with the same text, lines, offsets and framing. Where it is not
// sure it could, it steps aside (Unsupported) and micromark decides.

function fastOrNull(text: string) {
  try {
    return buildFastTree(text);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/** Same document as micromark reads it; true when the fast builder read it itself. */
function expectSame(text: string): boolean {
  if (fastOrNull(text) === null) return false;
  expect(parseUncached(text, buildFastTree), JSON.stringify(text)).toEqual(
    parseUncached(text, parseTreeMicromark),
  );
  return true;
}

/** 'own' when the fast builder read it as micromark does, 'aside' when it stepped aside, else 'differs'. */
function compare(text: string): 'own' | 'aside' | 'differs' {
  if (fastOrNull(text) === null) return 'aside';
  const same = isDeepStrictEqual(parseUncached(text, buildFastTree), parseUncached(text, parseTreeMicromark));
  return same ? 'own' : 'differs';
}

describe('buildFastTree', () => {
  it.each(PIECES.map((p) => [p]))('reads %j as micromark does', (text) => {
    for (const placed of inContainers(text)) expectSame(placed);
  });

  it('reads generated documents as micromark does, bar rare list and indentation corners', () => {
    const next = seededRandom(20261205);
    const counts = { own: 0, aside: 0, differs: 0 };
    const differing: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const text = generate(next);
      // A carriage return (a sixth of the separators) always goes to micromark: measure the rest.
      if (text.includes('\r')) continue;
      const outcome = compare(text);
      counts[outcome]++;
      if (outcome === 'differs') differing.push(text);
    }
    // These mix containers, tabs and indentation far more densely than real documents (on the 1,506 of
    // ../shared/corpus, bench/markdown-parsers.ts finds one read differently).
    expect(counts.differs, differing.map((t) => JSON.stringify(t)).join('\n')).toBeLessThanOrEqual(3);
    expect(counts.own).toBeGreaterThan(counts.aside);
  }, 60_000);

  it('steps aside for carriage returns, and parseMarkdown still reads them', () => {
    expect(fastOrNull('a\r\nb')).toBeNull();
    expect(parseMarkdown('Run:\r\n\r\n```bash\r\necho hi\r\n```\r\n').codeBlocks[0]?.code).toBe('echo hi');
  });

  it('keeps links of every scheme and their titles, as written', () => {
    const doc = parseUncached('See [x](javascript:alert(1) "Go") and <http://a.test/%41>.\n', buildFastTree);
    expect(doc.spans.map((s) => [s.kind, s.text])).toEqual([
      ['paragraph', 'See x and http://a.test/%41.'],
      ['link-title', 'Go'],
    ]);
  });

  it('places inline code and fences at their file offsets', () => {
    const text = '---\nname: x\n---\n> quoted `code` here\n\n```py\nprint(1)\n```\n';
    const doc = parseUncached(text, buildFastTree);
    const [start, end] = doc.codeRanges[0]!;
    expect(text.slice(start, end)).toBe('`code`');
    expect(doc.codeBlocks[0]).toMatchObject({ lang: 'python', code: 'print(1)', line: 7, endLine: 7 });
  });
});
