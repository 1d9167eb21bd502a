import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Provenance, Skill } from '../core/types.js';
import type { SkillResult } from '../intake/index.js';
import { runAudit, runFolderName } from '../pipeline/index.js';
import type { Report } from '../report/index.js';
import { ratingOf } from '../score/index.js';
import { errorMessage, UserError } from '../util/errors.js';
import { type CategoryMap, categoryOf, declaredCategory } from './categories.js';
import { auditOptionsFor, type BatchConfig } from './config.js';
import {
  type BatchLine,
  clearFailure,
  completeMarker,
  type FailureRecord,
  failureKey,
  failurePath,
  MARKER,
  RECORD_VERSION,
  type RunMarker,
  readFailure,
  type StageTimings,
  workerName,
  writeJsonAtomic,
} from './records.js';
import { isRemoteSource } from './sources.js';

// One source of a batch, audited exactly as `skillaudit audit` would (the same pipeline, the same run folders
// under `<batch>/runs/`), minus the skills this batch already finished: a source is opened, each of its skills
// is checked against its run folder's marker, and only the rest are audited. Every skill ends as one line.

export interface UnitContext {
  /** The batch folder (absolute). */
  dir: string;
  config: BatchConfig;
  configKey: string;
  /** Audit skills whose earlier attempt failed (by default a failed skill is reported, not retried). */
  retryFailed: boolean;
  categories?: CategoryMap;
  /** The content a queue job expects the source to hold: its failure is the skill's, even before it loads. */
  contentHash?: string;
  /**
   * Content being audited right now by this process, shared by its concurrent units: a skill copied into two
   * places of a corpus (forks do this) is audited once, and the copy waits for that audit.
   */
  inFlight?: Map<string, Promise<void>>;
  /** Which attempt this is (queue jobs are retried); recorded in a failure. */
  attempt?: number;
  onStage?: (skill: string, stage: string) => void;
}

export interface Planned {
  source: string;
  name: string;
  contentHash: string;
  category: string | null;
}

const now = () => new Date().toISOString();

/**
 * A source that names exactly this skill and, for git, exactly this commit: what a queue job carries, so a
 * worker on another machine audits the content the batch saw. Local paths become absolute.
 */
export function skillSource(provenance: Provenance): string {
  const { source: kind, uri, subdir } = provenance;
  const inner = subdir === '.' || subdir === '' ? '' : subdir;
  if (kind === 'git') {
    const at = provenance.commit ?? provenance.ref;
    const repo = isRemoteSource(uri) ? uri : resolve(uri);
    return `${repo}${at ? `@${at}` : ''}${inner ? `#${inner}` : ''}`;
  }
  if (kind === 'folder') return resolve(uri, inner);
  return `${resolve(uri)}${inner ? `#${inner}` : ''}`;
}

function reportSummary(runDir: string): Pick<BatchLine, 'verdict' | 'score'> {
  try {
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as Report;
    return { verdict: report.safety.status, score: ratingOf(report.safety) };
  } catch {
    return { verdict: null, score: null };
  }
}

/** The line of a finished run folder, from its marker and the report's verdict. */
function markerLine(
  dir: string,
  runDir: string,
  marker: RunMarker,
  outcome: Pick<BatchLine, 'verdict' | 'score'>,
): BatchLine {
  return {
    id: marker.contentHash,
    name: marker.name,
    source: marker.source,
    category: marker.category,
    status: 'done',
    ...outcome,
    runDir: relative(dir, runDir),
    timings: marker.timings,
    error: null,
    at: marker.finishedAt,
  };
}

/** A finished skill's line as seen from another place of the corpus or a later run: reused, nothing timed. */
export function reuseLine(line: BatchLine, where: { source: string; category: string | null }): BatchLine {
  return {
    ...line,
    source: where.source,
    category: where.category,
    status: 'reused',
    timings: null,
    at: now(),
  };
}

