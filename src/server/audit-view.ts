import { isVerdictStatus, STATUS_ADVICE, type VerdictStatus } from '../core/verdict-words.js';
import type { AuditRow, AuditStore } from '../store/audits.js';

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
  verdict?: { status: VerdictStatus; safetyScore: number; advice: string };
  contentHash?: string;
  commit?: string;
  skillPath?: string;
  statusUrl: string;
  reportUrl: string;
  reportJsonUrl?: string;
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
  return {
    id: row.id,
    status: row.status,
    ...(row.stage ? { stage: row.stage } : {}),
    ...(row.status === 'queued' ? { queuePosition: store.queuePosition(row) } : {}),
    source: row.source,
    ...(skill ? { skill } : {}),
    createdAt: iso(row.createdAt),
    ...(row.startedAt !== null ? { startedAt: iso(row.startedAt) } : {}),
    ...(row.finishedAt !== null ? { finishedAt: iso(row.finishedAt) } : {}),
    attempts: row.attempts,
    ...(row.errorCode ? { error: { code: row.errorCode, message: shownMessage(row) } } : {}),
    ...(done
      ? {
          verdict: {
            status,
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
  };
}
