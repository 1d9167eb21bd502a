// Codex CLI (`codex exec --json`): skills in `.agents/skills/<name>/`, listed to the model with their path;
// the model loads one by reading its SKILL.md through the shell. Speaks OpenAI Responses only.
import type { HarnessSpec, ParsedRun } from './harness-run.js';
import { parseJsonLines } from './json-lines.js';
import type { AgentTokens, TrajectoryStep } from './types.js';

const SKILLS_DIR = '.agents/skills';

/** TOML basic string: the values are ours, but quote them properly anyway. */
const toml = (value: string): string => JSON.stringify(value);

export const codexSpec: HarnessSpec = {
  name: 'codex',
  pkg: { pkg: '@openai/codex', version: '0.171.0', bin: 'node_modules/.bin/codex' },
  skillsDir: SKILLS_DIR,
  stateDirs: ['.agents'],
  args: (instruction) => [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '-c',
    'analytics.enabled=false',
    instruction,
  ],
  setup: ({ baseUrl, apiKey, model, home }) => ({
    env: { CODEX_HOME: `${home}/.codex`, SKILLAUDIT_MODEL_KEY: apiKey },
    files: [
      {
        path: '~/.codex/config.toml',
        content: [
          `model = ${toml(model)}`,
          'model_provider = "skillaudit"',
          '[model_providers.skillaudit]',
          'name = "skillaudit"',
          `base_url = ${toml(baseUrl)}`,
          'wire_api = "responses"',
          'env_key = "SKILLAUDIT_MODEL_KEY"',
          '',
        ].join('\n'),
      },
    ],
  }),
  parse: parseCodex,
};

interface CodexItem {
  id?: string;
  type?: string;
  text?: string;
  command?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  status?: string;
  changes?: unknown;
  server?: string;
  tool?: string;
  arguments?: unknown;
  result?: unknown;
  message?: string;
}

interface CodexEvent {
  type?: string;
  item?: CodexItem;
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
  message?: string;
}

/** A shell command that reads the skill's SKILL.md (cat, sed, head, less, ... anything naming the file). */
function readsSkill(command: string, skillName: string | null): boolean {
  const file = skillName ? `${skillName}/SKILL.md` : 'SKILL.md';
  return command.includes(file);
}

export function parseCodex(stdout: string, skillName: string | null): ParsedRun {
  const steps: TrajectoryStep[] = [];
  const tokens: AgentTokens = { input: 0, cached: 0, output: 0 };
  let finalMessage = '';
  let skillLoaded = false;
  let error: string | undefined;
  for (const event of parseJsonLines<CodexEvent>(stdout)) {
    if (event.type === 'turn.completed' && event.usage) {
      // Responses usage: input_tokens already includes the cached part.
      tokens.input += event.usage.input_tokens ?? 0;
      tokens.cached += event.usage.cached_input_tokens ?? 0;
      tokens.output += event.usage.output_tokens ?? 0;
    } else if (event.type === 'turn.failed' || event.type === 'error') {
      error = `codex: ${event.error?.message ?? event.message ?? 'turn failed'}`;
    } else if (event.type === 'item.completed' && event.item) {
      const item = event.item;
      switch (item.type) {
        case 'agent_message':
          steps.push({ kind: 'message', text: item.text ?? '' });
          finalMessage = item.text ?? '';
          break;
        case 'command_execution': {
          const command = item.command ?? '';
          steps.push({ kind: 'tool_call', tool: 'exec_command', input: { cmd: command } });
          steps.push({ kind: 'tool_result', tool: 'exec_command', output: item.aggregated_output ?? '' });
          if (readsSkill(command, skillName)) skillLoaded = true;
          break;
        }
        case 'file_change':
          steps.push({ kind: 'tool_call', tool: 'apply_patch', input: item.changes });
          steps.push({ kind: 'tool_result', tool: 'apply_patch', output: item.status ?? '' });
          break;
        case 'mcp_tool_call':
          steps.push({ kind: 'tool_call', tool: `${item.server}.${item.tool}`, input: item.arguments });
          steps.push({
            kind: 'tool_result',
            tool: `${item.server}.${item.tool}`,
            output: JSON.stringify(item.result ?? null),
          });
          break;
      }
    }
  }
  return { steps, finalMessage, tokens, skillLoaded, ...(error ? { error } : {}) };
}
