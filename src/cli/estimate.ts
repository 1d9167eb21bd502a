import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registered so that the command's owner can fill it in without touching main.ts.
export function registerEstimate(program: Command): void {
  program
    .command('estimate <source>')
    .description('Execution-free quality estimate from the most similar skills of a reference set')
    .action(() => {
      throw new UserError('USAGE', 'estimate is not available in this build yet');
    });
}
