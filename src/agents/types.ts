// The contract every agent adapter implements: one task, with or without one skill, in a fresh sandbox,
// returning a normalised trajectory whatever the harness's own output format.

import type { Skill } from '../core/types.js';
import type { EvidenceBundle, SandboxLimits, SeedFile } from '../sandbox/index.js';

export type AgentName = 'builtin' | 'claude-code' | 'codex' | 'opencode';

export interface AgentModel {
  /** The API base URL as the ai SDK takes it, with the version path (e.g. https://api.anthropic.com/v1). */
  baseUrl: string;
  apiKey: string;
  model: string;
  provider: 'anthropic' | 'openai' | 'openai-compatible';
}

export interface AgentRunRequest {
  task: { instruction: string; workspaceFiles: SeedFile[] };
  /** null runs the no_skill condition. */
  skill: Skill | null;
  model: AgentModel;
  limits?: Partial<SandboxLimits>;
}

export interface TrajectoryStep {
  kind: 'message' | 'tool_call' | 'tool_result';
  /** Tool name, as the harness named it, for tool calls and results. */
  tool?: string;
  input?: unknown;
  output?: string;
  text?: string;
}

export interface AgentTokens {
  input: number;
  cached: number;
  output: number;
}

export interface AgentRunResult {
  agent: AgentName;
  steps: TrajectoryStep[];
  finalMessage: string;
  wallMs: number;
  tokens: AgentTokens;
  /** Whether the agent actually loaded the skill (not merely had it available). */
  skillLoaded: boolean;
  evidence: EvidenceBundle;
  /** Files the run created or changed in the workspace (the skill's own folder excluded). */
  outputFiles: { path: string; content: string }[];
  /** Set when the run did not finish normally (harness exit status, timeout, unparsable output). */
  error?: string;
}

export interface AgentAdapter {
  name: AgentName;
  run(req: AgentRunRequest): Promise<AgentRunResult>;
}
