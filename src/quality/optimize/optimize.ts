import type { ModelMessage } from 'ai';
import { printable } from '../../core/format.js';
import type { Finding, Skill } from '../../core/types.js';
import {
  addUsage,
  BudgetExceeded,
  emptyUsage,
  ModelCallError,
  type ModelClient,
  type Usage,
} from '../../model/index.js';
import { type SkillScan, scanSkill } from '../../scan/index.js';
import { SEVERITY_PENALTY } from '../../score/index.js';
import { UserError } from '../../util/errors.js';
import { staticQualityProfile } from '../profile.js';
import { skillMarkdown } from '../skill-text.js';
import { estimateTokens } from '../tokens.js';
import type { QualityProfile } from '../types.js';
import { candidateSkill, renderSkillMd } from './candidate.js';
import { answerProblems, contentProblems, scanProblems } from './guards.js';
import { feedbackPrompt, firstPrompt, type RewriteAnswer, rewriteAnswer, systemPrompt } from './prompt.js';
import { findTargets, sectionsPresent, type Target } from './targets.js';

// SkillOpt (seed 001): profile the skill, ask the model to rewrite SKILL.md where it is weakest, re-score each
// candidate with the same profile functions, keep the best. One conversation: each round the model sees our
// checks on its previous answer (rejection reasons or scores) and the targets still weak.

export const STAGE = 'optimize';
export const DEFAULT_ROUNDS = 3;

export interface OptimizeOptions {
  rounds?: number;
  abortSignal?: AbortSignal;
  /** Progress lines (a round started, what came of it). */
  onProgress?: (line: string) => void;
}

/** The scores a candidate is compared by. */
export interface Scores {
  /** Mean of the scored dimensions (the static three without agent runs). */
  overall: number | null;
  dimensions: { id: string; name: string; score: number | null }[];
  /** Of the "When not to use" and examples sections, how many exist: breaks ties between equal overalls. */
  sections: number;
}

export interface Version {
  skill: Skill;
  text: string;
  profile: QualityProfile;
  scores: Scores;
  scan: SkillScan;
}

export type CandidateOutcome = 'improved' | 'not_better' | 'rejected';

export interface CandidateRecord {
  round: number;
  outcome: CandidateOutcome;
  /** Why a candidate was rejected (empty otherwise). */
  reasons: string[];
  scores: Scores | null;
  safety: { status: string; score: number } | null;
  changes: RewriteAnswer['changes'];
  targets: Target[];
  usage: Usage;
  fromCache: boolean;
}

export type StopReason = 'nothing_to_improve' | 'no_improvement' | 'rounds_done' | 'model_error' | 'cost_cap';

export interface OptimizeResult {
  original: Version;
  best: Version;
  /** 0 when the original was kept. */
  bestRound: number;
  targets: Target[];
  candidates: CandidateRecord[];
  stopped: { reason: StopReason; message: string };
  usage: Usage;
  /** The dimensions the comparison used, and the ones it could not compute here. */
  dimensionsUsed: string[];
  dimensionsNotRun: string[];
}

function scoresOf(skill: Skill, profile: QualityProfile): Scores {
  return {
    overall: profile.overall,
    dimensions: profile.dimensions
      .filter((d) => d.status === 'scored')
      .map((d) => ({ id: d.id, name: d.name, score: d.score })),
    sections: sectionsPresent(skill),
  };
}

/** Strictly better overall; on an equal overall, more of the two unscored sections. */
export function isBetter(a: Scores, b: Scores): boolean {
  const x = a.overall ?? 0;
  const y = b.overall ?? 0;
  return x > y || (x === y && a.sections > b.sections);
}

async function version(skill: Skill, text: string, scan?: SkillScan): Promise<Version> {
  const profile = staticQualityProfile(skill);
  return { skill, text, profile, scores: scoresOf(skill, profile), scan: scan ?? (await scanSkill(skill)) };
}

/** Refuses what cannot be rewritten safely, before anything is sent to a model. */
function refuse(skill: Skill, scan: SkillScan): void {
  if (scan.status === 'risky') {
    const weight = (f: Finding) => SEVERITY_PENALTY[f.severity] * f.confidence;
    const top = scan.findings
      .filter((f) => !f.suppressed)
      .sort((a, b) => weight(b) - weight(a))
      .slice(0, 3)
      .map((f) => `  ${f.pattern} ${f.severity} ${printable(f.file)}:${f.line} ${f.message}`);
    throw new UserError(
      'USAGE',
      `${printable(skill.name)}: refusing to optimise a skill whose safety status is risky (score ${scan.safetyScore}); ` +
        `nothing was sent to a model. Top findings:\n${top.join('\n')}`,
    );
  }
  const skillMd = skill.files.find((f) => f.path === 'SKILL.md');
  if (!skillMd?.text || skillMd.truncated)
    throw new UserError(
      'LIMIT_EXCEEDED',
      `${printable(skill.name)}: SKILL.md was not read whole, so it cannot be rewritten`,
    );
  const incomplete = skill.diagnostics.find((d) => d.code === 'limit-files' || d.code === 'limit-depth');
  if (incomplete)
    throw new UserError(
      'LIMIT_EXCEEDED',
      `${printable(skill.name)}: ${printable(incomplete.message)}; an optimised copy would be missing files`,
    );
}

