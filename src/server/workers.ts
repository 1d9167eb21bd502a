import type { AuditResult, AuditRow, AuditStore } from '../store/audits.js';
import { jobFailure } from './audit-job.js';
import { removeUpload } from './upload.js';

// The worker pool: up to `concurrency` audits run at once in this process (an audit mostly waits on git,
// the sandbox and the file system). Workers claim from the store, so the queue lives on disk and a restart
// loses nothing. Stopping requeues what is running; a late result from a stopped attempt is discarded by
// the store (it only accepts the attempt that holds the row).

export type AuditRunner = (audit: AuditRow, onStage: (stage: string) => void) => Promise<AuditResult>;

// Claims are also retried on a timer, in case a wake-up was missed (e.g. a claim failed on a busy database).
const POLL_MS = 2_000;

export class AuditWorkers {
  private readonly active = new Map<string, { attempt: number; done: Promise<void> }>();
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: AuditStore,
    private readonly concurrency: number,
    private readonly run: AuditRunner,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Starts queued audits while there is room. */
  wake(): void {
    while (!this.stopping && this.active.size < this.concurrency) {
      let audit: AuditRow | null;
      try {
        audit = this.store.claim();
      } catch (error) {
        this.log(`cannot claim work: ${(error as Error).message}`);
        return;
      }
      if (!audit) return;
      const claimed = audit;
      const done = this.execute(claimed)
        .catch((error: unknown) => this.log(`audit ${claimed.id}: cannot record its end: ${String(error)}`))
        .finally(() => {
          this.active.delete(claimed.id);
          this.wake();
        });
      this.active.set(claimed.id, { attempt: claimed.attempts, done });
    }
  }

  private async execute(audit: AuditRow): Promise<void> {
    const started = Date.now();
    this.log(`audit ${audit.id} started (attempt ${audit.attempts}): ${audit.source}`);
    let recorded: boolean;
    try {
      const result = await this.run(audit, (stage) => {
        this.store.setStage(audit.id, audit.attempts, stage);
      });
      recorded = this.store.finish(audit.id, audit.attempts, result);
      if (recorded) {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        this.log(`audit ${audit.id} done in ${seconds} s: ${result.safetyStatus} ${result.safetyScore}`);
      }
    } catch (error) {
      if (this.stopping) return; // interrupted by the shutdown, already queued again
      const failure = jobFailure(error);
      recorded = this.store.fail(audit.id, audit.attempts, failure.code, failure.message);
      if (recorded) this.log(`audit ${audit.id} failed: ${failure.code}: ${failure.message}`);
    }
    // The upload is needed until the audit has a recorded end; a requeued audit still reads it.
    if (recorded && audit.uploadPath) await removeUpload(audit.uploadPath);
  }

  get running(): number {
    return this.active.size;
  }

  /** Stops claiming and puts running audits back in the queue (they start afresh after a restart). */
  stop(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    for (const [id, { attempt }] of this.active) this.store.requeue(id, attempt);
  }

  /** Waits for running audits to end (tests; shutdown does not wait). */
  async idle(): Promise<void> {
    await Promise.all([...this.active.values()].map((a) => a.done));
  }
}
