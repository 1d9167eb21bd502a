import type { DimensionGroup, DimensionId, DimensionResult } from './types.js';

// The nine SkillCT dimensions as data, in the paper's order (seed 001, Table 1 and Fig. 1c). `needs` is the
// reason reported while a dimension cannot run: these need agent runs or a judge, never a guess.
export interface DimensionSpec {
  id: DimensionId;
  name: string;
  group: DimensionGroup;
  /** One line a user reads in the report. */
  summary: string;
  /** Reason reported when the dimension is not run (dynamic and rubric dimensions only). */
  needs?: string;
}

export const DIMENSIONS: readonly DimensionSpec[] = [
  {
    id: 'structural-completeness',
    name: 'Structural completeness',
    group: 'static',
    summary:
      'Frontmatter, name, description and sectioned body present (each weighed by how much it helps an agent find and follow the skill).',
  },
  {
    id: 'conciseness',
    name: 'Conciseness',
    group: 'static',
    summary: 'SKILL.md token budget, repeated text, and detail moved to bundled files.',
  },
  {
    id: 'description-content-consistency',
    name: 'Description-content consistency',
    group: 'static',
    summary: 'Lexical agreement between the description and what the body actually does.',
  },
  {
    id: 'cross-model-robustness',
    name: 'Cross-model robustness',
    group: 'dynamic',
    summary: 'Worst-model success on the same scenarios across two or more model configurations.',
    needs: 'needs --model with two or more model configurations (agent runs on the same scenarios)',
  },
  {
    id: 'intent-perturbation-stability',
    name: 'Intent-perturbation stability',
    group: 'dynamic',
    summary: 'Outcome change when the same request is paraphrased.',
    needs: 'needs --model (agent runs on original and paraphrased requests)',
  },
  {
    id: 'capability-boundary-handling',
    name: 'Capability-boundary handling',
    group: 'dynamic',
    summary: 'Unrelated and adversarial requests declined with an explanation rather than attempted.',
    needs: 'needs --model (agent runs on unrelated and adversarial requests, judged for a reasoned refusal)',
  },
  {
    id: 'efficiency',
    name: 'Efficiency',
    group: 'dynamic',
    summary: 'Prompt tokens, plan steps, latency and tool calls against typical ranges for a task.',
    needs: 'needs --model (agent runs that record tokens, steps, latency and tool calls)',
  },
  {
    id: 'behavior-chain-semantic-consistency',
    name: 'Behavior-chain semantic consistency',
    group: 'rubric',
    summary:
      'Whether the agent’s actions support the declared objective, graded by a model against a fixed rubric.',
    needs: 'needs --model (a judge grades agent trajectories against a fixed rubric)',
  },
  {
    id: 'task-abstraction-granularity',
    name: 'Task abstraction granularity',
    group: 'rubric',
    summary:
      'Whether the skill is a complete, self-contained unit of work , graded by a model against a fixed rubric.',
    needs: 'needs --model (a judge grades the skill against a fixed rubric)',
  },
];

export function dimensionSpec(id: DimensionId): DimensionSpec {
  const spec = DIMENSIONS.find((d) => d.id === id);
  if (!spec) throw new Error(`unknown quality dimension ${id}`);
  return spec;
}

export function scoredDimension(
  id: DimensionId,
  score: number,
  evidence: Record<string, unknown>,
): DimensionResult {
  const { name, group } = dimensionSpec(id);
  return { id, name, group, status: 'scored', score: roundScore(score), evidence };
}

export function notRunDimension(id: DimensionId, reason?: string): DimensionResult {
  const spec = dimensionSpec(id);
  return {
    id,
    name: spec.name,
    group: spec.group,
    status: 'not_run',
    score: null,
    reason: reason ?? spec.needs ?? 'not run',
    evidence: {},
  };
}

/** Four decimals keep reports stable across platforms while staying finer than any threshold we use. */
export function roundScore(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;
}
