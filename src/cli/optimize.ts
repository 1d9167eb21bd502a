import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registered so that the command's owner can fill it in without touching main.ts.
export function registerOptimize(program: Command): void {
  program
    .command('optimize <source>')
    .description('Rewrite a skill guided by its weakest quality dimensions into a new folder (SkillOpt)')
    .action(() => {
      throw new UserError('USAGE', 'optimize is not available in this build yet');
    });
}
