import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { AuditStore } from '../store/audits.js';
import { errorMessage, UserError } from '../util/errors.js';
import { VERSION } from '../version.js';
import { type AppSettings, createApp } from './app.js';
import { type JobSettings, runAuditJob } from './audit-job.js';
import { lockDataDir } from './data-lock.js';
import { AuditWorkers } from './workers.js';

// The service: the store (recovered after a crash), the worker pool and the HTTP server, started together
// and stopped together.

export interface ServiceConfig extends AppSettings, Omit<JobSettings, 'dataDir' | 'policy'> {
  port: number;
  concurrency: number;
  /** Run audits on `skillaudit worker`s through this Redis queue instead of in this process. */
  queue?: string;
  log: (line: string) => void;
}

export interface RunningService {
  url: string;
  store: AuditStore;
  workers: AuditWorkers | import('./audit-queue.js').QueuedAudits;
  /** Stops accepting and claiming, requeues running audits, closes the server and the database. */
  close(): Promise<void>;
}

// An audit that was running each of these many times the service went down is not tried again.
export const MAX_ATTEMPTS = 3;

/** Upload folders no queued or running audit owns (left by a crash between the upload and its row). */
async function sweepUploads(uploadsDir: string, store: AuditStore): Promise<void> {
  const owned = new Set(store.activeUploadPaths().map((path) => basename(dirname(path))));
  for (const entry of await readdir(uploadsDir)) {
    if (!owned.has(entry)) await rm(join(uploadsDir, entry), { recursive: true, force: true });
  }
}

export async function startService(config: ServiceConfig): Promise<RunningService> {
  const uploadsDir = join(config.dataDir, 'uploads');
  try {
    // Private to the service's user: it holds every submitter's uploads and reports.
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await chmod(config.dataDir, 0o700);
    await mkdir(uploadsDir, { recursive: true, mode: 0o700 });
    await mkdir(join(config.dataDir, 'runs'), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UserError(
      'UNREADABLE',
      `cannot use ${config.dataDir} as the data folder: ${errorMessage(error)}`,
    );
  }
  const release = lockDataDir(config.dataDir);
  let store: AuditStore;
  try {
    store = AuditStore.open(config.dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const recovered = store.recover(MAX_ATTEMPTS);
  if (recovered.requeued + recovered.failed > 0) {
    config.log(
      `recovered after a stop: ${recovered.requeued} audit(s) queued again, ${recovered.failed} failed after ${MAX_ATTEMPTS} attempts`,
    );
  }
  await sweepUploads(uploadsDir, store);
  const job: JobSettings = {
    dataDir: config.dataDir,
    policy: config.policy,
    limits: config.limits,
    detonate: config.detonate,
    ...(config.maxRuns !== undefined ? { maxRuns: config.maxRuns } : {}),
    ...(config.runTimeoutMs !== undefined ? { runTimeoutMs: config.runTimeoutMs } : {}),
    ...(config.indicators?.length ? { indicators: config.indicators } : {}),
  };
  // Loaded only with --queue: the embedded pool needs no Redis client.
  const workers = config.queue
    ? new (await import('./audit-queue.js')).QueuedAudits(config.queue, store, job, config.log)
    : new AuditWorkers(
        store,
        config.concurrency,
        (audit, onStage) => runAuditJob(audit, job, onStage),
        config.log,
      );
  // Everything besides the skill that decides an audit's outcome: a finished audit is reused only under the same.
  const configKey = createHash('sha256')
    .update(JSON.stringify({ version: VERSION, ...job, dataDir: null, policy: null }))
    .digest('hex')
    .slice(0, 16);
  const app = createApp({
    store,
    settings: { ...config, configKey },
    wake: () => workers.wake(),
    log: config.log,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s));
    s.once('error', (error: NodeJS.ErrnoException) => {
      store.close();
      release();
      reject(
        new UserError(
          'USAGE',
          `cannot listen on ${config.host}:${config.port} (${error.code ?? error.message})`,
        ),
      );
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  workers.start();
  let closed = false;
  return {
    url: `http://${host}:${address.port}`,
    store,
    workers,
    async close() {
      if (closed) return;
      closed = true;
      workers.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open; nothing more will be answered.
        (server as import('node:http').Server).closeAllConnections?.();
      });
      store.close();
      release();
    },
  };
}
