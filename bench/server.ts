// Web service figures (printed, not asserted): `npx tsx bench/server.ts [requests] [rows]`.
// - read latency over real HTTP with `rows` finished audits in the store: health, status, lookup by content
//   hash and by skills.sh URL (the extension's calls);
// - submission latency (token check, URL rules, queue insert);
// - submit-to-done wall time of one keyless audit (with detonation) of a skill served from a local mirror.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ALLOWED_HOSTS } from '../src/server/host-guard.js';
import { startService } from '../src/server/service.js';
import { AuditStore } from '../src/store/audits.js';
import { makeMirror, REPO_URL, submit, TOKEN, waitFor } from '../test/integration/server/support.js';

const REQUESTS = Number(process.argv[2] ?? 500);
const ROWS = Number(process.argv[3] ?? 2_000);

async function time(label: string, fn: (i: number) => Promise<unknown>): Promise<void> {
  await fn(-1); // warm up
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
  console.log(
    `${label.padEnd(36)} median ${at(0.5).toFixed(2).padStart(6)} ms   p99 ${at(0.99).toFixed(2).padStart(6)} ms`,
  );
}

const root = mkdtempSync(join(tmpdir(), 'skillaudit-bench-server-'));
try {
  const mirror = makeMirror(root, { 'skills/csv-summary': '@examples/csv-summary' });
  const dataDir = join(root, 'data');
  // Seed finished audits straight into the store: lookups must stay fast with a large history.
  const seed = AuditStore.open(dataDir);
  const seeded = performance.now();
  for (let i = 0; i < ROWS; i++) {
    const key = `github.com/owner${i % 500}/repo${i}`;
    const made = seed.submit(
      {
        source: `https://${key}`,
        sourceKey: key,
        repoKey: key,
        ref: null,
        subdir: null,
        skill: null,
        intakeSource: `https://${key}`,
        uploadPath: null,
        tenant: null,
      },
      ROWS + 1,
    );
    if (made.kind !== 'created') throw new Error('seed failed');
    const claimed = seed.claim()!;
    seed.finish(claimed.id, claimed.attempts, {
      contentHash: i.toString(16).padStart(64, '0'),
      skillName: `skill-${i}`,
      skillSubdir: '.',
      commit: null,
      runDir: 'runs/none',
      safetyStatus: 'pass',
      safetyScore: 100,
      safetyRating: 100,
      safetyReason: '',
    });
  }
  const lastId = seed.all().at(-1)!.id;
  seed.close();
  console.log(
    `seeded ${ROWS} finished audits in ${((performance.now() - seeded) / 1000).toFixed(1)} s (synchronous=FULL)`,
  );

  const service = await startService({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    token: TOKEN,
    concurrency: 1,
    policy: {
      allowedHosts: new Set(DEFAULT_ALLOWED_HOSTS),
      allowPrivate: false,
      mirrors: [{ from: 'https://github.com/', to: `file://${mirror}/` }],
    },
    maxUploadBytes: 50 * 1024 ** 2,
    rateLimitPerMinute: 1_000_000,
    maxQueued: 1_000_000,
    limits: {},
    detonate: true,
    log: () => {},
  });
  const url = service.url;
  console.log(`${REQUESTS} sequential requests each, keep-alive, over ${url}:`);
  await time('GET /api/health', () => fetch(`${url}/api/health`).then((r) => r.text()));
  await time('GET /api/audits/:id', () => fetch(`${url}/api/audits/${lastId}`).then((r) => r.text()));
  await time('GET /api/lookup?hash=', (i) =>
    fetch(`${url}/api/lookup?hash=${Math.abs(i).toString(16).padStart(64, '0')}`).then((r) => r.text()),
  );
  await time('GET /api/lookup?url=skills.sh', (i) =>
    fetch(`${url}/api/lookup?url=https://skills.sh/owner${Math.abs(i) % 500}/repo${Math.abs(i)}/x`).then(
      (r) => r.text(),
    ),
  );

  const started = performance.now();
  const created = await submit(url, { source: `${REPO_URL}/tree/main/skills/csv-summary` });
  const done = await waitFor(url, created.json.id as string, undefined, 300_000);
  console.log(
    `submit → ${done.status} (csv-summary, mirrored git, detonation): ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // Distinct sources, each a new row (their audits then fail fast: the mirror lacks these repositories).
  await time('POST /api/audits (queue insert)', (i) =>
    submit(url, { source: `https://github.com/acme/skills${i + 1}` }).then((r) => r.status),
  );
  await service.close();
  await service.workers.idle();
} finally {
  rmSync(root, { recursive: true, force: true });
}
