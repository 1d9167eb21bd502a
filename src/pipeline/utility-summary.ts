import { type JudgeResult, pairResult } from '../judge/index.js';
import type { ScenarioResult, TrialSummary, UtilitySummary } from '../report/index.js';
import type { Scenario } from '../schemes/index.js';
import { type PairResult, type UtilityScores, utilityScores } from '../score/index.js';
import type { StoredRun } from './trial.js';

// Turns judged trial pairs into the report's utility section (seed 000 eqs. 1-7 via score/utility.ts).

export interface TrialOutcome {
  /** The trial folder, relative to the run folder. */
  folder: string;
  /** Harness and model, e.g. "builtin (anthropic/claude-sonnet-4-6)". */
  agent: string;
  run: StoredRun | null;
  judge: JudgeResult | null;
  /** Why the run or its judgement is missing. */
  failure?: string;
}

export interface JudgedPair {
  scenario: Scenario;
  withSkill: TrialOutcome;
  noSkill: TrialOutcome;
}

function trialSummary(t: TrialOutcome, items: number, loadedMatters: boolean): TrialSummary {
  return {
    agent: t.agent,
    passed: t.judge?.passed ?? 0,
    total: items,
    timeMs: Math.round(t.run?.wallMs ?? 0),
    tokens: t.run ? { ...t.run.tokens } : { input: 0, cached: 0, output: 0 },
    skillLoaded: loadedMatters && t.run ? t.run.skillLoaded : null,
    trajectory: t.run ? `${t.folder}/result.json` : t.folder,
  };
}

function invalidReason(p: JudgedPair): string | null {
  const reasons = [
    ['with_skill', p.withSkill],
    ['no_skill', p.noSkill],
  ]
    .filter(([, t]) => (t as TrialOutcome).judge === null)
    .map(([name, t]) => `${name}: ${(t as TrialOutcome).failure ?? 'not judged'}`);
  return reasons.length ? reasons.join('; ') : null;
}

function pairOf(p: JudgedPair): PairResult {
  const cost = (t: TrialOutcome) => ({
    seconds: (t.run?.wallMs ?? 0) / 1000,
    inputTokens: t.run?.tokens.input ?? 0,
    cachedTokens: t.run?.tokens.cached ?? 0,
  });
  const reason = invalidReason(p);
  const judged =
    reason === null
      ? {
          valid: true as const,
          withSkill: p.withSkill.judge as JudgeResult,
          noSkill: p.noSkill.judge as JudgeResult,
        }
      : { valid: false as const, reason };
  return pairResult(p.scenario, judged, { withSkill: cost(p.withSkill), noSkill: cost(p.noSkill) });
}

function scenarioRow(p: JudgedPair, pair: PairResult, prg: number | null): ScenarioResult {
  const verdictOf = (t: TrialOutcome, id: string) => t.judge?.verdicts.find((v) => v.id === id);
  return {
    id: p.scenario.id,
    instruction: p.scenario.instruction,
    checklist: p.scenario.checklist.map((c) => {
      const w = verdictOf(p.withSkill, c.id);
      const wo = verdictOf(p.noSkill, c.id);
      const evidence = (w?.passed ? w.evidence : undefined) ?? (wo?.passed ? wo.evidence : undefined);
      return {
        item: c.text,
        withSkill: w ? w.passed : null,
        noSkill: wo ? wo.passed : null,
        ...(evidence ? { evidence } : {}),
      };
    }),
    withSkill: trialSummary(p.withSkill, pair.items, true),
    noSkill: trialSummary(p.noSkill, pair.items, false),
    prg,
    valid: pair.invalid === undefined,
    ...(pair.invalid !== undefined ? { invalidReason: pair.invalid } : {}),
  };
}

export function summariseUtility(
  pairs: readonly JudgedPair[],
  alpha: number,
): { summary: UtilitySummary; scores: UtilityScores } {
  const results = pairs.map(pairOf);
  const scores = utilityScores(results, alpha);
  const prgOf = new Map(scores.pairs.map((s) => [s.scenario, s.prg]));
  return {
    scores,
    summary: {
      prg: scores.prg,
      eg: scores.eg,
      cg: scores.cg,
      ecg: scores.ecg,
      deltaT: scores.deltaSeconds === null ? null : Math.round(scores.deltaSeconds * 1000),
      deltaQ: scores.deltaTokens,
      // Every valid pair already passed everything without the skill: no gain is measurable.
      ceiling: scores.validPairs > 0 && scores.ceilingPairs === scores.validPairs,
      scenarios: pairs.map((p, i) =>
        scenarioRow(p, results[i] as PairResult, prgOf.get(p.scenario.id) ?? null),
      ),
    },
  };
}