/**
 * The line of a skill whose run folder is complete under this configuration: in `runFolder` when the caller
 * knows it, else found by its content hash (a listing of runs/, which costs a corpus-sized read).
 */
export function finishedLine(
  dir: string,
  contentHash: string,
  key: string,
  runFolder?: string,
): BatchLine | null {
  const runs = join(dir, 'runs');
  let names: string[];
  try {
    names = runFolder
      ? [runFolder]
      : readdirSync(runs).filter((n) => n.endsWith(`-${contentHash.slice(0, 8)}`));
  } catch {
    return null;
  }
  for (const name of names) {
    const runDir = join(runs, name);
    const marker = completeMarker(runDir, contentHash, key);
    if (marker) return markerLine(dir, runDir, marker, reportSummary(runDir));
  }
  return null;
}

/** A failure record as a batch.jsonl line. */
export function failureLine(record: FailureRecord, message = record.message): BatchLine {
  return {
    id: record.contentHash,
    name: record.name,
    source: record.source,
    category: record.category,
    status: 'failed',
    verdict: null,
    score: null,
    runDir: null,
    timings: null,
    error: { code: record.code, message },
    at: record.at,
  };
}

/** Records a failure (replacing an earlier one) and returns its line. */
export async function recordFailure(
  ctx: UnitContext,
  what: { source: string; contentHash: string | null; name: string | null; category: string | null },
  error: { code: string; message: string },
): Promise<BatchLine> {
  const key = failureKey(what.source, what.contentHash, ctx.configKey);
  const previous = readFailure(ctx.dir, key);
  const record: FailureRecord = {
    version: RECORD_VERSION,
    key,
    ...what,
    configKey: ctx.configKey,
    code: error.code,
    message: error.message,
    attempts: ctx.attempt ?? (previous?.attempts ?? 0) + 1,
    at: now(),
  };
  await writeJsonAtomic(failurePath(ctx.dir, key), record);
  return failureLine(record);
}

/** Records the failure of a whole source (it could not be opened or audited). */
export function recordSourceFailure(ctx: UnitContext, source: string, error: unknown): Promise<BatchLine> {
  return recordFailure(
    ctx,
    { source, contentHash: ctx.contentHash ?? null, name: null, category: null },
    { code: error instanceof UserError ? error.code : 'AUDIT_FAILED', message: errorMessage(error) },
  );
}

/** Writes the run folder's marker (last, so the folder counts as complete only now) and returns its line. */
async function finishRun(
  ctx: UnitContext,
  plan: Planned,
  runDir: string,
  report: Report,
  timings: StageTimings,
): Promise<BatchLine> {
  const marker: RunMarker = {
    version: RECORD_VERSION,
    contentHash: plan.contentHash,
    configKey: ctx.configKey,
    source: plan.source,
    name: plan.name,
    category: plan.category,
    startedAt: new Date(Date.now() - timings.totalMs).toISOString(),
    finishedAt: now(),
    timings,
    worker: workerName(),
  };
  await writeJsonAtomic(join(runDir, MARKER), marker);
  await clearFailure(ctx.dir, failureKey(plan.source, plan.contentHash, ctx.configKey));
  return markerLine(ctx.dir, runDir, marker, {
    verdict: report.safety.status,
    score: ratingOf(report.safety),
  });
}

export type Triage = { kind: 'done'; line: BatchLine } | { kind: 'audit'; plan: Planned; runDir: string };

/**
 * What this batch still has to do with a loaded skill: nothing when its run folder is complete under this
 * configuration (a `reused` line), nothing when an earlier attempt failed and failures are not retried (its
 * `failed` line), else audit it.
 */
