import type { Command } from 'commander';
import type { QualitySkillResult } from '../quality/index.js';
import { emit, oneOf } from './output.js';

interface QualityFlags {
  format: 'text' | 'json';
  out?: string;
}

/** `skillaudit quality <source>`: the static quality profile of every skill in the source. */
export function registerQuality(program: Command): void {
  program
    .command('quality <source>')
    .description(
      'Quality profile of one skill or every skill under a folder, archive or git repository: how complete, concise, consistent and robust it is, as percentages',
    )
    .option('-f, --format <format>', 'text or json', oneOf(['text', 'json'] as const), 'text')
    .option('-o, --out <file>', 'write the profile to a file instead of stdout')
    .action(async (source: string, flags: QualityFlags) => {
      // Loaded on use, so that `--help` and other commands start fast.
      const [{ withSource }, { staticQualityProfile, renderQualityText }, { colorsFor }] = await Promise.all([
        import('../intake/index.js'),
        import('../quality/index.js'),
        import('../report/index.js'),
      ]);
      const results = await withSource(source, undefined, async (handle) =>
        handle.skills.map(
          (r): QualitySkillResult =>
            r.ok
              ? {
                  path: r.skill.provenance.subdir,
                  name: r.skill.name,
                  quality: staticQualityProfile(r.skill),
                }
              : { path: r.path, error: r.error },
        ),
      );
      const text =
        flags.format === 'json'
          ? `${JSON.stringify({ version: 1, skills: results }, null, 2)}\n`
          : renderQualityText(results, colorsFor(flags.out ? null : process.stdout));
      emit(text, flags.out);
      // 2 when a skill could not be loaded (after printing every other skill's profile).
      process.exitCode = results.some((r) => 'error' in r) ? 2 : 0;
    });
}
