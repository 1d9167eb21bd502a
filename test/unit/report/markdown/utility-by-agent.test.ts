import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderReportMarkdown } from '../../../../src/report/markdown.js';
import type { Report } from '../../../../src/report/model.js';
import { renderReportText } from '../../../../src/report/report-text.js';
import { cleanReport, HOSTILE, twoAgentReport } from '../../../support/report-fixtures.js';

// `configuration.utilityByAgent` of a multi-agent audit: a compact per-agent table in the terminal and
// Markdown renderers, nothing new for a single agent, and configuration values treated as untrusted text.

const plain = pc.createColors(false);
const coloured = pc.createColors(true);

function rowsOf(report: Report): Record<string, unknown>[] {
  return report.configuration.utilityByAgent as Record<string, unknown>[];
}

/** The two-agent report with hostile names and malformed rows mixed in. */
function hostileAgents(): Report {
  const report = twoAgentReport();
  const [builtin, claude] = rowsOf(report);
  report.configuration.utilityByAgent = [
    { ...builtin, agent: `builtin${HOSTILE.ansi}`, model: `${HOSTILE.imgOnError} ${HOSTILE.markdownLink}` },
    'claude-code',
    null,
    [1, 2],
    { ...claude, prg: '+25%' },
    { ...claude, eg: Number.NaN },
    { ...claude, agent: 7 },
    { ...claude, ecg: undefined },
    { ...claude, harness: HOSTILE.scriptClose, model: `${HOSTILE.mention} ${HOSTILE.bidi}` },
  ];
  return report;
}

function nodesOf(markdown: string): Nodes[] {
  const all: Nodes[] = [];
  const walk = (node: Nodes) => {
    all.push(node);
    if ('children' in node) for (const child of node.children) walk(child as Nodes);
  };
  walk(fromMarkdown(markdown));
  return all;
}

describe('per-agent utility rows in the terminal report', () => {
  it('shows one aligned row per agent with harness, model and every score', () => {
    const lines = renderReportText(twoAgentReport(), plain).split('\n');
    const head = lines.findIndex((l) => l.startsWith('  By agent'));
    expect(lines[head]).toBe('  By agent  2 agent configurations');
    expect(lines.slice(head + 1, head + 4)).toEqual([
      '  agent                                            model                        pass-rate gain  efficiency gain  cost gain  combined  time saved    tokens saved        already passing  valid/invalid pairs',
      '  builtin                                          anthropic/claude-sonnet-4-5  +42%            +18%             +33%       +26%      12.6 s saved  6,450 tokens saved  no               3/0',
      '  claude-code (@anthropic-ai/claude-code@2.1.332)  anthropic/claude-sonnet-4-5  +25%            n/a              −12%       n/a       4.2 s slower  1,800 more tokens   no               2/1',
    ]);
    // Inside the utility section, before quality.
    expect(head).toBeGreaterThan(lines.findIndex((l) => l.startsWith('Utility')));
    expect(head).toBeLessThan(lines.findIndex((l) => l.startsWith('Quality')));
  });

  it('changes nothing for a single-agent report', () => {
    const single = twoAgentReport();
    single.configuration.utilityByAgent = rowsOf(single).slice(0, 1);
    const before = renderReportText(cleanReport(), coloured);
    expect(renderReportText(single, coloured)).toBe(before);
    expect(before).not.toContain('By agent');
  });

  it('ignores malformed rows and reveals control characters in names', () => {
    const text = renderReportText(hostileAgents(), coloured);
    expect(text).toContain('2 agent configurations');
    expect(text).not.toContain('\u001b[2J');
    expect(text).toContain('builtin⟨U+001B⟩[2J⟨U+001B⟩[31mPASS');
    expect(text).toContain('⟨U+202E⟩');
    expect(text).not.toContain('+25%+25%');

    const onlyOne = twoAgentReport();
    onlyOne.configuration.utilityByAgent = [rowsOf(onlyOne)[0], { ...rowsOf(onlyOne)[1], deltaT: '4s' }];
    expect(renderReportText(onlyOne, plain)).toBe(renderReportText(cleanReport(), plain));
    for (const utilityByAgent of [undefined, null, 'rows', { builtin: {} }]) {
      const report = cleanReport();
      report.configuration.utilityByAgent = utilityByAgent;
      expect(renderReportText(report, plain)).toBe(renderReportText(cleanReport(), plain));
    }
  });
});

describe('per-agent utility rows in the Markdown report', () => {
  it('shows a table with one row per agent after the scenarios', () => {
    const md = renderReportMarkdown(twoAgentReport());
    expect(md).toContain(
      [
        '#### By agent',
        '',
        '| agent | model | pass-rate gain | efficiency gain | cost gain | combined | time saved | tokens saved | already passing | valid/invalid pairs |',
        '|---|---|---|---|---|---|---|---|---|---|',
        '| `builtin` | `anthropic/claude-sonnet-4-5` | +42% | +18% | +33% | +26% | 12.6 s saved | 6,450 tokens saved | no | 3/0 |',
        '| `claude-code (@anthropic-ai/claude-code@2.1.332)` | `anthropic/claude-sonnet-4-5` | +25% | n/a | −12% | n/a | 4.2 s slower | 1,800 more tokens | no | 2/1 |',
        '',
        '### Quality: 74% overall',
      ].join('\n'),
    );
  });

  it('changes nothing for a single-agent report', () => {
    const single = twoAgentReport();
    single.configuration.utilityByAgent = rowsOf(single).slice(0, 1);
    expect(renderReportMarkdown(single)).toBe(renderReportMarkdown(cleanReport()));
  });

  it('keeps names from the configuration in code spans: no HTML, link, image or mention', () => {
    const md = renderReportMarkdown(hostileAgents());
    const section = md.slice(md.indexOf('#### By agent'), md.indexOf('### Quality'));
    expect(section.split('\n').filter((l) => l.startsWith('| `'))).toHaveLength(2);
    const nodes = nodesOf(section);
    expect(
      nodes.filter((n) => ['html', 'link', 'image', 'linkReference', 'imageReference'].includes(n.type)),
    ).toEqual([]);
    const text = nodes
      .filter((n) => n.type === 'text')
      .map((n) => (n as { value: string }).value)
      .join('\n');
    expect(text).not.toMatch(/[<>@]|javascript:/);
    const code = nodes
      .filter((n) => n.type === 'inlineCode')
      .map((n) => (n as { value: string }).value)
      .join('\n');
    expect(code).toContain(`${HOSTILE.imgOnError} [Click to verify`);
    expect(code).toContain(`claude-code (${HOSTILE.scriptClose})`);
    expect(section).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});
