import { isVerdictStatus, STATUS_ADVICE, type VerdictStatus } from '../core/verdict-words.js';
import { type AuditRow, type AuditStore, isGroup } from '../store/audits.js';

// The public shape of an audit (GET /api/audits/:id, lookups, submissions). docs/server.md documents it;
// the browser extension reads it, so fields are only ever added.

export interface AuditView {
  id: string;
  status: AuditRow['status'];
  stage?: string;
  queuePosition?: number;
  source: string;
  skill?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  attempts: number;
  error?: { code: string; message: string };
  /**
   * rating: the headline number in the status's band (absent for audits finished before it existed); reason: why
   * the status, in one line; safetyScore: the finding score (eq. 8), a detail kept for older clients.
   */
  verdict?: { status: VerdictStatus; rating?: number; reason?: string; safetyScore: number; advice: string };
  contentHash?: string;
  commit?: string;
  skillPath?: string;
  statusUrl: string;
  reportUrl: string;
  reportJsonUrl?: string;
  /**
   * A source that held several skills and named none: one part audit per skill, in folder order. The
   * group has no verdict of its own; its status is running while any part is queued or running.
   */
  parts?: AuditView[];
  /** The group audit this one is a part of. */
  partOf?: { id: string; statusUrl: string; reportUrl: string };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An error message as the submitter may see it: an upload is named by its file name, not its path here. */
function shownMessage(row: AuditRow): string {
  const message = row.errorMessage ?? '';
  if (!row.uploadPath && !row.source.startsWith('upload:')) return message;
  return message.split(row.intakeSource).join(row.source.replace(/^upload:/, ''));
}

export function auditView(row: AuditRow, store: AuditStore): AuditView {
  const skill = row.skillName ?? row.skill;
  const status = row.safetyStatus;
  const done = row.status === 'done' && isVerdictStatus(status) && row.safetyScore !== undefined;
  const parts = isGroup(row) ? store.parts(row.id).map((part) => auditView(part, store)) : undefined;
  const partsActive = parts?.some((p) => p.status === 'queued' || p.status === 'running') ?? false;
  // A group ends with its last part, not when it split.
  const finishedAt = partsActive
    ? null
    : parts?.length
      ? Math.max(...parts.map((p) => Date.parse(p.finishedAt!)))
      : row.finishedAt;
  return {
    id: row.id,
    status: partsActive ? 'running' : row.status,
    ...(row.stage ? { stage: row.stage } : {}),
    ...(row.status === 'queued' ? { queuePosition: store.queuePosition(row) } : {}),
    source: row.source,
    ...(skill ? { skill } : {}),
    createdAt: iso(row.createdAt),
    ...(row.startedAt !== null ? { startedAt: iso(row.startedAt) } : {}),
    ...(finishedAt !== null ? { finishedAt: iso(finishedAt) } : {}),
    attempts: row.attempts,
    ...(row.errorCode ? { error: { code: row.errorCode, message: shownMessage(row) } } : {}),
    ...(done
      ? {
          verdict: {
            status,
            ...(row.safetyRating !== undefined ? { rating: row.safetyRating } : {}),
            ...(row.safetyReason ? { reason: row.safetyReason } : {}),
            safetyScore: row.safetyScore!,
            advice: STATUS_ADVICE[status],
          },
        }
      : {}),
    ...(row.contentHash ? { contentHash: row.contentHash } : {}),
    ...(row.commit ? { commit: row.commit } : {}),
    ...(row.skillSubdir ? { skillPath: row.skillSubdir } : {}),
    statusUrl: `/api/audits/${row.id}`,
    reportUrl: `/audits/${row.id}`,
    ...(done ? { reportJsonUrl: `/api/audits/${row.id}/report` } : {}),
    ...(parts ? { parts } : {}),
    ...(row.parentId !== null
      ? {
          partOf: {
            id: row.parentId,
            statusUrl: `/api/audits/${row.parentId}`,
            reportUrl: `/audits/${row.parentId}`,
          },
        }
      : {}),
  };
}
