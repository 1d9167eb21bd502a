// The built-in agent: an ai SDK tool loop that works on any provider. Every shell command and every file
// read or write runs in the sandbox (so it is confined and leaves evidence); the model call itself is made
// from this process, so the sandbox needs no network. The system prompt lists the skill (name and
// description) the way real harnesses do; the `skill` tool returns its SKILL.md.

import { posix } from 'node:path';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { languageModelFor } from '../model/providers.js';
import { createSandbox, type EvidenceBundle, type Sandbox, type SandboxLimits } from '../sandbox/index.js';
import { errorMessage } from '../util/errors.js';
import { mergeEvidence } from './evidence-merge.js';
import type { AgentAdapter, AgentRunRequest, AgentRunResult, TrajectoryStep } from './types.js';
import { collectOutputFiles, skillFolder, skillSeedFiles } from './workspace.js';

const SKILLS_DIR = '.agent/skills';
const MAX_STEPS = 40;
/** What a tool result shows the model; the evidence keeps the rest. */
const MAX_TOOL_OUTPUT = 16 * 1024;
/** Per command: a shell call is one step of the agent, not the whole task. */
const COMMAND_LIMITS: Partial<SandboxLimits> = { wallMs: 120_000, cpuSeconds: 120 };

export function builtinSystemPrompt(skill: AgentRunRequest['skill']): string {
  const lines = [
    'You are an autonomous agent working in a Linux workspace (your current directory).',
    'Use the shell, read_file and write_file tools to complete the user’s task, then reply with a short summary.',
    'Write deliverables as files in the workspace. Nobody will answer questions: decide and proceed.',
  ];
  if (skill)
    lines.push(
      '',
      'Skills are available. Call the `skill` tool with a skill name to load its instructions when it fits the task.',
      `<available_skills>\n- ${skill.name}: ${skill.description.replace(/\s+/g, ' ').trim()}\n</available_skills>`,
    );
  return lines.join('\n');
}

/** Workspace-relative, normalised, and not escaping the workspace. */
function workspacePath(path: string): string | null {
  const normal = posix.normalize(path.replace(/^\.\/+/, ''));
  if (normal.startsWith('/') || normal === '..' || normal.startsWith('../') || normal === '.') return null;
  return normal;
}

function clip(text: string): string {
  return text.length > MAX_TOOL_OUTPUT
    ? `${text.slice(0, MAX_TOOL_OUTPUT)}\n[… ${text.length - MAX_TOOL_OUTPUT} more characters]`
    : text;
}

function toolsFor(
  sandbox: Sandbox,
  req: AgentRunRequest,
  runs: EvidenceBundle[],
  loaded: { skill: boolean },
) {
  const limits = { ...COMMAND_LIMITS, ...req.limits };
  const exec = async (argv: string[], stdin?: string) => {
    const result = await sandbox.run({
      argv,
      env: {},
      limits,
      network: 'none',
      ...(stdin !== undefined ? { stdin } : {}),
    });
    runs.push(result.evidence);
    return result;
  };
  const tools = {
    shell: tool({
      description: 'Run a bash command in the workspace. Returns exit code, stdout and stderr.',
      inputSchema: z.object({ command: z.string().describe('The bash command line') }),
      execute: async ({ command }) => {
        const r = await exec(['bash', '-c', command]);
        const status = r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`;
        return clip(`${status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
      },
    }),
    read_file: tool({
      description: 'Read a text file in the workspace (path relative to the workspace).',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        const rel = workspacePath(path);
        if (!rel) return `refused: ${path} is outside the workspace`;
        const r = await exec(['cat', '--', rel]);
        return r.exitCode === 0 ? clip(r.stdout) : `error: ${r.stderr.trim()}`;
      },
    }),
    write_file: tool({
      description: 'Create or overwrite a text file in the workspace (path relative to the workspace).',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => {
        const rel = workspacePath(path);
        if (!rel) return `refused: ${path} is outside the workspace`;
        const r = await exec(
          ['sh', '-c', 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"', 'sh', rel],
          content,
        );
        return r.exitCode === 0
          ? `wrote ${rel} (${Buffer.byteLength(content)} bytes)`
          : `error: ${r.stderr.trim()}`;
      },
    }),
  };
  const skill = req.skill;
  if (!skill) return tools;
  const folder = skillFolder(SKILLS_DIR, skill);
  return {
    ...tools,
    skill: tool({
      description:
        'Load an available skill: returns its instructions (SKILL.md) and the folder holding its files.',
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        if (name !== skill.name) return `no skill named ${name}; available: ${skill.name}`;
        loaded.skill = true;
        const r = await exec(['cat', '--', `${folder}/SKILL.md`]);
        return clip(`Skill folder: ${folder}\n\n${r.stdout}`);
      },
    }),
  };
}

