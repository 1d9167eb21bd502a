import type { AuditRow, AuditStore } from '../store/audits.js';
import type { JobOutcome } from './audit-job.js';
import { removeUpload } from './upload.js';

// Recording how an attempt ended, the same for the embedded workers and the queue's: done, split into part
// audits, or failed. The store takes the outcome of the attempt that holds the row only; an upload is freed
// once no queued or running audit reads it (the parts of one archive share their parent's).

export type AttemptOutcome = JobOutcome | { kind: 'failed'; code: string; message: string };

/** Records the outcome; returns what happened for the log, or null when the attempt was stale. */
export async function recordOutcome(
  store: AuditStore,
  audit: Pick<AuditRow, 'id' | 'attempts' | 'uploadPath'>,
  outcome: AttemptOutcome,
): Promise<string | null> {
  let line: string;
  let recorded: boolean;
  if (outcome.kind === 'done') {
    recorded = store.finish(audit.id, audit.attempts, outcome.result);
    line = `done: ${outcome.result.safetyStatus} ${outcome.result.safetyRating}`;
  } else if (outcome.kind === 'split') {
    recorded = store.split(audit.id, audit.attempts, outcome.parts);
    line = `holds ${outcome.parts.length} skills: one audit queued for each`;
  } else {
    recorded = store.fail(audit.id, audit.attempts, outcome.code, outcome.message);
    line = `failed: ${outcome.code}: ${outcome.message}`;
  }
  if (!recorded) return null;
  if (audit.uploadPath && !store.activeUploadPaths().includes(audit.uploadPath))
    await removeUpload(audit.uploadPath);
  return line;
}
