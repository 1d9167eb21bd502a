import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/core/types.js';
import { renderScanMarkdown } from '../../../src/report/scan-markdown.js';
import type { SkillScanResult } from '../../../src/scan/source/scan-source.js';
import { decide } from '../../../src/score/verdict.js';

// The scan's Markdown summary: counts, ordering, caps, and hostile skill text that must not become markup.

function finding(over: Partial<Finding>): Finding {
  return {
    id: 'f',
    pattern: 'E2',
    family: 'data_exfiltration',
    severity: 'high',
    confidence: 0.9,
    file: 'scripts/sync.py',
    line: 12,
    endLine: 12,
    evidence: 'requests.post(URL, json=dict(os.environ))',
    rule: 'code.env-harvest',
    message: 'Environment variables are collected and sent out',
    rationale: 'why',
    ...over,
  };
}

function scanned(path: string, findings: Finding[], status: 'pass' | 'caution' | 'risky'): SkillScanResult {
  return {
    path,
    name: path,
    scan: {
      findings,
      safetyScore: status === 'pass' ? 100 : 70,
      status,
      decision: decide(findings),
      notes: [],
    },
  };
}

describe('renderScanMarkdown', () => {
  it('tallies skills, counts active findings per severity and lists the most severe first', () => {
    const bad = scanned(
      'skills/bad',
      [
        finding({ severity: 'low', pattern: 'R2', confidence: 0.99, line: 3, endLine: 3 }),
        finding({ severity: 'high', line: 12, endLine: 15 }),
        finding({ severity: 'medium', suppressed: { by: 'baseline', reason: 'accepted' } }),
      ],
      'risky',
    );
    const md = renderScanMarkdown(
      [
        scanned('skills/clean', [], 'pass'),
        bad,
        {
          path: 'skills/broken',
          name: null,
          error: { code: 'BINARY_SKILL_MD', message: 'SKILL.md is binary' },
        },
      ],
      'changed since main',
    );
    expect(md).toMatch(
      /^## SkillAudit scan: 3 skills \(🔴 1 risky, 🟡 0 caution, 🟢 1 pass, ⚠️ 1 not scanned\)/,
    );
    expect(md).toContain('changed since main');
    expect(md).toContain(
      `| \`skills/bad\` | 🔴 Risky | ${bad.scan!.decision.rating} | 1 | 0 | 1 | 1 suppressed |`,
    );
    expect(md).toMatch(/\| `skills\/broken` \| ⚠️ not scanned \|.*SKILL\.md is binary/);
    const high = md.indexOf('`skills/bad/scripts/sync.py:12-15`');
    const low = md.indexOf('`skills/bad/scripts/sync.py:3`');
    expect(high).toBeGreaterThan(0);
    expect(low).toBeGreaterThan(high);
    // The suppressed finding is counted in its skill's row but not listed among the findings.
    expect(md.match(/^\| (high|medium|low) \|/gm)).toHaveLength(2);
  });

  it('escapes hostile paths and messages: no HTML, links, mentions or broken table cells', () => {
    const md = renderScanMarkdown([
      scanned(
        'skills/x|`y`',
        [finding({ message: '<img src=x onerror=alert(1)> see https://evil.example @admin | cell' })],
        'risky',
      ),
    ]);
    expect(md).not.toContain('<img');
    expect(md).not.toContain('https://evil');
    expect(md).not.toContain('@admin');
    for (const row of md.split('\n').filter((l) => l.startsWith('| high'))) {
      // Five cells: every `|` inside a value is escaped.
      expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
    }
  });

  it('caps the findings table and says how many there were', () => {
    const many = Array.from({ length: 60 }, (_, i) => finding({ line: i + 1, endLine: i + 1 }));
    const md = renderScanMarkdown([scanned('skills/noisy', many, 'risky')]);
    expect(md).toContain('### Findings (the 50 most severe of 60)');
    expect(md.match(/^\| high \|/gm)).toHaveLength(50);
  });

  it('says plainly when nothing was scanned', () => {
    const md = renderScanMarkdown([], 'no skill changed since main');
    expect(md).toMatch(/^## SkillAudit scan: 0 skills/);
    expect(md).toContain('no skill changed since main');
    expect(md).not.toContain('| skill |');
  });
});
