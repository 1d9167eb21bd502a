import type { Command } from 'commander';
import { finishBeforeInterrupt } from '../util/interrupt.js';
import { positiveInt } from './output.js';

// `skillaudit worker`: audits jobs from a batch's Redis queue (`skillaudit batch … --queue`) and the web service's
// (`serve --queue`) until stopped. The first SIGINT/SIGTERM is a graceful stop: no new jobs, the running audits
// end (BullMQ's close), then the process exits. A second one stops at once: the sandboxed runs are killed and the
// process exits before any of those audits can record an ending, so BullMQ gives their jobs to another worker
// once their lock expires, and the audit resumes in the same run folder.

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
        import('../batch/index.js'),
        import('../server/index.js'),
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
      // Signals are handled before the workers report ready: a job can start first, and a SIGTERM then must
      // still finish it (a CI run caught the default action killing the process mid-job).
      finishBeforeInterrupt();
      const stopped = new Promise<void>((done) => {
        let signals = 0;
        const stop = (signal: NodeJS.Signals) => {
          signals++;
          if (signals > 1) {
            // The interrupt steps stopped the sandboxed runs; exit now (cleanups run at exit), recording nothing.
            log(`${signal}: stopping now; running jobs go to another worker when their lock expires`);
            process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
          }
          log(`${signal}: finishing the running jobs, taking no more (again to stop now)`);
          Promise.allSettled([worker.close(), serveWorker.close()]).then(() => done());
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      // A signal during start-up stops the workers before they report ready: do not wait for that.
      await Promise.race([
        Promise.all([worker.ready, serveWorker.ready]).then(() =>
          log(
            `worker ${process.pid} taking batch and service jobs from ${flags.queue} (${flags.concurrency} at once each)`,
          ),
        ),
        stopped,
      ]);
      await stopped;
      process.exit(0);
    });
}