/** The trajectory in order: each step's text, then its tool calls, then their results. */
function trajectoryOf(
  steps: {
    text: string;
    toolCalls: { toolName: string; input: unknown }[];
    toolResults: { toolName: string; output: unknown }[];
  }[],
): TrajectoryStep[] {
  const out: TrajectoryStep[] = [];
  for (const step of steps) {
    if (step.text) out.push({ kind: 'message', text: step.text });
    for (const call of step.toolCalls)
      out.push({ kind: 'tool_call', tool: call.toolName, input: call.input });
    for (const result of step.toolResults)
      out.push({
        kind: 'tool_result',
        tool: result.toolName,
        output: typeof result.output === 'string' ? result.output : JSON.stringify(result.output),
      });
  }
  return out;
}

async function runBuiltin(req: AgentRunRequest): Promise<AgentRunResult> {
  const model = languageModelFor({
    spec: { provider: req.model.provider, model: req.model.model },
    baseUrl: req.model.baseUrl,
    apiKey: req.model.apiKey,
  });
  const skillFiles = req.skill ? skillSeedFiles(req.skill, skillFolder(SKILLS_DIR, req.skill)) : [];
  const sandbox = await createSandbox({ files: [...req.task.workspaceFiles, ...skillFiles] });
  const runs: EvidenceBundle[] = [];
  const loaded = { skill: false };
  const started = performance.now();
  try {
    const messages: ModelMessage[] = [{ role: 'user', content: req.task.instruction }];
    let steps: TrajectoryStep[] = [];
    let finalMessage = '';
    let tokens = { input: 0, cached: 0, output: 0 };
    let error: string | undefined;
    try {
      const result = await generateText({
        model,
        system: builtinSystemPrompt(req.skill),
        messages,
        tools: toolsFor(sandbox, req, runs, loaded),
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: AbortSignal.timeout(req.limits?.wallMs ?? 15 * 60_000),
      });
      steps = trajectoryOf(result.steps);
      finalMessage = result.text;
      const usage = result.totalUsage;
      tokens = {
        input: usage.inputTokens ?? 0,
        cached: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0,
        output: usage.outputTokens ?? 0,
      };
      if (result.steps.length >= MAX_STEPS && result.finishReason === 'tool-calls')
        error = `builtin agent stopped after ${MAX_STEPS} steps`;
    } catch (caught) {
      error = `builtin agent: ${errorMessage(caught)}`;
    }
    const evidence = mergeEvidence(runs, sandbox.backend);
    return {
      agent: 'builtin',
      steps,
      finalMessage,
      wallMs: Math.round(performance.now() - started),
      tokens,
      skillLoaded: loaded.skill,
      evidence,
      outputFiles: collectOutputFiles(evidence, sandbox.workspace, ['.agent']),
      ...(error ? { error } : {}),
    };
  } finally {
    await sandbox.dispose();
  }
}

export const builtinAgent: AgentAdapter = { name: 'builtin', run: runBuiltin };
