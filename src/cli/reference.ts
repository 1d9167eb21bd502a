import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registered so that the command's owner can fill it in without touching main.ts.
export function registerReference(program: Command): void {
  program
    .command('reference')
    .description('Build and evaluate reference sets for the execution-free quality estimate')
    .action(() => {
      throw new UserError('USAGE', 'reference is not available in this build yet');
    });
}
