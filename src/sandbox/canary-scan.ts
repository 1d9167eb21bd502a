// The post-run search for canary tokens in the files a run wrote. A run may write a flood on purpose (many
// files, huge files) to make this search slow: it is bounded in files, in bytes and in time (a share of the
// run's wall-clock budget), streams each file through one buffer, and runs on a worker thread so the
// event loop (the service's health endpoint, other audits) never waits on it.
import { Worker } from 'node:worker_threads';
import { tokenNeedles } from './canary-encodings.js';
import type { CanaryRef } from './evidence.js';

export interface CanaryScanLimits {
  /** Files examined at most; the rest are counted as skipped. */
  maxFiles: number;
  /** Bytes read at most over all files. */
  maxBytes: number;
  /** Bytes read at most from one file (its start: where a copied secret usually lands). */
  maxFileBytes: number;
  /** Time allowed for the whole search. */
  budgetMs: number;
}

export const DEFAULT_CANARY_SCAN_LIMITS: CanaryScanLimits = {
  maxFiles: 2_000,
  maxBytes: 32 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  budgetMs: 10_000,
};

export interface CanaryScanResult {
  /** Path to the names of the canaries found in it. */
  hits: Map<string, string[]>;
  filesScanned: number;
  bytesScanned: number;
  /** Files not examined (over a cap or past the time budget). */
  filesSkipped: number;
  /** Why the search stopped early, or null. */
  stoppedFor: 'files' | 'bytes' | 'time' | null;
  ms: number;
}

// Plain JavaScript, evaluated in the worker: it only reads files and looks for given strings, so it needs
// none of the project's modules (and runs the same from src/ under tsx and from dist/).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync, constants } = require('node:fs');
const { files, needles, limits, deadline } = workerData;
const CHUNK = 1024 * 1024;
const buf = Buffer.alloc(CHUNK);
const overlap = Math.max(0, ...needles.map((n) => n.text.length)) - 1;
const hits = [];
let filesScanned = 0, bytesScanned = 0, stoppedFor = null, i = 0;
for (; i < files.length; i++) {
  if (filesScanned >= limits.maxFiles) { stoppedFor = 'files'; break; }
  if (bytesScanned >= limits.maxBytes) { stoppedFor = 'bytes'; break; }
  if (Date.now() > deadline) { stoppedFor = 'time'; break; }
  let fd;
  // Never follow a link out of the run's folders, never wait on a fifo.
  try { fd = openSync(files[i], constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK); } catch { continue; }
  const found = new Set();
  let carry = '';
  try {
    for (let read = 0; read < limits.maxFileBytes && bytesScanned < limits.maxBytes; ) {
      const want = Math.min(CHUNK, limits.maxFileBytes - read, limits.maxBytes - bytesScanned);
      const n = readSync(fd, buf, 0, want, null);
      if (n === 0) break;
      read += n;
      bytesScanned += n;
      const text = carry + buf.toString('latin1', 0, n);
      const lower = text.toLowerCase();
      for (const needle of needles) {
        if (!found.has(needle.canary) && (needle.ci ? lower : text).includes(needle.text)) found.add(needle.canary);
      }
      carry = overlap > 0 ? text.slice(-overlap) : '';
      if (Date.now() > deadline) break;
    }
  } catch {
    // Unreadable (a fifo, a vanished file): nothing found in it.
  } finally {
    closeSync(fd);
  }
  filesScanned++;
  if (found.size > 0) hits.push([files[i], [...found]]);
}
parentPort.postMessage({ hits, filesScanned, bytesScanned, filesSkipped: files.length - i, stoppedFor });
`;

/** Which canaries occur (in any encoding) in each of `files`, within `limits`. */
export async function scanFilesForCanaries(
  files: string[],
  canaries: CanaryRef[],
  limits: CanaryScanLimits = DEFAULT_CANARY_SCAN_LIMITS,
): Promise<CanaryScanResult> {
  const started = Date.now();
  const empty = { hits: new Map(), filesScanned: 0, bytesScanned: 0, filesSkipped: 0, stoppedFor: null };
  if (files.length === 0 || canaries.length === 0) return { ...empty, ms: 0 };
  const needles = canaries.flatMap((c) =>
    tokenNeedles(c.token).map((n) => ({
      canary: c.name,
      text: n.caseInsensitive ? n.text.toLowerCase() : n.text,
      ci: n.caseInsensitive,
    })),
  );
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { files, needles, limits, deadline: started + limits.budgetMs },
  });
  const result = await new Promise<Omit<CanaryScanResult, 'ms' | 'hits'> & { hits: [string, string[]][] }>(
    (resolve, reject) => {
      // The worker checks the deadline between reads; a read stuck longer than that is cut off here.
      const guard = setTimeout(() => void worker.terminate(), limits.budgetMs + 2_000);
      worker.once('message', (m) => {
        clearTimeout(guard);
        resolve(m);
      });
      worker.once('error', (e) => {
        clearTimeout(guard);
        reject(e);
      });
      worker.once('exit', () => {
        clearTimeout(guard);
        resolve({ ...empty, hits: [], filesSkipped: files.length, stoppedFor: 'time' });
      });
    },
  );
  void worker.terminate();
  return { ...result, hits: new Map(result.hits), ms: Date.now() - started };
}
