import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentModel, AgentName, AgentRunResult, TrajectoryStep } from '../agents/index.js';
import { getAgent } from '../agents/index.js';
import type { Skill } from '../core/types.js';
import type { TrialMaterial } from '../judge/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import type { Material } from '../schemes/index.js';
import type { Condition } from '../tasks/index.js';
import { readJsonFile, writeJsonFile } from './run-files.js';

// One trial folder, <runDir>/trials/<task>__<condition>__<agent>/: result.json (trajectory, tokens, time,
// skillLoaded, output files), evidence.json (the sandbox evidence bundle) and judge.json. A later audit reuses
// a finished run and its judgement when the folder's key matches (same skill, task, condition, agent, model and
// the same instruction and inputs), so a resumed audit repeats only what did not finish.

export const TRIALS_DIR = 'trials';
const VERSION = 1;

export interface TrialKey {
  skillId: string;
  task: string;
  /** Scenario or probe id. */
  scenario: string;
  condition: Condition;
  agent: AgentName;
  model: string;
  /** sha256 of the instruction and inputs the agent was given. */
  taskSha: string;
}

export interface TrialSpec {
  key: TrialKey;
  instruction: string;
  materials: Material[];
  /** The skill for with_skill trials, null for no_skill. */
  skill: Skill | null;
}

/** The agent's run as stored in result.json: everything but the evidence bundle (in evidence.json). */
export type StoredRun = Omit<AgentRunResult, 'evidence'>;

/** The run did not produce a trajectory (harness failed to start, model unreachable): nothing to judge. */
export class TrialFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrialFailure';
  }
}

export function taskSha(instruction: string, materials: readonly Material[]): string {
  return createHash('sha256').update(JSON.stringify({ instruction, materials })).digest('hex');
}

export function trialFolder(key: Pick<TrialKey, 'task' | 'condition' | 'agent'>): string {
  return `${TRIALS_DIR}/${key.task}__${key.condition}__${key.agent}`;
}

const KEY_FIELDS: (keyof TrialKey)[] = [
  'skillId',
  'task',
  'scenario',
  'condition',
  'agent',
  'model',
  'taskSha',
];

function storedFor<T>(file: unknown, key: TrialKey, field: string): T | null {
  if (typeof file !== 'object' || file === null) return null;
  const f = file as { version?: unknown; key?: Partial<TrialKey> } & Record<string, unknown>;
  if (f.version !== VERSION || !f.key || !KEY_FIELDS.every((k) => f.key?.[k] === key[k])) return null;
  return (f[field] as T | undefined) ?? null;
}

/** The finished run in the folder, or null when there is none for this key. */
export async function storedRun(runDir: string, key: TrialKey): Promise<StoredRun | null> {
  return storedFor<StoredRun>(await readJsonFile(join(runDir, trialFolder(key), 'result.json')), key, 'run');
}

/** Runs the agent and writes evidence.json, then result.json (so result.json means the run is complete). */
export async function runTrial(
  runDir: string,
  spec: TrialSpec,
  model: AgentModel,
  limits?: Partial<SandboxLimits>,
): Promise<StoredRun> {
  const result = await getAgent(spec.key.agent).run({
    task: { instruction: spec.instruction, workspaceFiles: spec.materials },
    skill: spec.skill,
    model,
    ...(limits ? { limits } : {}),
  });
  if (result.error && result.steps.length === 0)
    throw new TrialFailure(`${spec.key.condition} run failed: ${result.error}`);
  const { evidence, ...run } = result;
  const dir = join(runDir, trialFolder(spec.key));
  await writeJsonFile(join(dir, 'evidence.json'), evidence);
  await writeJsonFile(join(dir, 'result.json'), { version: VERSION, key: spec.key, run });
  return run;
}

/** The stored judgement, when it matches the key and was made by `judgeModel` (default: the agents' model). */
export async function storedJudgement<T>(
  runDir: string,
  key: TrialKey,
  judgeModel = key.model,
): Promise<T | null> {
  const file = await readJsonFile(join(runDir, trialFolder(key), 'judge.json'));
  // Files written before the judge model was recorded were judged by the agents' model.
  const by = (file as { judgeModel?: unknown } | null)?.judgeModel ?? key.model;
  return by === judgeModel ? storedFor<T>(file, key, 'judgement') : null;
}

export async function writeJudgement(
  runDir: string,
  key: TrialKey,
  judgement: unknown,
  judgeModel = key.model,
): Promise<void> {
  await writeJsonFile(join(runDir, trialFolder(key), 'judge.json'), {
    version: VERSION,
    key,
    judgeModel,
    judgement,
  });
}

function stepLine(step: TrajectoryStep): string {
  if (step.kind === 'tool_call') return `${step.tool ?? 'tool'} call: ${JSON.stringify(step.input ?? null)}`;
  if (step.kind === 'tool_result') return `${step.tool ?? 'tool'} result: ${step.output ?? ''}`;
  return step.text ?? '';
}

/** What the judge sees of a run: final message, output files, one trajectory line per step. */
export function materialOf(run: StoredRun): TrialMaterial {
  return {
    finalMessage: run.finalMessage,
    files: run.outputFiles,
    trajectory: run.steps.map(stepLine).filter((line) => line !== ''),
  };
}
