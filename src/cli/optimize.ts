import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { printable } from '../core/format.js';
import type { Skill } from '../core/types.js';
import type { SkillResult } from '../intake/index.js';
import { UserError } from '../util/errors.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { oneOf, wholeNumber } from './output.js';

// `skillaudit optimize <source> --out DIR --model …` (SkillOpt): rewrites one skill's SKILL.md where its quality
// profile is weakest, keeps the best candidate that passes the guards, and writes a new folder, a diff and a
// report. The input is never modified; a risky skill is refused before any model request. See docs/optimize.md.

interface OptimizeFlags {
  out: string;
  rounds?: number;
  skill?: string;
  force?: boolean;
  format: 'text' | 'json';
  quiet?: boolean;
}

/** The one skill to optimise: the only one in the source, or the one `--skill` names (name or folder). */
function pickSkill(results: readonly SkillResult[], wanted: string | undefined): Skill {
  const label = (r: SkillResult) => printable(r.ok ? r.skill.name : r.path);
  const chosen = wanted
    ? results.filter((r) =>
        r.ok
          ? [r.skill.name, r.skill.folderName, r.skill.provenance.subdir].includes(wanted)
          : r.path === wanted,
      )
    : results;
  if (chosen.length === 0) {
    throw new UserError(
      'USAGE',
      `no skill "${wanted}" in the source; it holds: ${results.map(label).join(', ') || 'none'}`,
    );
  }
  if (chosen.length > 1) {
    throw new UserError(
      'USAGE',
      `the source holds ${chosen.length} skills (${chosen.map(label).join(', ')}); choose one with --skill <name>`,
    );
  }
  const only = chosen[0]!;
  if (!only.ok) throw new UserError(only.error.code, `${only.path}: ${only.error.message}`);
  return only.skill;
}

export function registerOptimize(program: Command): void {
  const command = program
    .command('optimize <source>')
    .description('Rewrite a skill guided by its weakest quality dimensions into a new folder')
    .requiredOption(
      '-o, --out <dir>',
      '(required) folder for the optimised skill, optimize.diff and optimize.json',
    )
    .option('--rounds <n>', 'rewrite rounds at most, one model call each (default 3)', wholeNumber)
    .option('--skill <name>', 'which skill, when the source holds several')
    .option('--force', 'write into a non-empty --out (replacing what a previous run wrote there)')
    .option(
      '-f, --format <format>',
      'text (before/after table) or json (optimize.json)',
      oneOf(['text', 'json'] as const),
      'text',
    )
    .option('-q, --quiet', 'no progress output');
  addModelOptions(command);
  addLimitOptions(command);
  command.action(async (source: string, flags: OptimizeFlags & Record<string, unknown>) => {
    // Loaded on use, so other commands never pay for the model layer.
    const [{ withSource }, model, optimize, { colorsFor }] = await Promise.all([
      import('../intake/index.js'),
      import('../model/index.js'),
      import('../quality/optimize/index.js'),
      import('../report/index.js'),
    ]);
    const settings = model.resolveModelSettings(modelFlags(flags));
    if (!settings)
      throw new UserError('USAGE', 'optimize needs a model to rewrite the skill: pass --model provider/name');
    if (flags.rounds === 0) throw new UserError('USAGE', '--rounds must be at least 1');
    const say = (line: string) => {
      // Progress quotes skill text (names, rejected lines): escaped so it cannot drive the terminal.
      if (!flags.quiet) process.stderr.write(`${printable(line)}\n`);
    };
    const local = existsSync(source) ? [resolve(source)] : [];

    const stopped = await withSource(source, { limits: limitsFromOptions(flags) }, async (handle) => {
      const skill = pickSkill(handle.skills, flags.skill);
      const out = optimize.checkOutDir(flags.out, [...local, skill.root], flags.force === true);
      const client = model.createModelClient(settings);
      try {
        const result = await optimize.optimizeSkill(client, skill, {
          ...(flags.rounds ? { rounds: flags.rounds } : {}),
          onProgress: (line) => say(`${skill.name}: ${line}`),
        });
        const extra = {
          model: model.describeSettings(settings),
          roundsAllowed: flags.rounds ?? optimize.DEFAULT_ROUNDS,
          warnings: client.warnings,
        };
        const written = await optimize.writeOutput(out, result, flags.force === true, extra);
        if (flags.format === 'json') {
          process.stdout.write(`${JSON.stringify(written.report, null, 2)}\n`);
        } else {
          process.stdout.write(optimize.renderOptimizeTable(result, colorsFor(process.stdout)));
          process.stdout.write(
            `written: ${written.skillDir}, ${optimize.DIFF_FILE}, ${optimize.REPORT_FILE}\n`,
          );
        }
        return result.stopped;
      } finally {
        client.close();
      }
    });
    // A model failure or the cost cap cut the loop short: what was done is written, the exit code says so.
    if (stopped.reason === 'model_error' || stopped.reason === 'cost_cap') {
      process.stderr.write(`skillaudit: optimize stopped early: ${stopped.message}\n`);
      process.exitCode = 2;
    }
  });
}
