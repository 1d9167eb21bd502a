import { type Command, InvalidArgumentError } from 'commander';
import { UserError } from '../util/errors.js';
import { VERSION } from '../version.js';
import { neighbourCount } from './estimate.js';
import { emit, oneOf, wholeNumber } from './output.js';

interface BuildFlags {
  out: string;
  profiles?: string;
}

interface EvalFlags {
  reference: string;
  holdout: number;
  seed: number;
  k: number;
  format: 'text' | 'json';
  out?: string;
}

function holdoutFraction(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1)
    throw new InvalidArgumentError('expected a fraction between 0 and 1, e.g. 0.2');
  return n;
}

/** `skillaudit reference build|eval`: reference sets for the execution-free estimate. */
export function registerReference(program: Command): void {
  const reference = program
    .command('reference')
    .description('Build and evaluate reference sets for the execution-free quality estimate');

  reference
    .command('build <corpus>')
    .description('Store the quality profile of every skill under a folder, archive or git repository')
    .requiredOption('-o, --out <db>', '(required) reference set file to write (SQLite)')
    .option(
      '--profiles <dir>',
      'import dynamic and rubric scores from audit report.json / quality JSON files',
    )
    .action(async (corpus: string, flags: BuildFlags) => {
      const [{ withSource }, { assertReplaceable, writeReferenceDb }, est, { printable }] = await Promise.all(
        [
          import('../intake/index.js'),
          import('../store/reference.js'),
          import('../quality/estimate/index.js'),
          import('../core/format.js'),
        ],
      );
      // Checked before the corpus is loaded, which can take a while; checked again when writing.
      assertReplaceable(flags.out);
      const imported = flags.profiles ? est.readProfiles(flags.profiles) : { profiles: [], warnings: [] };
      const { built, failed } = await withSource(corpus, undefined, async (handle) => {
        const loaded = handle.skills.flatMap((r) => (r.ok ? [r.skill] : []));
        const errors = handle.skills.flatMap((r) => (r.ok ? [] : [r.error.message]));
        return { built: est.buildReferenceSet(loaded, imported.profiles), failed: errors };
      });
      if (built.records.length === 0) {
        throw new UserError('NO_SKILL', `${corpus}: no skill could be loaded; nothing to store`);
      }
      writeReferenceDb(
        flags.out,
        { toolVersion: VERSION, createdAt: new Date().toISOString(), source: corpus },
        built.records,
      );
      for (const w of [...imported.warnings, ...built.warnings, ...failed])
        process.stderr.write(`warning: ${printable(w)}\n`);
      const categories = new Set(built.records.map((r) => r.category));
      const lines = [
        `${flags.out}: ${built.records.length} skills in ${categories.size} categories`,
        `  imported dynamic/rubric scores: ${built.importedSkills} skills`,
        ...(built.duplicates.length > 0 ? [`  identical copies left out: ${built.duplicates.length}`] : []),
        ...(failed.length > 0 ? [`  skills that could not be loaded: ${failed.length} (listed above)`] : []),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      // Like `quality`: 2 when a skill could not be loaded, after storing every other one.
      process.exitCode = failed.length > 0 ? 2 : 0;
    });

  reference
    .command('eval')
    .description(
      'Check the estimate against measured scores: hold out part of the reference set, estimate it from the rest, compare',
    )
    .requiredOption('-r, --reference <db>', '(required) reference set built by `skillaudit reference build`')
    .option('--holdout <fraction>', 'share of the skills held out', holdoutFraction, 0.2)
    .option('--seed <n>', 'seed of the holdout split', wholeNumber, 1)
    .option('-k, --k <n>', 'neighbours per estimate', neighbourCount, 5)
    .option('-f, --format <format>', 'text or json', oneOf(['text', 'json'] as const), 'text')
    .option('-o, --out <file>', 'write the tables to a file instead of stdout')
    .action(async (flags: EvalFlags) => {
      const [{ readReferenceDb }, est] = await Promise.all([
        import('../store/reference.js'),
        import('../quality/estimate/index.js'),
      ]);
      const { records } = readReferenceDb(flags.reference);
      if (records.length < 2) {
        throw new UserError(
          'USAGE',
          `${flags.reference}: a holdout needs at least two skills (the set has ${records.length})`,
        );
      }
      const result = est.evaluateHoldout(records.map(est.referenceSkill), flags);
      emit(
        flags.format === 'json'
          ? `${JSON.stringify({ version: 1, ...result }, null, 2)}\n`
          : est.renderEvaluationText(result),
        flags.out,
      );
    });
}
