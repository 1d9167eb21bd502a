// Claude Code (`claude -p`, stream-json): skills in `.claude/skills/<name>/`, listed to the model in a
// system reminder; the model loads one with the `Skill` tool.
import type { HarnessSpec, ParsedRun } from './harness-run.js';
import { parseJsonLines, textOf } from './json-lines.js';
import type { AgentTokens, TrajectoryStep } from './types.js';

export const claudeCodeSpec: HarnessSpec = {
  name: 'claude-code',
  pkg: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'node_modules/.bin/claude' },
  skillsDir: '.claude/skills',
  stateDirs: ['.claude'],
  args: (instruction) => [
    '-p',
    instruction,
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
  ],
  setup: ({ baseUrl, apiKey, model }) => ({
    env: {
      // Claude Code appends /v1/messages itself.
      ANTHROPIC_BASE_URL: baseUrl.replace(/\/v1$/, ''),
      ANTHROPIC_API_KEY: apiKey,
      ANTHROPIC_MODEL: model,
      ANTHROPIC_SMALL_FAST_MODEL: model,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    files: [],
  }),
  parse: parseClaudeCode,
};

interface ClaudeEvent {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  message?: { content?: unknown; usage?: AnthropicUsage };
  usage?: AnthropicUsage;
}

interface AnthropicUsage {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
}

interface ContentBlock {
  type?: string;
  text?: string;
  name?: string;
  input?: unknown;
  content?: unknown;
}

/** Anthropic counts cache reads and writes apart from `input_tokens`; SkillAudit's input counts every prompt token. */
function tokensOf(u: AnthropicUsage | undefined): AgentTokens {
  const cached = u?.cache_read_input_tokens ?? 0;
  return {
    input: (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + cached,
    cached,
    output: u?.output_tokens ?? 0,
  };
}

export function parseClaudeCode(stdout: string, skillName: string | null): ParsedRun {
  const steps: TrajectoryStep[] = [];
  const toolNames = new Map<string, string>();
  let finalMessage = '';
  let lastText = '';
  let skillLoaded = false;
  let total: AgentTokens | null = null;
  // One API message arrives as several events (one per content block), each repeating the usage known when
  // its stream started: prompt tokens are exact, output tokens are not yet counted (a lower bound).
  const perMessage = new Map<string, AgentTokens>();
  let error: string | undefined;
  for (const event of parseJsonLines<ClaudeEvent>(stdout)) {
    const blocks = Array.isArray(event.message?.content) ? (event.message.content as ContentBlock[]) : [];
    if (event.type === 'assistant') {
      const id = (event.message as { id?: string } | undefined)?.id ?? `event-${perMessage.size}`;
      const t = tokensOf(event.message?.usage);
      const seen = perMessage.get(id);
      perMessage.set(id, seen ? { ...seen, output: Math.max(seen.output, t.output) } : t);
      for (const block of blocks) {
        if (block.type === 'text' && block.text) {
          steps.push({ kind: 'message', text: block.text });
          lastText = block.text;
        } else if (block.type === 'tool_use') {
          const tool = block.name ?? 'unknown';
          const id = (block as { id?: string }).id;
          if (id) toolNames.set(id, tool);
          steps.push({ kind: 'tool_call', tool, input: block.input });
          const input = block.input as { skill?: unknown } | undefined;
          if (tool === 'Skill' && (skillName === null || input?.skill === skillName)) skillLoaded = true;
        }
      }
    } else if (event.type === 'user') {
      for (const block of blocks) {
        if (block.type !== 'tool_result') continue;
        const id = (block as { tool_use_id?: string }).tool_use_id;
        steps.push({
          kind: 'tool_result',
          tool: (id && toolNames.get(id)) || 'unknown',
          output: textOf(block.content),
        });
      }
    } else if (event.type === 'result') {
      finalMessage = typeof event.result === 'string' ? event.result : lastText;
      if (event.usage) total = tokensOf(event.usage);
      if (event.is_error || (event.subtype && event.subtype !== 'success'))
        error = `claude-code ended with ${event.subtype ?? 'an error'}${event.result ? `: ${event.result.slice(0, 300)}` : ''}`;
    }
  }
  if (!finalMessage) finalMessage = lastText;
  // The result event's usage is the run total; per-message usage is the fallback when a run ends without one.
  const tokens = total ?? sumTokens([...perMessage.values()]);
  return { steps, finalMessage, tokens, skillLoaded, ...(error ? { error } : {}) };
}

function sumTokens(all: AgentTokens[]): AgentTokens {
  return all.reduce(
    (a, b) => ({ input: a.input + b.input, cached: a.cached + b.cached, output: a.output + b.output }),
    {
      input: 0,
      cached: 0,
      output: 0,
    },
  );
}
