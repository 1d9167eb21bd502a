// OpenCode (`opencode run --format json`): skills in `.opencode/skills/<name>/`, offered through its
// `skill` tool, which the model calls to load one. Anthropic Messages or OpenAI Responses.
import type { HarnessSpec, ParsedRun } from './harness-run.js';
import { parseJsonLines } from './json-lines.js';
import type { AgentTokens, TrajectoryStep } from './types.js';

export const opencodeSpec: HarnessSpec = {
  name: 'opencode',
  pkg: { pkg: 'opencode-ai', version: '1.18.33', bin: 'node_modules/.bin/opencode' },
  skillsDir: '.opencode/skills',
  stateDirs: ['.opencode'],
  args: (instruction) => ['run', '--format', 'json', '--auto', instruction],
  setup: ({ baseUrl, apiKey, model, provider }) => ({
    env: {
      OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(provider, baseUrl, apiKey, model)),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    },
    files: [],
  }),
  parse: parseOpencode,
};

function opencodeConfig(provider: string, baseUrl: string, apiKey: string, model: string) {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: { [provider]: { options: { baseURL: baseUrl, apiKey } } },
    model: `${provider}/${model}`,
    small_model: `${provider}/${model}`,
  };
}

interface OpencodePart {
  type?: string;
  text?: string;
  tool?: string;
  state?: { status?: string; input?: unknown; output?: string; error?: string };
  tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read?: number; write?: number } };
}

interface OpencodeEvent {
  type?: string;
  part?: OpencodePart;
  error?: { name?: string; data?: { message?: string }; message?: string };
}

export function parseOpencode(stdout: string, skillName: string | null): ParsedRun {
  const steps: TrajectoryStep[] = [];
  const tokens: AgentTokens = { input: 0, cached: 0, output: 0 };
  let finalMessage = '';
  let skillLoaded = false;
  let error: string | undefined;
  for (const event of parseJsonLines<OpencodeEvent>(stdout)) {
    const part = event.part;
    if (event.type === 'error') {
      error = `opencode: ${event.error?.data?.message ?? event.error?.message ?? event.error?.name ?? 'error'}`;
      continue;
    }
    if (!part) continue;
    if (event.type === 'text' && part.text) {
      steps.push({ kind: 'message', text: part.text });
      finalMessage = part.text;
    } else if (event.type === 'tool_use') {
      const tool = part.tool ?? 'unknown';
      steps.push({ kind: 'tool_call', tool, input: part.state?.input });
      steps.push({ kind: 'tool_result', tool, output: part.state?.output ?? part.state?.error ?? '' });
      const input = part.state?.input as { name?: unknown } | undefined;
      if (
        tool === 'skill' &&
        part.state?.status === 'completed' &&
        (skillName === null || input?.name === skillName)
      )
        skillLoaded = true;
    } else if (event.type === 'step_finish' && part.tokens) {
      // Anthropic-style counts: input excludes cache reads and writes.
      const read = part.tokens.cache?.read ?? 0;
      tokens.input += (part.tokens.input ?? 0) + read + (part.tokens.cache?.write ?? 0);
      tokens.cached += read;
      tokens.output += (part.tokens.output ?? 0) + (part.tokens.reasoning ?? 0);
    }
  }
  return { steps, finalMessage, tokens, skillLoaded, ...(error ? { error } : {}) };
}
