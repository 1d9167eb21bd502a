import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { type AgentFlags, addAgentOptions, agentList } from './agent-options.js';
import { addGateOptions, type Gate, gateExitCode } from './gate.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { emit, oneOf, positiveInt } from './output.js';
import { createProgress } from './progress.js';
import { addIndicatorsOption, userIndicatorLists } from './rules.js';

interface AuditFlags extends AgentFlags {
  out: string;
  format: 'text' | 'json' | 'md' | 'html';
  detonate: boolean;
  maxRuns?: number;
  runTimeout?: number;
  failOn: Gate['failOn'];
  failOnFinding?: Gate['failOnFinding'];
  quiet?: boolean;
  concurrency: number;
  indicators?: string[];
}

export function registerAudit(program: Command): void {
  const command = program
    .command('audit <source>')
    .description(
      "Full audit: static scan, the skill's scripts run in a sandbox with canary secrets, quality profile, report; with --model also generated scenarios, paired with/without-skill agent runs, judge, utility scores and security probes",
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
    .option('-q, --quiet', 'no progress output')
    .option('--concurrency <n>', 'agent trials running at once', positiveInt, 2);
  addGateOptions(command);
  addAgentOptions(command);
  addModelOptions(command);
  addLimitOptions(command);
  addIndicatorsOption(command);
  command.action(async (source: string, flags: AuditFlags & Record<string, unknown>) => {
    // Loaded on use: the audit pulls in the sandbox and the report renderers, which other commands never need.
    const [{ runAudit }, { colorsFor, renderReportText }] = await Promise.all([
      import('../pipeline/index.js'),
      import('../report/index.js'),
    ]);
    const progress = createProgress(process.stderr, flags.quiet === true);
    const { resolveJudgeSettings, resolveModelSettings } = await import('../model/index.js');
    const settings = resolveModelSettings(modelFlags(flags));
    if (!settings && typeof flags.judgeModel === 'string')
      throw new UserError('USAGE', '--judge-model needs --model: the schemes and the agents use --model');
    const judgeSettings = settings && resolveJudgeSettings(settings, modelFlags(flags));
    if (settings && (flags.scenarios < 1 || flags.concurrency < 1))
      throw new UserError('USAGE', '--scenarios and --concurrency must be at least 1');
    const indicatorLists = await userIndicatorLists(flags.indicators);
    const outcomes = await runAudit(source, {
      ...(indicatorLists.length ? { scan: { indicatorLists } } : {}),
      ...(settings
        ? {
            model: {
              settings,
              ...(judgeSettings ? { judgeSettings } : {}),
              agents: agentList(flags),
              scenarios: flags.scenarios,
              concurrency: flags.concurrency,
              alpha: flags.alpha,
              ...(flags.agentTimeout !== undefined ? { limits: { wallMs: flags.agentTimeout * 1000 } } : {}),
              ...(flags.qualityRuns !== undefined ? { qualityRuns: flags.qualityRuns } : {}),
            },
          }
        : {}),
      out: flags.out,
      intake: { limits: limitsFromOptions(flags) },
      detonate: flags.detonate,
      detonation: {
        ...(flags.maxRuns !== undefined ? { maxRuns: flags.maxRuns } : {}),
        ...(flags.runTimeout !== undefined ? { limits: { wallMs: flags.runTimeout * 1000 } } : {}),
      },
      onStage: (skill: string, stage: string) => progress.stage(skill, stage),
    });
    progress.end();
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
    process.exitCode = gateExitCode(
      outcomes.some((o) => o.error),
      outcomes.map((o) =>
        o.report ? { status: o.report.safety.status, findings: o.report.safety.findings } : {},
      ),
      flags,
    );
  });
}
