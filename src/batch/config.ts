import { createHash } from 'node:crypto';
import type { AgentName } from '../agents/index.js';
import type { IntakeLimits } from '../intake/index.js';
import type { ModelFlags } from '../model/index.js';
import { resolveJudgeSettings, resolveModelSettings } from '../model/index.js';
import type { AuditOptions } from '../pipeline/index.js';
import type { IndicatorList } from '../scan/index.js';
import { UserError } from '../util/errors.js';
import { VERSION } from '../version.js';

// What a batch runs, as plain data: the same settings reach an in-process audit and a queue worker on another
// machine (a job carries them), and their hash is the "configuration" half of every skill's key, so a rerun
// under other settings audits again while the same settings reuse finished run folders.

export const STAGES = ['scan', 'detonate', 'quality', 'utility'] as const;
export type Stage = (typeof STAGES)[number];

export interface BatchModelConfig {
  /** Model flags only (provider/name, base URL, cost cap, cache): keys stay in each machine's environment. */
  flags: ModelFlags;
  agents: AgentName[];
  scenarios: number;
  concurrency: number;
  alpha: number;
  agentTimeoutS?: number;
  qualityRuns?: number;
}

export interface BatchConfig {
  stages: Stage[];
  limits: Partial<IntakeLimits>;
  maxRuns?: number;
  runTimeoutS?: number;
  model?: BatchModelConfig;
  /** Known-bad lists (`--indicators FILE`), as their entries: a queue worker elsewhere has no copy of the file. */
  indicators?: IndicatorList[];
}

/**
 * The stages a user asked for. The scan always runs (every other stage reads its findings) and the static
 * quality profile costs nothing, so it is always in the report; `detonate` and `utility` are the real choices,
 * and `utility` needs a model.
 */
export function parseStages(text: string, hasModel: boolean): Stage[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const name of names)
    if (!(STAGES as readonly string[]).includes(name))
      throw new UserError('USAGE', `unknown stage "${name}" in --stages: use ${STAGES.join(', ')}`);
  if (names.includes('utility') && !hasModel)
    throw new UserError('USAGE', 'the utility stage runs agents with a model: add --model provider/name');
  const chosen = new Set<Stage>(['scan', 'quality', ...(names as Stage[])]);
  return STAGES.filter((s) => chosen.has(s));
}

/** The configuration half of a job key: same settings and same SkillAudit version, same key. */
export function configKey(config: BatchConfig): string {
  const { model, ...rest } = config;
  // The cache folder and cost cap change what is spent, not what an audit finds.
  const modelPart = model && {
    ...model,
    flags: { model: model.flags.model, judgeModel: model.flags.judgeModel, baseUrl: model.flags.baseUrl },
  };
  return createHash('sha256')
    .update(JSON.stringify({ version: VERSION, ...rest, model: modelPart ?? null }))
    .digest('hex')
    .slice(0, 16);
}

/** The single-skill audit's options for this configuration, writing run folders under `out`. */
export function auditOptionsFor(config: BatchConfig, out: string): AuditOptions {
  const detonate = config.stages.includes('detonate');
  const options: AuditOptions = {
    out,
    intake: { limits: config.limits },
    ...(config.indicators?.length ? { scan: { indicatorLists: config.indicators } } : {}),
    detonate,
    detonation: {
      ...(config.maxRuns !== undefined ? { maxRuns: config.maxRuns } : {}),
      ...(config.runTimeoutS !== undefined ? { limits: { wallMs: config.runTimeoutS * 1000 } } : {}),
    },
  };
  const model = config.stages.includes('utility') ? config.model : undefined;
  if (!model) return options;
  const settings = resolveModelSettings(model.flags);
  if (!settings) throw new UserError('USAGE', 'the utility stage needs a model: --model provider/name');
  const judgeSettings = resolveJudgeSettings(settings, model.flags);
  return {
    ...options,
    model: {
      settings,
      ...(judgeSettings ? { judgeSettings } : {}),
      agents: model.agents,
      scenarios: model.scenarios,
      concurrency: model.concurrency,
      alpha: model.alpha,
      ...(model.agentTimeoutS !== undefined ? { limits: { wallMs: model.agentTimeoutS * 1000 } } : {}),
      ...(model.qualityRuns !== undefined ? { qualityRuns: model.qualityRuns } : {}),
    },
  };
}
