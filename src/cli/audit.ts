import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { SEVERITY_RANK } from '../scan/taxonomy.js';
import type { Severity } from '../types.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { emit, oneOf, positiveInt } from './output.js';

interface AuditFlags {
  out: string;
  format: 'text' | 'json' | 'md' | 'html';
  detonate: boolean;
  maxRuns?: number;
  runTimeout?: number;
  failOn: Severity | 'none';
  quiet?: boolean;
}

export function registerAudit(program: Command): void {
  const command = program
    .command('audit <source>')
    .description(
      "Full audit without an API key: static scan, the skill's scripts run in a sandbox with canary secrets, quality profile, report",
    )
    .option('-o, --out <dir>', 'run folder root (every artifact is kept there)', '.skillaudit/runs')
    .option(
      '-f, --format <format>',
      'text or json (the report; JSON Lines when the source holds several skills)',
      oneOf(['text', 'json'] as const),
      'text',
    )
    .option('--no-detonate', "do not run the skill's scripts (static analysis only)")
    .option('--max-runs <n>', 'sandbox runs per skill (default 24)', positiveInt)
    .option('--run-timeout <seconds>', 'wall-clock limit of each sandbox run (default 15)', positiveInt)
    .option(
      '--fail-on <severity>',
      'exit 1 when an unsuppressed finding at or above this severity remains (high, medium, low, none)',
      oneOf(['high', 'medium', 'low', 'none'] as const),
      'none',
    )
    .option('-q, --quiet', 'no progress output');
  addLimitOptions(command);
  command.action(async (source: string, flags: AuditFlags & Record<string, unknown>) => {
    // Loaded on use: the audit pulls in the sandbox and the report renderers, which other commands never need.
    const [{ runAudit }, { colorsFor }, { renderReportText }] = await Promise.all([
      import('../pipeline/audit.js'),
      import('../report/colors.js'),
      import('../report/report-text.js'),
    ]);
    const showProgress = !flags.quiet && process.stderr.isTTY;
    const outcomes = await runAudit(source, {
      out: flags.out,
      intake: { limits: limitsFromOptions(flags) },
      detonate: flags.detonate,
      detonation: {
        ...(flags.maxRuns !== undefined ? { maxRuns: flags.maxRuns } : {}),
        ...(flags.runTimeout !== undefined ? { limits: { wallMs: flags.runTimeout * 1000 } } : {}),
      },
      ...(showProgress
        ? { onStage: (skill: string, stage: string) => process.stderr.write(`\r\x1b[K${skill}: ${stage}…`) }
        : {}),
    });
    if (showProgress) process.stderr.write('\r\x1b[K');
    const colors = colorsFor(process.stdout);
    let text = '';
    for (const o of outcomes) {
      if (o.error) {
        process.stderr.write(`skillaudit: ${o.path}: ${o.error.message}\n`);
      } else if (o.report && o.runDir) {
        if (flags.format === 'json')
          text += `${JSON.stringify(o.report, null, outcomes.length > 1 ? undefined : 2)}\n`;
        else if (flags.format === 'md') text += readFileSync(join(o.runDir, 'report.md'), 'utf8');
        else if (flags.format === 'html') text += readFileSync(join(o.runDir, 'report.html'), 'utf8');
        else
          text += `${renderReportText(o.report, colors)}\nArtifacts: ${o.runDir} (report.html, report.json, evidence/)\n\n`;
      }
    }
    emit(text, undefined);
    const gate = flags.failOn === 'none' ? Number.POSITIVE_INFINITY : SEVERITY_RANK[flags.failOn];
    const blocking = outcomes.some((o) =>
      o.report?.safety.findings.some((f) => !f.suppressed && SEVERITY_RANK[f.severity] >= gate),
    );
    process.exitCode = outcomes.some((o) => o.error) ? 2 : blocking ? 1 : 0;
  });
}
