import { resolve } from 'node:path';
import type { Command } from 'commander';
import { printable } from '../core/format.js';
import type { Finding, Skill } from '../core/types.js';
import { type EvalResult, evaluate, loadLabelSet, renderEvalText } from '../scan/evaluate/index.js';
import { errorMessage, UserError } from '../util/errors.js';

/** What the command needs from intake and the scanner; tests pass fakes, the CLI passes the real ones. */
export interface EvalScannerDeps {
  openSource(source: string): Promise<{
    skills: ({ ok: true; skill: Skill } | { ok: false; path: string; error: unknown })[];
    dispose(): Promise<void> | void;
  }>;
  scanSkill(skill: Skill): Promise<{ findings: Finding[] }>;
}

export interface EvalScannerReport extends EvalResult {
  /** Skills that could not be loaded or scanned, with the reason; their labels count as misses. */
  errors: Record<string, string>;
}

/** Loads every skill named in `<setDir>/labels.json`, scans it and scores the findings against the labels. */
export async function runEvalScanner(setDir: string, deps: EvalScannerDeps): Promise<EvalScannerReport> {
  const labels = loadLabelSet(setDir);
  const findingsBySkill: Record<string, Finding[]> = {};
  const errors: Record<string, string> = {};
  for (const folder of Object.keys(labels.skills)) {
    try {
      findingsBySkill[folder] = await scanFolder(resolve(setDir, folder), deps);
    } catch (error) {
      errors[folder] = errorMessage(error);
    }
  }
  return { ...evaluate(labels, findingsBySkill), errors };
}

// A labeled folder must hold exactly one skill at its root: anything else means the set and the labels disagree.
async function scanFolder(dir: string, deps: EvalScannerDeps): Promise<Finding[]> {
  const source = await deps.openSource(dir);
  try {
    if (source.skills.length !== 1)
      throw new Error(`expected one skill, intake found ${source.skills.length}`);
    const loaded = source.skills[0]!;
    if (!loaded.ok) throw new Error(`intake failed for ${loaded.path}: ${errorMessage(loaded.error)}`);
    return (await deps.scanSkill(loaded.skill)).findings;
  } finally {
    await source.dispose();
  }
}

/** Renders the report; skills that failed to load are listed first, so degraded figures are never silent. */
export function renderEvalScannerText(report: EvalScannerReport, verbose: boolean): string {
  const failed = Object.entries(report.errors).map(
    ([skill, why]) => `  ${printable(skill)}: ${printable(why)}`,
  );
  const head = failed.length > 0 ? `Skills that could not be scanned:\n${failed.join('\n')}\n\n` : '';
  return head + renderEvalText(report, verbose);
}

export function registerEvalScanner(program: Command): void {
  program
    .command('eval-scanner <set>')
    .description(
      'Measure the static scanner on a labelled set (a folder of skills plus labels.json): how many labelled risks it finds and how many false alarms it raises, per risk pattern',
    )
    .option('--format <format>', 'text or json', 'text')
    .option('--verbose', 'list every missed label (FN) and false alarm (FP) per skill', false)
    .action(async (set: string, options: { format: string; verbose: boolean }) => {
      if (options.format !== 'text' && options.format !== 'json') {
        throw new UserError('USAGE', `--format must be text or json, got ${JSON.stringify(options.format)}`);
      }
      // Loaded on use: registering the command must not load intake, parsers and rules for every CLI call.
      const [{ openSource }, { scanSkill }] = await Promise.all([
        import('../intake/index.js'),
        import('../scan/index.js'),
      ]);
      const report = await runEvalScanner(set, { openSource: (source) => openSource(source), scanSkill });
      const output =
        options.format === 'json'
          ? // Versioned like every other JSON the CLI prints: consumers check `version` first.
            `${JSON.stringify({ version: 1, ...report }, null, 2)}\n`
          : renderEvalScannerText(report, options.verbose);
      process.stdout.write(output);
      // Figures computed with skills missing are not the set's figures: say so in the exit code too.
      if (Object.keys(report.errors).length > 0) process.exitCode = 2;
    });
}
