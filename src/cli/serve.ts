import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registered so that the command's owner can fill it in without touching main.ts.
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the SkillAudit web service: submit audits, poll them, look up reports, report pages')
    .action(() => {
      throw new UserError('USAGE', 'serve is not available in this build yet');
    });
}
