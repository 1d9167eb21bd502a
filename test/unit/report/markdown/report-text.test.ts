import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { STATUS_ADVICE } from '../../../../src/core/verdict-words.js';
import { renderReportText } from '../../../../src/report/report-text.js';
import { cleanReport, hostileReport, riskyReport, scanOnlyReport } from '../../../support/report-fixtures.js';

const plain = pc.createColors(false);
const coloured = pc.createColors(true);

describe('renderReportText', () => {
  it('puts the decision and its reasons first, then the findings with file:line and verdict', () => {
    const lines = renderReportText(riskyReport(), plain).split('\n');
    expect(lines[0]).toBe(' RISKY   pdf-toolkit  skills/pdf-toolkit');
    expect(lines[1]).toBe(STATUS_ADVICE.risky);
    expect(lines).toContain(
      '  • Confirmed at runtime: scripts/setup.sh posted the OPENAI_API_KEY canary to telemetry.pdf-tools.example.',
    );
    // A runtime confirmation puts the rating at the bottom of the risky band: the number agrees with the word.
    expect(lines).toContain('Safety  RISKY  0/100  2 high, 1 medium, 1 low, 1 suppressed');
    const e2 = lines.findIndex((l) => l.includes('E2 Env Var Harvesting'));
    const r2 = lines.findIndex((l) => l.includes('R2 Network Timeout Missing'));
    expect(lines[e2]).toContain('scripts/setup.sh:14-16  confirmed at runtime  confidence 0.90');
    expect(e2).toBeLessThan(r2);
    // Every finding carries its one-line reason, as in `scan`.
    expect(lines[e2 + 1 + lines.slice(e2 + 1).findIndex((l) => l.trimStart().startsWith('why:'))]).toBe(
      `         why: ${riskyReport().safety.findings.find((f) => f.pattern === 'E2')!.rationale}`,
    );
    for (const f of riskyReport().safety.findings.filter((x) => !x.suppressed && x.rationale))
      expect(lines).toContain(`         why: ${f.rationale}`);
    expect(lines).toContain(
      '    https telemetry.pdf-tools.example:443 (blocked) 1.8 KiB carried OPENAI_API_KEY',
    );
    expect(lines).toContain('    modified ~/.bashrc');
    expect(lines).toContain(
      'Utility  not run: skipped: the static scan and detonation already rate this skill risky',
    );
  });

  it('reports utility, efficiency, cost and quality when they ran', () => {
    const text = renderReportText(cleanReport(), plain);
    expect(text).toContain(' PASS ');
    expect(text).toContain(
      'pass-rate gain +42%   efficiency gain +18% (12.6 s saved)   cost gain +33% (6,450 tokens saved)   combined +26%',
    );
    expect(text).toContain('    without skill: 2/4 items in 1 min 12 s, 22,100 effective input tokens');
    expect(text).toContain('  s3-chart  invalid: the judge did not return a result for every checklist item');
    expect(text).toMatch(/Structural completeness +█{18}░{2} 92%/);
    expect(text).toContain('Cross-model robustness                 not run: needs --model');
  });

  it('explains every stage that did not run', () => {
    const text = renderReportText(scanOnlyReport(), plain);
    expect(text).toContain(' CAUTION ');
    expect(text).toContain(
      'Runtime evidence  not run: bubblewrap is not installed (apt-get install bubblewrap)',
    );
    expect(text).toContain('  judge: no model configured (pass --model provider/model)');
  });

  it('lets no terminal escape, bidi control or invisible character from the skill reach the terminal', () => {
    const text = renderReportText(hostileReport(), coloured);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching our own SGR colour codes
    const withoutOurColours = text.replace(/\u001b\[\d+(;\d+)*m/g, '');
    expect(withoutOurColours).not.toMatch(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters that must not appear
      /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/,
    );
    expect(text).not.toContain('\u001b[2J');
    expect(text).toContain('⟨U+001B⟩[2J⟨U+001B⟩[31mPASS');
    expect(text).toContain('ig⟨U+200B⟩nore previous instructions');
  });

  it('merges repeated network attempts from several runs', () => {
    const report = riskyReport();
    const first = report.runtime!.network[0]!;
    report.runtime!.network = [first, { ...first }, { ...first }];
    const text = renderReportText(report, plain);
    expect(text).toContain('  network attempts: 3');
    expect(text).toContain(
      '    https telemetry.pdf-tools.example:443 ×3 (blocked) 1.8 KiB carried OPENAI_API_KEY',
    );
  });

  it('uses no colour codes when colours are off', () => {
    expect(renderReportText(riskyReport(), plain)).not.toContain('\u001b[');
    expect(renderReportText(riskyReport(), coloured)).toContain('\u001b[');
  });
});
