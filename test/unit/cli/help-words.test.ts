import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';

// `--help` speaks to someone who has not read the papers: no paper tables, no method code names; required
// options say so; counts that cannot be zero are refused with a message.

const PAPER_WORDS =
  /seed 00\d|\bTables? [0-9A]|SkillCT|SkillOpt|\bECG\b|\bPRG\b|TF-IDF|\(ours\)|rubric \(Table/;

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

function helpOf(command: Command): string {
  // Unwrapped, so that a phrase split across lines by the terminal width still matches.
  return command.helpInformation().replace(/\s+/g, ' ');
}

async function run(argv: string[]): Promise<{ error: string; code: number | undefined }> {
  const program = buildProgram();
  let error = '';
  for (const c of allCommands(program))
    c.configureOutput({ writeErr: (s) => (error += s), writeOut: () => {} });
  try {
    await program.parseAsync(['node', 'skillaudit', ...argv]);
    return { error, code: 0 };
  } catch (e) {
    return { error, code: (e as { exitCode?: number }).exitCode };
  }
}

describe('--help', () => {
  it('names no paper table or method code name in any command', () => {
    const commands = allCommands(buildProgram());
    expect(commands.length).toBeGreaterThan(10);
    for (const c of commands) expect(helpOf(c), c.name()).not.toMatch(PAPER_WORDS);
  });

  it('marks every mandatory option as required', () => {
    const commands = allCommands(buildProgram());
    const mandatory = commands.flatMap((c) =>
      c.options.filter((o) => o.mandatory).map((o) => ({ c, flags: o.flags, description: o.description })),
    );
    expect(mandatory.map((m) => m.flags)).toEqual(
      expect.arrayContaining(['-o, --out <db>', '-r, --reference <db>']),
    );
    for (const m of mandatory) expect(m.description, `${m.c.name()} ${m.flags}`).toMatch(/^\(required\)/);
  });

  it('shows byte sizes in units, not raw byte counts', () => {
    const serve = buildProgram().commands.find((c) => c.name() === 'serve')!;
    expect(helpOf(serve)).toContain('(default: 50M)');
    expect(helpOf(serve)).not.toMatch(/\d{7,}/);
  });
});

describe('invalid counts', () => {
  it.each([
    ['scan', '--workers', '0'],
    ['audit', '--max-runs', '0'],
    ['audit', '--concurrency', '0'],
    ['audit', '--run-timeout', '-3'],
    ['scan', '--workers', '1.5'],
  ])('%s %s %s is refused with a message', async (command, flag, value) => {
    const { error, code } = await run([command, flag, value, '.']);
    expect(code).not.toBe(0);
    expect(error).toMatch(
      new RegExp(
        `${flag} <[a-z]+>' argument '${value.replace('.', '\\.')}' is invalid\\. expected a whole number of 1 or more`,
      ),
    );
  });

  it('accepts zero where zero means something (no extra runs, seed 0)', async () => {
    const { error } = await run([
      'reference',
      'eval',
      '--seed',
      '0',
      '--reference',
      '/nonexistent/ref.sqlite',
    ]);
    expect(error).not.toContain('is invalid');
  });
});
