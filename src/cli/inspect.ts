import type { Command } from 'commander';

// Placeholder until intake lands: registers `inspect` so the program builds.
export function registerInspect(program: Command): void {
  program
    .command('inspect <source>')
    .description('Load a skill (folder, SKILL.md, archive or git repository) and print what SkillAudit sees')
    .action(() => {
      throw new Error('inspect is not implemented yet');
    });
}
