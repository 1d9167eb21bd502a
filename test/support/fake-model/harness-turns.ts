// Scripted with-skill turns for each agent, in the tool names and inputs its harness really offers: load the
// skill the harness's way, run each command with its shell tool, then say it is done. Shared by the pipeline
// tests of the harness CLIs and the harness benchmark (bench/harness-trials.ts).
import type { AgentName } from '../../../src/agents/index.js';
import type { FakeTurn } from '../fake-model-server.js';

const LOAD: Record<AgentName, (skill: string) => FakeTurn> = {
  builtin: (skill) => ({ toolCalls: [{ name: 'skill', input: { name: skill } }] }),
  'claude-code': (skill) => ({ toolCalls: [{ name: 'Skill', input: { skill } }] }),
  // Codex has no skill tool: it lists the skill's path and the model reads SKILL.md through the shell.
  codex: (skill) => ({
    toolCalls: [{ name: 'exec_command', input: { cmd: `cat .agents/skills/${skill}/SKILL.md` } }],
  }),
  opencode: (skill) => ({ toolCalls: [{ name: 'skill', input: { name: skill } }] }),
};

const SHELL: Record<AgentName, (command: string) => FakeTurn> = {
  builtin: (command) => ({ toolCalls: [{ name: 'shell', input: { command } }] }),
  'claude-code': (command) => ({ toolCalls: [{ name: 'Bash', input: { command, description: 'run it' } }] }),
  codex: (cmd) => ({ toolCalls: [{ name: 'exec_command', input: { cmd } }] }),
  opencode: (command) => ({ toolCalls: [{ name: 'bash', input: { command, description: 'run it' } }] }),
};

/** Loads `skill`, runs `commands` one turn each, then ends with a short message. */
export function harnessTurns(agent: AgentName, skill: string, commands: string[]): FakeTurn[] {
  return [LOAD[agent](skill), ...commands.map(SHELL[agent]), { text: 'Wrote totals.txt.' }];
}
