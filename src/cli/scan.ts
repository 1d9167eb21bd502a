import type { Command } from 'commander';
import type { SkillScanResult } from '../scan/scan-source.js';
import type { Baseline } from '../scan/suppress.js';
import { UserError } from '../util/errors.js';
import { type FailOn, gateExitCode } from './gate.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { emit, oneOf, positiveInt, progressReporter, unitInterval } from './output.js';

interface ScanFlags {
  format: 'text' | 'json' | 'sarif';
  out?: string;
  failOn: FailOn;
  minConfidence: number;
  baseline?: string;
  writeBaseline?: string;
  inlineIgnore: boolean;
  workers?: number;
  quiet?: boolean;
}

export function registerScan(program: Command): void {
  const command = program
    .command('scan <source...>')
    .description('Static safety scan of one skill or every skill under a folder, archive or git repository')
    .option('-f, --format <format>', 'text, json or sarif', oneOf(['text', 'json', 'sarif'] as const), 'text')
    .option('-o, --out <file>', 'write the report to a file instead of stdout')
    .option(
      '--fail-on <severity>',
      'exit 1 when an unsuppressed finding at or above this severity remains (high, medium, low, none)',
      oneOf(['high', 'medium', 'low', 'none'] as const),
      'high',
    )
    .option(
      '--min-confidence <n>',
      'findings below this confidence do not trigger --fail-on',
      unitInterval,
      0.5,
    )
    .option('--baseline <file>', 'accepted findings (JSON) to mark as suppressed')
    .option('--write-baseline <file>', 'write the current findings as a baseline to edit with reasons')
    .option('--no-inline-ignore', 'do not honour skillaudit-ignore comments inside the skill')
    .option('--workers <n>', 'worker threads (default: all cores)', positiveInt)
    .option('-q, --quiet', 'no progress output');
  addLimitOptions(command);
  addModelOptions(command);
  command.action(async (sources: string[], flags: ScanFlags & Record<string, unknown>) => {
    // Loaded on use, so that `--help` and other commands start fast.
    const [
      { colorsFor },
      { toSarif },
      { toScanJson },
      { renderScanText },
      { ALL_DETECTORS },
      { scanSource },
      suppress,
    ] = await Promise.all([
      import('../report/colors.js'),
      import('../report/sarif.js'),
      import('../report/scan-json.js'),
      import('../report/scan-text.js'),
      import('../scan/engine.js'),
      import('../scan/scan-source.js'),
      import('../scan/suppress.js'),
    ]);
    const { loadBaseline, writeBaseline } = suppress;
    const baseline: Baseline | undefined = flags.baseline ? loadBaseline(flags.baseline) : undefined;
    const results: SkillScanResult[] = [];
    for (const source of sources) {
      results.push(
        ...(await scanSource(source, {
          intake: { limits: limitsFromOptions(flags) },
          ...(baseline ? { baseline } : {}),
          honourInline: flags.inlineIgnore,
          ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
          onProgress: progressReporter('scanning', flags.quiet === true),
        })),
      );
    }
    // The optional model review runs after the rules, on the main thread, so one client holds one cost cap.
    if (typeof flags.model === 'string') await reviewResults(results, flags);
    if (flags.writeBaseline) {
      writeBaseline(
        flags.writeBaseline,
        results.flatMap((r) => (r.scan ? [{ skill: r.name ?? r.path, findings: r.scan.findings }] : [])),
      );
    }
    const text =
      flags.format === 'json'
        ? `${JSON.stringify(toScanJson(results), null, 2)}\n`
        : flags.format === 'sarif'
          ? `${JSON.stringify(
              toSarif(
                results,
                ALL_DETECTORS.flatMap((d) => d.rules),
              ),
              null,
              2,
            )}\n`
          : renderScanText(results, colorsFor(flags.out ? null : process.stdout));
    emit(text, flags.out);
    process.exitCode = gateExitCode(
      results.some((r) => r.error),
      results.map((r) => r.scan?.findings),
      flags.failOn,
      flags.minConfidence,
    );
  });
}

/** Runs the model review over each scanned skill and rescores it; what could not be reviewed becomes a note. */
async function reviewResults(results: SkillScanResult[], flags: Record<string, unknown>): Promise<void> {
  const [{ resolveModelSettings, createModelClient }, { reviewFindings }, { safetyScore, safetyStatus }] =
    await Promise.all([
      import('../model/index.js'),
      import('../scan/review.js'),
      import('../score/safety.js'),
    ]);
  const settings = resolveModelSettings(modelFlags(flags));
  if (!settings)
    throw new UserError('USAGE', '--model needs a provider/name, e.g. anthropic/claude-sonnet-4-6');
  const client = createModelClient(settings);
  try {
    for (const r of results) {
      if (!r.skill || !r.scan) continue;
      const reviewed = await reviewFindings(r.skill, r.scan.findings, client);
      const active = reviewed.findings.filter((f) => !f.suppressed);
      r.scan.findings = reviewed.findings;
      r.scan.safetyScore = safetyScore(active);
      r.scan.status = safetyStatus(r.scan.safetyScore);
      if (reviewed.notRun) r.scan.notes.push(reviewed.notRun);
    }
  } finally {
    client.close();
  }
}
