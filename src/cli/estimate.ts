import { type Command, InvalidArgumentError } from 'commander';
import type { EstimateResult } from '../quality/estimate/index.js';
import { emit, oneOf } from './output.js';

interface EstimateFlags {
  reference: string;
  k: number;
  format: 'text' | 'json';
  out?: string;
}

/** `-k`: at least one neighbour, at most a number that still reads as a neighbourhood. */
export function neighbourCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new InvalidArgumentError('expected an integer from 1 to 1000');
  return n;
}

/** `skillaudit estimate <source> --reference ref.db`: the execution-free quality estimate of every skill in the source. */
export function registerEstimate(program: Command): void {
  program
    .command('estimate <source>')
    .description('Execution-free quality estimate from the most similar skills of a reference set')
    .requiredOption('-r, --reference <db>', '(required) reference set built by `skillaudit reference build`')
    .option('-k, --k <n>', 'neighbours per estimate', neighbourCount, 5)
    .option('-f, --format <format>', 'text or json', oneOf(['text', 'json'] as const), 'text')
    .option('-o, --out <file>', 'write the estimate to a file instead of stdout')
    .action(async (source: string, flags: EstimateFlags) => {
      const [{ withSource }, { readReferenceDb }, est] = await Promise.all([
        import('../intake/index.js'),
        import('../store/reference.js'),
        import('../quality/estimate/index.js'),
      ]);
      // The reference set is checked before the source is loaded: a wrong --reference fails fast.
      const { meta, records } = readReferenceDb(flags.reference);
      const skills = records.map(est.referenceSkill);
      const estimator = new est.Estimator(skills, est.RETRIEVAL_METHODS['tfidf-knn'], { k: flags.k });
      const results = await withSource(source, undefined, async (handle) =>
        handle.skills.map(
          (r): EstimateResult =>
            r.ok ? est.estimateSkill(r.skill, estimator) : { path: r.path, error: r.error },
        ),
      );
      const notes = est.referenceNotes(skills);
      const text =
        flags.format === 'json'
          ? `${JSON.stringify(
              {
                version: 1,
                reference: {
                  path: flags.reference,
                  skills: skills.length,
                  source: meta.source,
                  createdAt: meta.createdAt,
                },
                method: estimator.method.id,
                k: estimator.k,
                categoryBoost: estimator.categoryBoost,
                skills: results,
                notes,
              },
              null,
              2,
            )}\n`
          : est.renderEstimateText(results, notes);
      emit(text, flags.out);
      process.exitCode = results.some((r) => 'error' in r) ? 2 : 0;
    });
}
