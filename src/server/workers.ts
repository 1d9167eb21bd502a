import type { AuditRow, AuditStore } from '../store/audits.js';
import { type JobOutcome, jobFailure } from './audit-job.js';
import { type AttemptOutcome, recordOutcome } from './audit-outcome.js';

// The worker pool: up to `concurrency` audits run at once in this process (an audit mostly waits on git,
// the sandbox and the file system). Workers claim from the store, so the queue lives on disk and a restart
// loses nothing. Stopping requeues what is running; a late result from a stopped attempt is discarded by
// the store (it only accepts the attempt that holds the row).

export type AuditRunner = (audit: AuditRow, onStage: (stage: string) => void) => Promise<JobOutcome>;

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
    let outcome: AttemptOutcome;
    try {
      outcome = await this.run(audit, (stage) => {
        this.store.setStage(audit.id, audit.attempts, stage);
      });
    } catch (error) {
      if (this.stopping) return; // interrupted by the shutdown, already queued again
      outcome = { kind: 'failed', ...jobFailure(error) };
    }
    // The upload is needed until the audit has a recorded end; a requeued audit still reads it.
    const line = await recordOutcome(this.store, audit, outcome);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (line) this.log(`audit ${audit.id} ${line} (${seconds} s)`);
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
