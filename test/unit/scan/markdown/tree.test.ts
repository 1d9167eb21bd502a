import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { describe, expect, it } from 'vitest';
import { buildTree, type MdNode, Unsupported } from '../../../../src/core/markdown/tree.js';
import { fromMdast } from '../../../../src/core/markdown.js';
import { seededRandom } from '../../../../src/util/seeded-random.js';
import { generate, inContainers, PIECES } from './generated-markdown.js';

// The event-built tree must carry exactly what the mdast tree carries for the walker: compared here on
// hand-picked edge cases and on many generated documents mixing them.

const OPTIONS = { extensions: [frontmatter(['yaml'])], mdastExtensions: [frontmatterFromMarkdown(['yaml'])] };

/** The fields the walker reads; the offsets of text, list items and the root are never read. */
function project(n: MdNode): unknown {
  if (n.type === 'text') return { text: n.value };
  if (n.type === 'root') return { root: n.children?.map(project) };
  return {
    type: n.type,
    start: n.start,
    end: n.type === 'listItem' ? undefined : n.end,
    value: n.value,
    depth: n.depth,
    lang: n.lang,
    alt: n.alt,
    title: n.title,
    children: n.children?.map(project) ?? null,
  };
}

type Outcome = { tree: unknown } | { error: true } | { unsupported: true };

function viaMdast(text: string): Outcome {
  try {
    return { tree: project(fromMdast(fromMarkdown(text, OPTIONS))) };
  } catch {
    return { error: true };
  }
}

function viaEvents(text: string): Outcome {
  try {
    return { tree: project(buildTree(text)) };
  } catch (error) {
    return error instanceof Unsupported ? { unsupported: true } : { error: true };
  }
}

/** Same tree, or the event builder steps aside (the caller then asks mdast). */
function expectSame(text: string): void {
  const events = viaEvents(text);
  if ('unsupported' in events) return;
  expect(events, JSON.stringify(text)).toEqual(viaMdast(text));
}

describe('buildTree', () => {
  it.each(PIECES.map((p) => [p]))('matches mdast on %j', (text) => {
    for (const placed of inContainers(text)) expectSame(placed);
  });

  it('matches mdast on generated documents', () => {
    const next = seededRandom(20261130);
    let unsupported = 0;
    for (let i = 0; i < 600; i++) {
      const text = generate(next);
      if ('unsupported' in viaEvents(text)) unsupported++;
      expectSame(text);
    }
    // The builder should handle nearly everything itself; stepping aside is for the odd case.
    expect(unsupported).toBeLessThan(6);
  }, 60_000);

  it('keeps no parser state from one document to the next', () => {
    // A lazy line 2 in one document must not turn the next one's setext underline into a rule.
    buildTree('> quote\nlazy');
    expect(buildTree('Title\n---').children![0]!.type).toBe('heading');
    // A definition in one document must not make the next one's brackets a link.
    buildTree('[ref]: http://x.test');
    expect(buildTree('[ref]').children![0]!.children![0]!.type).toBe('text');
  });

  it('finds the same offsets as the source', () => {
    const text = '# H\n\nSee [a](u "t") and `c`.\n';
    const root = buildTree(text);
    const paragraph = root.children![1]!;
    expect(text.slice(paragraph.start, paragraph.end)).toBe('See [a](u "t") and `c`.');
  });
});
