// `serve --queue`: the web service dispatches its audits through a real redis-server to a real
// `skillaudit worker` process sharing the data folder, and records the worker's outcomes.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_HOSTS } from '../../../src/server/host-guard.js';
import type { RunningService } from '../../../src/server/service.js';
import { BUILT_BIN, requireBuild } from '../../support/built-cli.js';
import { buildZip } from '../../support/intake/zip-writer.js';
import { type RedisServer, startRedis } from '../../support/redis-server.js';
import {
  getAudit,
  makeMirror,
  REPO_URL,
  skillMd,
  startTestService,
  submit,
  TOKEN,
  waitFor,
} from './support.js';

let root: string;
let redis: RedisServer;
let service: RunningService;
let worker: ChildProcess | null = null;
let workerLog = '';

beforeAll(async () => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'skillaudit-serve-queue-'));
  redis = await startRedis();
  const mirror = makeMirror(root, { 'skills/notes/SKILL.md': skillMd('notes') });
  service = await startTestService(join(root, 'data'), {
    queue: redis.url,
    policy: {
      allowedHosts: new Set(DEFAULT_ALLOWED_HOSTS),
      allowPrivate: false,
      mirrors: [{ from: 'https://github.com/', to: `file://${mirror}/` }],
    },
  });
});

afterAll(async () => {
  await service?.close();
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker?.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('serve --queue', () => {
  it('waits for a worker, then records the audits the worker runs in the shared data folder', async () => {
    const fromGit = await submit(service.url, { source: `${REPO_URL}/tree/main/skills/notes` });
    expect(fromGit.status).toBe(202);
    const id = fromGit.json.id as string;
    // No worker yet: the audit is dispatched and waits.
    const waiting = await waitFor(service.url, id, (a) => a.stage === 'waiting for a worker', 10_000);
    expect(waiting.status).toBe('running');

    worker = spawn(process.execPath, [BUILT_BIN, 'worker', '--queue', redis.url, '--lock-seconds', '5'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr?.on('data', (d) => (workerLog += d));
    const done = await waitFor(service.url, id, undefined, 60_000);
    expect(done.status).toBe('done');
    expect(done.verdict?.status).toMatch(/^(pass|caution|risky)$/);
    expect(workerLog).toContain(`service audit ${id} started`);
    expect(existsSync(join(root, 'data', 'runs', id))).toBe(true);

    // An upload travels the same way; its archive is removed once the outcome is recorded.
    const upload = await fetch(`${service.url}/api/audits?filename=zipped.zip`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
      body: buildZip([{ name: 'SKILL.md', data: skillMd('zipped') }]),
    });
    const uploaded = (await upload.json()) as { id: string };
    const finished = await waitFor(service.url, uploaded.id, undefined, 60_000);
    expect(finished.status).toBe('done');
    expect(existsSync(join(root, 'data', 'uploads', uploaded.id))).toBe(false);

    // An archive of two skills: the worker's split reaches the service, which dispatches a part audit each.
    const pack = await fetch(`${service.url}/api/audits?filename=pack.zip`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
      body: buildZip([
        { name: 'alpha/SKILL.md', data: skillMd('alpha') },
        { name: 'beta/SKILL.md', data: skillMd('beta') },
      ]),
    });
    const group = await waitFor(service.url, ((await pack.json()) as { id: string }).id, undefined, 60_000);
    const parts = group.parts as { skill: string; status: string; id: string }[];
    expect(parts.map((p) => [p.skill, p.status])).toEqual([
      ['alpha', 'done'],
      ['beta', 'done'],
    ]);
    for (const part of parts) expect(workerLog).toContain(`service audit ${part.id} started`);

    // A source the worker cannot audit fails with the worker's reason.
    const missing = await submit(service.url, { source: `${REPO_URL}/tree/main/skills/absent` });
    const failed = await waitFor(service.url, missing.json.id as string, undefined, 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('NOT_FOUND');
    expect((await getAudit(service.url, id)).attempts).toBe(1);
  }, 150_000);
});