export function triage(skill: Skill, ctx: UnitContext): Triage {
  const source = skillSource(skill.provenance);
  const name = skill.name || skill.folderName;
  const category = categoryOf(
    { name, source, contentHash: skill.id },
    declaredCategory(skill.frontmatter),
    ctx.categories,
  );
  const runFolder = runFolderName(skill);
  const done = finishedLine(ctx.dir, skill.id, ctx.configKey, runFolder);
  if (done) return { kind: 'done', line: reuseLine(done, { source, category }) };
  const earlier = readFailure(ctx.dir, failureKey(source, skill.id, ctx.configKey));
  if (earlier && !ctx.retryFailed) {
    const line = failureLine(
      { ...earlier, source, category },
      `${earlier.message} (an earlier attempt; --retry-failed runs it again)`,
    );
    return { kind: 'done', line };
  }
  return {
    kind: 'audit',
    plan: { source, name, contentHash: skill.id, category },
    runDir: join(ctx.dir, 'runs', runFolder),
  };
}

/** Audits the skills of one source that this batch has not finished; one line per skill. */
export async function auditUnit(source: string, ctx: UnitContext): Promise<BatchLine[]> {
  const lines: BatchLine[] = [];
  const planned = new Map<string, Planned>();
  const copies: { plan: Planned; audited: Promise<void> }[] = [];
  const inFlight = ctx.inFlight ?? new Map<string, Promise<void>>();
  let ended = () => {};
  const thisUnit = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const pick = (skills: SkillResult[]): SkillResult[] =>
    skills.filter((entry) => {
      if (!entry.ok) return true;
      const next = triage(entry.skill, ctx);
      if (next.kind === 'done') {
        lines.push(next.line);
        return false;
      }
      const running = inFlight.get(next.plan.contentHash);
      if (running) {
        copies.push({ plan: next.plan, audited: running });
        return false;
      }
      inFlight.set(next.plan.contentHash, thisUnit);
      planned.set(next.runDir, next.plan);
      return true;
    });

  try {
    lines.push(...(await auditPicked(source, ctx, pick, planned)));
  } finally {
    for (const plan of planned.values()) inFlight.delete(plan.contentHash);
    ended();
  }
  for (const { plan, audited } of copies) {
    await audited;
    const line = finishedLine(ctx.dir, plan.contentHash, ctx.configKey);
    lines.push(
      line
        ? reuseLine(line, plan)
        : await recordFailure(ctx, plan, {
            code: 'AUDIT_FAILED',
            message: 'a copy of this skill (same content) elsewhere in the corpus failed its audit',
          }),
    );
  }
  return lines;
}

async function auditPicked(
  source: string,
  ctx: UnitContext,
  pick: (skills: SkillResult[]) => SkillResult[],
  planned: ReadonlyMap<string, Planned>,
): Promise<BatchLine[]> {
  const lines: BatchLine[] = [];
  let outcomes: Awaited<ReturnType<typeof runAudit>>;
  try {
    outcomes = await runAudit(source, {
      ...auditOptionsFor(ctx.config, join(ctx.dir, 'runs')),
      pick,
      ...(ctx.onStage ? { onStage: ctx.onStage } : {}),
    });
  } catch (error) {
    lines.push(await recordSourceFailure(ctx, source, error));
    return lines;
  }
  // The source opened: an earlier failure to open it is history.
  await clearFailure(ctx.dir, failureKey(source, null, ctx.configKey));
  for (const outcome of outcomes) {
    const plan = outcome.runDir ? planned.get(outcome.runDir) : undefined;
    if (outcome.error || !outcome.report || !outcome.runDir || !plan) {
      const error = outcome.error ?? { code: 'AUDIT_FAILED', message: 'the audit wrote no report' };
      lines.push(
        await recordFailure(
          ctx,
          {
            source: outcome.path,
            contentHash: plan?.contentHash ?? null,
            name: plan?.name ?? null,
            category: plan?.category ?? null,
          },
          error,
        ),
      );
      continue;
    }
    const timings = outcome.timings ?? { totalMs: 0, stages: {} };
    lines.push(await finishRun(ctx, plan, outcome.runDir, outcome.report, timings));
  }
  return lines;
}
