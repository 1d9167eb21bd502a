import { join } from 'node:path';
import type { Command } from 'commander';
import type { Skill } from '../core/types.js';
import { errorMessage, UserError } from '../util/errors.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { positiveInt } from './output.js';

// `skillaudit tasks export <source> --out DIR --model …`: utility scenarios from a model, compiled into
// Harbor task pairs (with and without the skill) so users with Harbor and Docker can run them there.

interface ExportFlags {
  out: string;
  scenarios: number;
  baseImage?: string;
  quiet?: boolean;
}

export function registerTasks(program: Command): void {
  const tasks = program
    .command('tasks')
    .description('Benchmark task folders (the Harbor format) generated from a skill');
  const command = tasks
    .command('export <source>')
    .description(
      'Generate utility scenarios with a model and write each as two benchmark task folders (Harbor format), with and without the skill',
    )
    .requiredOption('-o, --out <dir>', '(required) folder for the tasks (one sub-folder per skill)')
    .option('--scenarios <n>', 'scenarios per skill', positiveInt, 3)
    .option('--base-image <image>', 'Docker base image of the task environment (default python:3.12-slim)')
    .option('-q, --quiet', 'no progress output');
  addModelOptions(command);
  addLimitOptions(command);
  command.action(async (source: string, flags: ExportFlags & Record<string, unknown>) => {
    // Loaded on use, so other commands never pay for the model layer.
    const [{ withSource }, model, schemes, { exportTasks, slug }] = await Promise.all([
      import('../intake/index.js'),
      import('../model/index.js'),
      import('../schemes/index.js'),
      import('../tasks/index.js'),
    ]);
    const settings = model.resolveModelSettings(modelFlags(flags));
    if (!settings) {
      throw new UserError(
        'USAGE',
        'tasks export needs a model to write scenarios: pass --model provider/name',
      );
    }
    if (flags.scenarios < 1) throw new UserError('USAGE', '--scenarios must be at least 1');
    const client = model.createModelClient(settings);
    const say = (text: string) => {
      if (!flags.quiet) process.stderr.write(`${text}\n`);
    };
    let failures = 0;
    const exportSkill = async (skill: Skill) => {
      const skillDir = join(flags.out, `${slug(skill.name || skill.folderName)}-${skill.id.slice(0, 8)}`);
      say(`${skill.name}: writing ${flags.scenarios} scenarios with ${model.formatModelSpec(client.spec)}`);
      const utility = await schemes.generateUtilityScheme(client, skill, { scenarios: flags.scenarios });
      await schemes.writeSchemes(skillDir, utility, { probes: [], missing: [] });
      for (const d of utility.dropped) {
        process.stderr.write(
          `skillaudit: ${skill.name}: scenario ${d.scenario} left out: ${d.problems.join('; ')}\n`,
        );
      }
      const exported = await exportTasks(join(skillDir, 'tasks'), skill, utility, {
        ...(flags.baseImage ? { baseImage: flags.baseImage } : {}),
      });
      process.stdout.write(
        `${join(skillDir, 'tasks')}: ${exported.length} tasks (${utility.scenarios.length} pairs)\n`,
      );
    };
    try {
      await withSource(source, { limits: limitsFromOptions(flags) }, async (handle) => {
        for (const [i, result] of handle.skills.entries()) {
          if (!result.ok) {
            failures++;
            process.stderr.write(`skillaudit: ${result.path}: ${result.error.message}\n`);
            continue;
          }
          const skill = result.skill;
          try {
            await exportSkill(skill);
          } catch (error) {
            failures++;
            process.stderr.write(`skillaudit: ${skill.name}: ${errorMessage(error)}\n`);
            if (error instanceof model.BudgetExceeded) {
              const left = handle.skills.length - i - 1;
              if (left > 0)
                process.stderr.write(`skillaudit: ${left} more skill(s) not exported: cost cap reached\n`);
              break;
            }
          }
        }
      });
    } finally {
      client.close();
    }
    if (failures > 0) process.exitCode = 2;
  });
}
