import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { IntakeLimits, SkillResult } from '../intake/index.js';
import { runAudit } from '../pipeline/index.js';
import type { IndicatorList } from '../scan/index.js';
import type { AuditResult, AuditRow, SkillPart } from '../store/audits.js';
import { errorMessage, UserError } from '../util/errors.js';
import { ApiError } from './api-error.js';
import { checkHost, type HostPolicy, pinnedGitSettings } from './host-guard.js';
import { parseSkillUrl } from './skill-url.js';

// One audit of the queue: the keyless audit (pipeline/audit.ts) of the one skill the submission names, into
// `<data-dir>/runs/<audit id>/`. A git source's host is checked again here, at fetch time, and git is held
// to the addresses that check saw. A source holding several skills, none named, ends as a split: the store
// queues one part audit per skill (up to MAX_PARTS), and each part picks its skill by folder.

export interface JobSettings {
  dataDir: string;
  policy: HostPolicy;
  limits: Partial<IntakeLimits>;
  detonate: boolean;
  maxRuns?: number;
  runTimeoutMs?: number;
  /** Known-bad lists (`serve --indicators FILE`), as their entries: a queue worker has no copy of the file. */
  indicators?: IndicatorList[];
}

/** Why an audit failed, with a stable code for the API. */
export class JobError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'JobError';
    this.code = code;
  }
}

/** The error's code and message as the API reports them. */
export function jobFailure(error: unknown): { code: string; message: string } {
  if (error instanceof JobError || error instanceof UserError || error instanceof ApiError) {
    return { code: error.code, message: error.message };
  }
  return { code: 'AUDIT_FAILED', message: errorMessage(error) };
}

const NAMES_SHOWN = 20;
/**
 * Skills one submission may fan out into. Each part re-reads the source and runs a full audit: a source
 * with more is a collection to batch (`skillaudit batch`), not one submission.
 */
export const MAX_PARTS = 50;

/** How a job ended: one skill audited, or a source of several skills split into part audits. */
export type JobOutcome = { kind: 'done'; result: AuditResult } | { kind: 'split'; parts: SkillPart[] };

/** The source holds several skills and the submission named none: audit each. */
class SeveralSkills extends Error {
  constructor(readonly parts: SkillPart[]) {
    super(`the source holds ${parts.length} skills`);
  }
}

const folderOf = (s: SkillResult): string => (s.ok ? s.skill.provenance.subdir : s.path);

function names(skills: SkillResult[]): string {
  const all = skills.map((s) => (s.ok ? s.skill.name || s.skill.folderName : s.path));
  return all.slice(0, NAMES_SHOWN).join(', ') + (all.length > NAMES_SHOWN ? `, … (${all.length})` : '');
}

/**
 * The one skill an audit means: a part's by its folder; by name when the submission gives one; else the
 * source's only skill. Several skills and no name throw SeveralSkills (the job splits), or TOO_MANY_SKILLS.
 */
export function pickSkill(
  audit: Pick<AuditRow, 'skill' | 'subdir' | 'parentId'>,
): (skills: SkillResult[]) => SkillResult[] {
  const wanted = audit.skill;
  return (skills) => {
    if (audit.parentId !== null) {
      const part = skills.filter((s) => folderOf(s) === audit.subdir);
      if (part.length !== 1) {
        throw new JobError('SKILL_NOT_FOUND', `no skill in folder "${audit.subdir}" of the source any more`);
      }
      return part;
    }
    if (wanted !== null) {
      const named = skills.filter((s) => s.ok && s.skill.name === wanted);
      if (named.length === 0) {
        throw new JobError(
          'SKILL_NOT_FOUND',
          `no skill named "${wanted}" in the source (found: ${names(skills)})`,
        );
      }
      if (named.length > 1) {
        throw new JobError(
          'AMBIGUOUS_SKILL',
          `${named.length} skills are named "${wanted}"; point at one folder with #subdir or a tree URL`,
        );
      }
      return named;
    }
    if (skills.length > MAX_PARTS) {
      throw new JobError(
        'TOO_MANY_SKILLS',
        `the source holds ${skills.length} skills (${names(skills)}), more than the ${MAX_PARTS} one submission audits; name one with "skill" or point at a folder`,
      );
    }
    if (skills.length > 1) {
      throw new SeveralSkills(
        skills.map((s) => ({ subdir: folderOf(s), name: s.ok ? s.skill.name || s.skill.folderName : null })),
      );
    }
    return skills;
  };
}

async function gitAccess(audit: AuditRow, policy: HostPolicy) {
  if (audit.repoKey === null) return undefined;
  const target = parseSkillUrl(audit.intakeSource);
  const checked = await checkHost(target, policy);
  return {
    mirrors: policy.mirrors,
    config: pinnedGitSettings(target, checked),
    addressesPinned: true,
    shallowOnly: true,
  };
}

/** Runs one claimed audit; resolves with how it ended or throws (JobError, UserError, ApiError). */
export async function runAuditJob(
  audit: AuditRow,
  settings: JobSettings,
  onStage: (stage: string) => void,
): Promise<JobOutcome> {
  try {
    return { kind: 'done', result: await auditOne(audit, settings, onStage) };
  } catch (error) {
    if (error instanceof SeveralSkills) return { kind: 'split', parts: error.parts };
    throw error;
  }
}

async function auditOne(
  audit: AuditRow,
  settings: JobSettings,
  onStage: (stage: string) => void,
): Promise<AuditResult> {
  const out = join(settings.dataDir, 'runs', audit.id);
  // An earlier, interrupted attempt's files would mix with this one's: each attempt starts clean.
  await rm(out, { recursive: true, force: true });
  const git = await gitAccess(audit, settings.policy);
  const [outcome, ...more] = await runAudit(audit.intakeSource, {
    out,
    intake: { limits: settings.limits, ...(git ? { git } : {}) },
    ...(settings.indicators?.length ? { scan: { indicatorLists: settings.indicators } } : {}),
    detonate: settings.detonate,
    detonation: {
      ...(settings.maxRuns !== undefined ? { maxRuns: settings.maxRuns } : {}),
      ...(settings.runTimeoutMs !== undefined ? { limits: { wallMs: settings.runTimeoutMs } } : {}),
    },
    onStage: (_skill, stage) => onStage(stage),
    pick: pickSkill(audit),
  });
  if (!outcome || more.length > 0) throw new JobError('AUDIT_FAILED', 'the audit did not produce one report');
  if (outcome.error) throw new JobError(outcome.error.code, outcome.error.message);
  const { report, runDir } = outcome;
  if (!report || !runDir) throw new JobError('AUDIT_FAILED', 'the audit wrote no report');
  return {
    contentHash: report.skill.id,
    skillName: report.skill.name,
    skillSubdir: report.skill.provenance.subdir,
    commit: report.skill.provenance.commit,
    runDir: relative(settings.dataDir, runDir),
    safetyStatus: report.safety.status,
    safetyScore: report.safety.score,
    safetyRating: report.safety.decision.rating,
    safetyReason: report.verdict.reasons[0] ?? '',
  };
}