function describeScores(s: Scores): string {
  const dims = s.dimensions.map((d) => `${d.name} ${d.score}`).join(', ');
  return `overall ${s.overall} (${dims})`;
}

type Judged = Pick<CandidateRecord, 'outcome' | 'reasons' | 'scores' | 'safety' | 'changes'>;

/** Guards first (every one of them, so the model hears every reason at once), then the comparison. */
async function judge(
  skill: Skill,
  scan: SkillScan,
  answer: RewriteAnswer,
  bestScores: Scores,
): Promise<{ record: Judged; version: Version | null }> {
  const record: Judged = {
    outcome: 'rejected',
    reasons: answerProblems(skill, answer),
    scores: null,
    safety: null,
    changes: answer.changes,
  };
  if (record.reasons.length > 0) return { record, version: null };
  const text = renderSkillMd(skill, answer);
  const next = candidateSkill(skill, text);
  const scored = await version(next, text);
  record.safety = { status: scored.scan.status, score: scored.scan.safetyScore };
  record.reasons = [...contentProblems(skill, next), ...scanProblems(scan, scored.scan)];
  if (record.reasons.length > 0) return { record, version: null };
  record.scores = scored.scores;
  record.outcome = isBetter(scored.scores, bestScores) ? 'improved' : 'not_better';
  return { record, version: scored };
}

/** Runs the rewrite loop on one loaded skill. Throws UserError when the skill is refused. */
export async function optimizeSkill(
  client: ModelClient,
  skill: Skill,
  options: OptimizeOptions = {},
): Promise<OptimizeResult> {
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const say = options.onProgress ?? (() => {});
  const scan = await scanSkill(skill);
  refuse(skill, scan);
  const original = await version(skill, skillMarkdown(skill), scan);
  let best = original;
  let bestRound = 0;
  const targets = findTargets(skill, original.profile);
  const candidates: CandidateRecord[] = [];
  let usage = emptyUsage();
  const dimensionsUsed = original.scores.dimensions.map((d) => d.id);
  const dimensionsNotRun = original.profile.dimensions.filter((d) => d.status !== 'scored').map((d) => d.id);
  const result = (stopped: OptimizeResult['stopped']): OptimizeResult => ({
    original,
    best,
    bestRound,
    targets,
    candidates,
    stopped,
    usage,
    dimensionsUsed,
    dimensionsNotRun,
  });

  if (targets.length === 0)
    return result({ reason: 'nothing_to_improve', message: 'no weak dimension to target' });

  const messages: ModelMessage[] = [{ role: 'user', content: firstPrompt(skill, targets) }];
  // Room for a full rewrite of a file this size plus the change list, within what providers allow.
  const maxOutputTokens = Math.min(32_000, Math.max(4_000, 2 * estimateTokens(original.text) + 1_000));
  let roundTargets = targets;
  for (let round = 1; round <= rounds; round++) {
    say(`round ${round}: asking for a rewrite (targets: ${roundTargets.map((t) => t.id).join(', ')})`);
    let answer: RewriteAnswer;
    let callUsage: Usage;
    let fromCache: boolean;
    try {
      const reply = await client.generateObject({
        stage: STAGE,
        system: systemPrompt(),
        messages,
        schema: rewriteAnswer,
        schemaName: 'skill_rewrite',
        schemaDescription: 'The rewritten SKILL.md: name, description, body and the list of changes.',
        maxOutputTokens,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      answer = reply.object;
      callUsage = reply.usage;
      fromCache = reply.fromCache;
    } catch (error) {
      if (error instanceof BudgetExceeded) return result({ reason: 'cost_cap', message: error.message });
      if (error instanceof ModelCallError)
        return result({ reason: 'model_error', message: `round ${round}: ${error.message}` });
      throw error;
    }
    usage = addUsage(usage, callUsage);
    messages.push({ role: 'assistant', content: JSON.stringify(answer) });

    const { record, version: scored } = await judge(skill, scan, answer, best.scores);
    candidates.push({ ...record, round, targets: roundTargets, usage: callUsage, fromCache });
    if (record.outcome === 'improved' && scored) {
      best = scored;
      bestRound = round;
    }
    let outcome: string;
    if (record.outcome === 'rejected') {
      outcome = `Rejected: ${record.reasons.join('; ')}.`;
      say(`round ${round}: rejected: ${record.reasons.join('; ')}`);
    } else if (record.outcome === 'not_better') {
      say(
        `round ${round}: ${describeScores(record.scores!)}; not better than ${describeScores(best.scores)}`,
      );
      return result({
        reason: 'no_improvement',
        message: `round ${round} did not improve on ${bestRound === 0 ? 'the original' : `round ${bestRound}`}`,
      });
    } else {
      outcome = `Accepted: ${describeScores(record.scores!)}.`;
      say(`round ${round}: improved: ${describeScores(record.scores!)}`);
    }
    roundTargets = findTargets(best.skill, best.profile);
    if (roundTargets.length === 0)
      return result({ reason: 'nothing_to_improve', message: `no weak dimension left after round ${round}` });
    messages.push({ role: 'user', content: feedbackPrompt(outcome, roundTargets) });
  }
  return result({ reason: 'rounds_done', message: `${rounds} round(s) done` });
}
