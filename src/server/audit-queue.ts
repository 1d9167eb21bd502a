import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import { parseQueueUrl } from '../batch/index.js';
import type { AuditRow, AuditStore } from '../store/audits.js';
import { errorMessage } from '../util/errors.js';
import { type JobSettings, jobFailure, runAuditJob } from './audit-job.js';
import { type AttemptOutcome, recordOutcome } from './audit-outcome.js';
import type { HostPolicy } from './host-guard.js';

// `serve --queue redis://…`: the service keeps its SQLite store (the API's record of every audit) but its
// audits run on `skillaudit worker`s through a BullMQ queue, so the web service scales out with the same
// workers as a batch. The service claims a queued row and puts it on the queue as job `<audit id>-<attempt>`;
// a worker runs the same job function the embedded pool runs (audit-job.ts) in the shared data folder and
// returns the outcome; the service records it for that attempt only (the store ignores a stale attempt's
// result, as with the embedded pool). Events bring outcomes at once; a poll catches any event missed across
// a Redis restart. Anyone who can write to this Redis can submit audits: keep it private (password, network).

export const SERVE_QUEUE = 'skillaudit-serve';
const POLL_MS = 2_000;

/** Job settings as JSON (the host allowlist travels as a list). */
interface SerializedSettings extends Omit<JobSettings, 'policy'> {
  policy: { allowedHosts: string[]; allowPrivate: boolean; mirrors: HostPolicy['mirrors'] };
}

interface ServeJobData {
  audit: AuditRow;
  settings: SerializedSettings;
}

type ServeJobOutcome = AttemptOutcome;

const jobIdOf = (audit: Pick<AuditRow, 'id' | 'attempts'>) => `${audit.id}-${audit.attempts}`;

/** The service's side: dispatches claimed audits to the queue and records what the workers report. */
export class QueuedAudits {
  private readonly queue: Queue<ServeJobData, ServeJobOutcome>;
  private readonly events: QueueEvents;
  /** Dispatched attempts still open, by job id. */
  private readonly open = new Map<string, { id: string; attempt: number; uploadPath: string | null }>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    url: string,
    private readonly store: AuditStore,
    private readonly settings: JobSettings,
    private readonly log: (line: string) => void,
  ) {
    const connection = parseQueueUrl(url);
    this.queue = new Queue(SERVE_QUEUE, { connection });
    this.events = new QueueEvents(SERVE_QUEUE, { connection });
    this.queue.on('error', (error) => this.log(`queue: ${error.message}`));
    this.events.on('error', (error) => this.log(`queue events: ${error.message}`));
    this.events.on('progress', ({ jobId, data }) => {
      const open = this.open.get(jobId);
      const stage = (data as { stage?: unknown } | null)?.stage;
      if (open && typeof stage === 'string') this.store.setStage(open.id, open.attempt, stage);
    });
    this.events.on('completed', ({ jobId, returnvalue }) => {
      void this.settle(jobId, returnvalue as unknown as ServeJobOutcome);
    });
    this.events.on('failed', ({ jobId, failedReason }) => {
      void this.settle(jobId, { kind: 'failed', code: 'AUDIT_FAILED', message: failedReason });
    });
  }

  start(): void {
    this.timer = setInterval(() => {
      this.wake();
      void this.poll();
    }, POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Dispatches every queued audit (the workers decide how many run at once). */
  wake(): void {
    while (!this.stopping) {
      let audit: AuditRow | null;
      try {
        audit = this.store.claim();
      } catch (error) {
        this.log(`cannot claim work: ${errorMessage(error)}`);
        return;
      }
      if (!audit) return;
      const id = jobIdOf(audit);
      this.open.set(id, { id: audit.id, attempt: audit.attempts, uploadPath: audit.uploadPath });
      this.store.setStage(audit.id, audit.attempts, 'waiting for a worker');
      const { policy, ...rest } = this.settings;
      const data: ServeJobData = {
        audit,
        settings: {
          ...rest,
          policy: {
            allowedHosts: [...policy.allowedHosts],
            allowPrivate: policy.allowPrivate,
            mirrors: policy.mirrors,
          },
        },
      };
      this.queue
        .add('audit', data, { jobId: id, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } })
        .then(() => this.log(`audit ${audit.id} queued for the workers (attempt ${audit.attempts})`))
        .catch((error: unknown) => {
          this.open.delete(id);
          this.store.requeue(audit.id, audit.attempts);
          this.log(`audit ${audit.id}: cannot queue it: ${errorMessage(error)}`);
        });
    }
  }

  /** Records a worker's outcome for its attempt (once), and frees the upload when nothing else reads it. */
  private async settle(jobId: string, outcome: ServeJobOutcome): Promise<void> {
    const open = this.open.get(jobId);
    if (!open) return;
    this.open.delete(jobId);
    const line = await recordOutcome(
      this.store,
      { id: open.id, attempts: open.attempt, uploadPath: open.uploadPath },
      outcome,
    );
    if (line) this.log(`audit ${open.id} ${line}`);
    // A split queued part audits: dispatch them now rather than at the next poll.
    if (outcome.kind === 'split') this.wake();
  }

  /** Catches outcomes whose event was missed (a Redis restart drops nothing from the queue, but may events). */
  private async poll(): Promise<void> {
    for (const jobId of [...this.open.keys()]) {
      try {
        const job = await this.queue.getJob(jobId);
        if (!job) continue;
        const state = await job.getState();
        if (state === 'completed') await this.settle(jobId, job.returnvalue);
        else if (state === 'failed')
          await this.settle(jobId, { kind: 'failed', code: 'AUDIT_FAILED', message: job.failedReason });
      } catch {
        return; // Redis unreachable: the next poll tries again
      }
    }
  }

  get running(): number {
    return this.open.size;
  }

  /** Stops dispatching. Dispatched audits keep running on the workers; after a restart they are queued again. */
  stop(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    void Promise.allSettled([this.events.close(), this.queue.close()]);
  }

  /** Waits until every dispatched audit has an outcome (tests). */
  async idle(): Promise<void> {
    while (this.open.size > 0) {
      await this.poll();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The worker's side: runs the service's audits (started by `skillaudit worker` beside the batch worker). */
export function startServeWorker(
  url: string,
  concurrency: number,
  lockMs: number,
  log: (line: string) => void,
): { close(force?: boolean): Promise<void>; ready: Promise<void> } {
  const worker = new Worker<ServeJobData, ServeJobOutcome>(
    SERVE_QUEUE,
    async (job: Job<ServeJobData, ServeJobOutcome>) => {
      const { audit, settings } = job.data;
      log(`service audit ${audit.id} started (attempt ${audit.attempts}): ${audit.source}`);
      const jobSettings: JobSettings = {
        ...settings,
        policy: { ...settings.policy, allowedHosts: new Set(settings.policy.allowedHosts) },
      };
      try {
        const outcome = await runAuditJob(audit, jobSettings, (stage) => {
          void job.updateProgress({ stage }).catch(() => {});
        });
        log(`service audit ${audit.id} ended: ${outcome.kind}`);
        return outcome;
      } catch (error) {
        const failure = jobFailure(error);
        log(`service audit ${audit.id} failed: ${failure.code}: ${failure.message}`);
        return { kind: 'failed', ...failure };
      }
    },
    {
      connection: parseQueueUrl(url),
      concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (error) => log(`queue error: ${error.message}`));
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    close: (force = false) => worker.close(force),
  };
}
