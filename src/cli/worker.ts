import type { Command } from 'commander';
import { positiveInt } from './output.js';

// `skillaudit worker`: audits jobs from a batch's Redis queue (`skillaudit batch … --queue`) until stopped.
// SIGINT/SIGTERM stop the sandboxed runs at once (util/interrupt.ts), so a running audit could only end with
// its scripts cut short: the worker closes without waiting, and BullMQ gives those jobs to another worker
// (or to this one restarted) once their lock expires; the audit resumes in the same run folder.

interface WorkerFlags {
  queue: string;
  concurrency: number;
  lockSeconds: number;
  perMinute?: number;
  quiet?: boolean;
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'Audit skills from a batch queue on Redis (started by `skillaudit batch … --queue`); run one per machine',
    )
    .requiredOption('--queue <redis-url>', '(required) the queue: redis://host:port[/db]')
    .option('--concurrency <n>', 'skills audited at once by this worker', positiveInt, 2)
    .option(
      '--lock-seconds <n>',
      "how long a job stays this worker's after it stops answering (then another worker takes it)",
      positiveInt,
      30,
    )
    .option('--per-minute <n>', 'start at most n skills a minute (rate limit)', positiveInt)
    .option('-q, --quiet', 'no log lines on stderr')
    .action(async (flags: WorkerFlags) => {
      const [{ startWorker }, { startServeWorker }] = await Promise.all([
        import('../batch/worker.js'),
        import('../server/audit-queue.js'),
      ]);
      const log = flags.quiet
        ? () => {}
        : (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      const worker = startWorker({
        url: flags.queue,
        concurrency: flags.concurrency,
        lockMs: flags.lockSeconds * 1000,
        ...(flags.perMinute ? { perMinute: flags.perMinute } : {}),
        log,
      });
      // The same worker serves `serve --queue` audits too: the web service scales out with the batch workers.
      const serveWorker = startServeWorker(flags.queue, flags.concurrency, flags.lockSeconds * 1000, log);
      await Promise.all([worker.ready, serveWorker.ready]);
      log(
        `worker ${process.pid} taking batch and service jobs from ${flags.queue} (${flags.concurrency} at once each)`,
      );
      await new Promise<void>((done) => {
        const stop = (signal: NodeJS.Signals) => {
          log(`${signal}: stopping; running jobs go back to the queue when their lock expires`);
          Promise.allSettled([worker.close(true), serveWorker.close(true)]).then(() => done());
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      process.exit(0);
    });
}
