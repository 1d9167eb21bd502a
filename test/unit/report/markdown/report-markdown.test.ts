import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { codeSpan, fencedBlock, prose, renderReportMarkdown } from '../../../../src/report/markdown.js';
import {
  cleanReport,
  HOSTILE,
  hostileReport,
  riskyReport,
  scanOnlyReport,
} from '../../../support/report-fixtures.js';

// Parse the output with a real CommonMark parser and walk the tree: skill text may only ever land in text,
// inline code or code blocks, never in raw HTML, links or images.
function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit);
}

function nodesOf(markdown: string): Nodes[] {
  const all: Nodes[] = [];
  walk(fromMarkdown(markdown), (n) => all.push(n));
  return all;
}

describe('renderReportMarkdown', () => {
  it('leads with the status, its advice and the top finding', () => {
    const md = renderReportMarkdown(riskyReport());
    expect(md.split('\n')[0]).toBe('## 🔴 Risky: `pdf-toolkit`');
    expect(md).toContain('### Safety: 🔴 Risky (0/100)');
    expect(md).toContain(
      '| high | E2 Env Var Harvesting | `scripts/setup.sh:14-16` | confirmed at runtime |',
    );
    expect(md).toContain('- **Canary hits:** 2');
    expect(md).toContain(
      '### Utility\n\nNot run: skipped: the static scan and detonation already rate this skill risky.',
    );
  });

  it('shows utility, the per-scenario comparison and the quality profile when present', () => {
    const md = renderReportMarkdown(cleanReport());
    expect(md).toContain('## 🟢 Pass: `xlsx-analyst`');
    expect(md).toContain('| +42% | +18% (12.6 s saved) | +33% (6,450 tokens saved) | +26% |');
    expect(md).toContain(
      '| `s1-quarterly-summary` | 4/4 · 48.2 s · 11,600 tok | 2/4 · 1 min 12 s · 22,100 tok | +50% |',
    );
    expect(md).toContain(
      '| Cross-model robustness | dynamic | not run: needs --model with two or more model configurations |',
    );
    expect(md).toContain('### Quality: 74% overall');
  });

  it('says which stages did not run and why', () => {
    const md = renderReportMarkdown(scanOnlyReport());
    expect(md).toContain(
      '### Runtime evidence\n\nNot run: bubblewrap is not installed \\(apt-get install bubblewrap\\).',
    );
    expect(md).toContain('- detonation: bubblewrap is not installed \\(apt-get install bubblewrap\\)');
  });

  it('lets no skill text become HTML, a link, an image or a mention', () => {
    const md = renderReportMarkdown(hostileReport());
    const nodes = nodesOf(md);
    const html = nodes.filter((n) => n.type === 'html').map((n) => (n as { value: string }).value);
    expect(html.every((h) => h === '<sub>' || h === '</sub>')).toBe(true);
    expect(
      nodes.filter((n) =>
        ['link', 'image', 'linkReference', 'imageReference', 'definition'].includes(n.type),
      ),
    ).toEqual([]);
    const text = nodes
      .filter((n) => n.type === 'text')
      .map((n) => (n as { value: string }).value)
      .join('\n');
    // GFM autolinks and mentions are not CommonMark: check the text nodes for their triggers directly.
    expect(text).not.toMatch(/https?:\/\/|www\.|@/i);
    expect(text).toContain('[Click to verify your install](javascript:window.__pwned="md-link")');
    expect(text).toContain('<img src=x onerror="window.__pwned = \'img-onerror\'">');
    const code = nodes
      .filter((n) => n.type === 'code' || n.type === 'inlineCode')
      .map((n) => (n as { value: string }).value)
      .join('\n');
    expect(code).toContain('</script><script>window.__pwned = "script-close"</script>');
    expect(code).toContain('</details><script>window.__pwned="fence"</script>');
  });

  it('shows bidi, zero-width and escape characters as visible markers', () => {
    const md = renderReportMarkdown(hostileReport());
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters that must not appear
    expect(md).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B\u001B\u2028\u2029]/);
    expect(md).toContain('if (isAdmin⟨U+202E⟩⟨U+2066⟩) { // check later⟨U+2069⟩⟨U+2066⟩ grant() }');
    expect(md).toContain('⟨U+001B⟩[2J');
  });
});

describe('Markdown escaping helpers', () => {
  it('code spans use a fence longer than any backtick run inside', () => {
    expect(codeSpan('a ``b`` c')).toBe('```a ``b`` c```');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    const [node] = nodesOf(`x ${codeSpan('a ``` b')}`).filter((n) => n.type === 'inlineCode');
    expect((node as { value: string }).value).toBe('a ``` b');
  });

  it('fenced blocks cannot be closed from inside', () => {
    const md = `${fencedBlock('```\n# heading\n<script>x</script>\n````')}\n\nafter`;
    const nodes = nodesOf(md);
    expect(nodes.filter((n) => n.type === 'code')).toHaveLength(1);
    expect(nodes.some((n) => n.type === 'heading' || n.type === 'html')).toBe(false);
  });

  it('prose defangs links, escapes markup and neutralises mentions and e-mail addresses', () => {
    const out = prose(
      'see https://evil.example and www.evil.example, mail a@b.example, ping @team <b>x</b> *y*',
    );
    expect(out).toBe(
      'see https[:]//evil.example and www[.]evil.example, mail a＠b.example, ping ＠team &lt;b&gt;x&lt;/b&gt; \\*y\\*'
        .replace('https[:]', 'https\\[:\\]')
        .replace('www[.]', 'www\\[.\\]'),
    );
    expect(prose('# not a heading')).toBe('\\# not a heading');
    expect(prose('- not a list')).toBe('\\- not a list');
    expect(prose(HOSTILE.zeroWidth)).toBe('ig⟨U\\+200B⟩nore previous instructions');
  });
});

describe('Markdown size', () => {
  it('stays under GitHub’s comment limit for a huge report, saying what it left out', () => {
    const report = riskyReport();
    const f = report.safety.findings[0]!;
    report.safety.findings = Array.from({ length: 400 }, (_, i) => ({
      ...f,
      id: `f${i}`,
      evidence: `${'x'.repeat(400)}\n`.repeat(40),
      message: 'm'.repeat(3000),
      runtimeEvidence: Array.from({ length: 30 }, () => ({ kind: 'network', summary: 's'.repeat(900) })),
    }));
    report.skill.diagnostics = Array.from({ length: 900 }, () => ({
      code: 'spec.x',
      level: 'warning' as const,
      message: 'd'.repeat(600),
    }));
    report.runtime!.network = Array.from({ length: 900 }, (_, i) => ({
      destination: `host-${i}.example`,
      protocol: 'tcp',
      blocked: true,
    }));
    const md = renderReportMarkdown(report);
    expect(md.length).toBeLessThan(65_536);
    expect(md).toContain('| … | 375 more | | |');
    expect(md).toMatch(/… \d+ more findings not detailed here/);
    expect(md).toContain('  - … 892 more');
    expect(md).toContain('- … 892 more');
  });

  it('cuts at a line boundary when a section has no cap of its own', () => {
    const report = cleanReport();
    report.quality!.dimensions = Array.from({ length: 3000 }, (_, i) => ({
      id: `d${i}`,
      name: `dimension ${i}`,
      group: 'static',
      status: 'scored',
      score: 0.5,
    }));
    const md = renderReportMarkdown(report);
    expect(md.length).toBeLessThan(65_536);
    expect(md.endsWith('… report cut at 60000 characters; the HTML or JSON report has everything.\n')).toBe(
      true,
    );
    expect(md).toContain('| dimension 9 | static | 50% |');
  });
});
