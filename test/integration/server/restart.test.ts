// Nothing lost, nothing run twice: `skillaudit serve` as a child process is killed (SIGKILL) with one audit
// running and one queued, restarted on the same data folder, and every audit must end exactly once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore } from '../../../src/store/audits.js';
import {
  getAudit,
  makeMirror,
  REPO_ROOT,
  REPO_URL,
  type ServeProcess,
  skillMd,
  startServe,
  submit,
  waitFor,
} from './support.js';

let root: string;
let dataDir: string;
let args: string[];
const started: ServeProcess[] = [];

// Each skill's one sandbox run sleeps, so an audit is reliably caught mid-run.
const slowSkill = (name: string) => ({
  [`skills/${name}/SKILL.md`]: skillMd(name),
  [`skills/${name}/scripts/wait.sh`]: '#!/bin/sh\nsleep 2\necho waited\n',
});

async function serve(): Promise<ServeProcess> {
  const process = await startServe(args);
  started.push(process);
  return process;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-restart-'));
  const mirror = makeMirror(root, { ...slowSkill('slow-a'), ...slowSkill('slow-b'), ...slowSkill('slow-c') });
  dataDir = join(root, 'data');
  args = [
    '--data-dir',
    dataDir,
    '--git-mirror',
    `https://github.com/=${mirror}`,
    '--concurrency',
    '1',
    '--max-runs',
    '1',
  ];
});

afterAll(async () => {
  for (const p of started) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
  rmSync(root, { recursive: true, force: true });
});

describe('skillaudit serve across a crash', () => {
  it('finishes every audit exactly once after SIGKILL and a restart', async () => {
    const first = await serve();
    const a = (await submit(first.url, { source: REPO_URL, skill: 'slow-a' })).json.id as string;
    const doneA = await waitFor(first.url, a);
    expect(doneA).toMatchObject({ status: 'done', attempts: 1 });

    const b = (await submit(first.url, { source: REPO_URL, skill: 'slow-b' })).json.id as string;
    const c = (await submit(first.url, { source: REPO_URL, skill: 'slow-c' })).json.id as string;
    await waitFor(first.url, b, (audit) => audit.stage === 'detonate');
    expect((await getAudit(first.url, c)).status).toBe('queued');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    // The killed service left its lock behind; a new one takes it over, and a third is refused while it runs.
    const second = await serve();
    const third = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'skillaudit.js'), 'serve', '--port', '0', ...args],
      {
        env: { ...process.env, SKILLAUDIT_SERVER_TOKEN: 'x'.repeat(20) },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(third.status).toBe(2);
    expect(third.stderr).toMatch(/in use by another skillaudit serve \(pid \d+\)/);
    const [doneB, doneC] = [await waitFor(second.url, b), await waitFor(second.url, c)];
    expect(doneB).toMatchObject({ status: 'done', attempts: 2, skill: 'slow-b' });
    expect(doneC).toMatchObject({ status: 'done', attempts: 1, skill: 'slow-c' });
    // The audit finished before the crash was not touched again.
    expect(await getAudit(second.url, a)).toEqual(doneA);
    expect(second.stderr()).toMatch(/recovered after a stop: 1 audit\(s\) queued again/);
    expect(second.stderr()).not.toContain(`audit ${a} started`);
    expect(second.stderr().match(new RegExp(`audit ${b} done`, 'g'))).toHaveLength(1);
    const health = (await (await fetch(`${second.url}/api/health`)).json()) as {
      audits: Record<string, number>;
    };
    expect(health.audits).toEqual({ queued: 0, running: 0, done: 3, failed: 0 });

    // SIGTERM with an audit running: it goes back to the queue, its attempt not counted, and the process exits.
    const d = (await submit(second.url, { source: `${REPO_URL}/tree/main/skills/slow-a` })).json.id as string;
    await waitFor(second.url, d, (audit) => audit.stage === 'detonate');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    expect(existsSync(join(dataDir, 'server.pid'))).toBe(false); // released on a clean stop
    const store = AuditStore.open(dataDir);
    try {
      const rows = store.all();
      expect(rows.map((r) => r.id)).toEqual([a, b, c, d]);
      expect(rows.find((r) => r.id === d)).toMatchObject({ status: 'queued', attempts: 0 });
      // One run folder per finished audit: the interrupted attempt's files were replaced, not added to.
      for (const id of [a, b, c]) expect(readdirSync(join(dataDir, 'runs', id))).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});
