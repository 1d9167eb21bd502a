import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AuditResult, AuditStore, type NewAudit } from '../../../src/store/audits.js';

let dir: string;
let store: AuditStore;

const audit = (key: string, extra: Partial<NewAudit> = {}): NewAudit => ({
  source: `https://github.com/${key}`,
  sourceKey: `github.com/${key}`,
  repoKey: `github.com/${key}`,
  ref: null,
  subdir: null,
  skill: null,
  intakeSource: `https://github.com/${key}`,
  uploadPath: null,
  tenant: null,
  ...extra,
});

const result = (hash: string, extra: Partial<AuditResult> = {}): AuditResult => ({
  contentHash: hash,
  skillName: 'pdf',
  skillSubdir: '.',
  commit: 'abc123',
  runDir: 'runs/x/pdf-12345678',
  safetyStatus: 'pass',
  safetyScore: 100,
  safetyRating: 100,
  safetyReason: 'no finding that weighs towards risk',
  ...extra,
});

function created(outcome: ReturnType<AuditStore['submit']>) {
  if (outcome.kind === 'full') throw new Error('queue full');
  return outcome.audit;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillaudit-store-'));
  store = AuditStore.open(dir);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('AuditStore', () => {
  it('moves an audit queued → running → done and records the attempt and result', () => {
    const a = created(store.submit(audit('a/r'), 10, 1000));
    expect(a).toMatchObject({ status: 'queued', attempts: 0, createdAt: 1000, startedAt: null });
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const claimed = store.claim(2000)!;
    expect(claimed).toMatchObject({
      id: a.id,
      status: 'running',
      attempts: 1,
      stage: 'intake',
      startedAt: 2000,
    });
    expect(store.claim()).toBeNull();
    expect(store.setStage(a.id, 1, 'detonate')).toBe(true);
    expect(store.get(a.id)?.stage).toBe('detonate');
    expect(store.finish(a.id, 1, result('h1'), 3000)).toBe(true);
    expect(store.get(a.id)).toMatchObject({
      status: 'done',
      stage: null,
      finishedAt: 3000,
      contentHash: 'h1',
      safetyScore: 100,
    });
    // A finished audit is never claimed or finished again.
    expect(store.claim()).toBeNull();
    expect(store.finish(a.id, 1, result('h2'))).toBe(false);
    expect(store.fail(a.id, 1, 'X', 'x')).toBe(false);
  });

  it('lists the uploads of queued and running audits only', () => {
    const upload = (key: string) => audit(key, { uploadPath: `/data/uploads/${key}/x.zip` });
    created(store.submit(upload('done'), 10, 1));
    store.finish(store.claim(2)!.id, 1, result('h'), 3);
    created(store.submit(upload('running'), 10, 4));
    store.claim(5);
    created(store.submit(upload('queued'), 10, 6));
    created(store.submit(audit('no-upload'), 10, 7));
    expect(store.activeUploadPaths().sort()).toEqual([
      '/data/uploads/queued/x.zip',
      '/data/uploads/running/x.zip',
    ]);
  });

  it('returns the queued or running audit of an identical source instead of a second row', () => {
    const first = created(store.submit(audit('a/r'), 10));
    const again = store.submit(audit('a/r'), 10);
    expect(again).toMatchObject({ kind: 'existing', audit: { id: first.id } });
    store.claim();
    expect(store.submit(audit('a/r'), 10)).toMatchObject({
      kind: 'existing',
      audit: { id: first.id, status: 'running' },
    });
    store.fail(first.id, 1, 'GIT_FAILED', 'no');
    // Once it ended, the same source may be audited again.
    expect(store.submit(audit('a/r'), 10).kind).toBe('created');
    expect(store.all()).toHaveLength(2);
  });

  it('refuses new work when the queue is full', () => {
    created(store.submit(audit('a/1'), 2));
    created(store.submit(audit('a/2'), 2));
    expect(store.submit(audit('a/3'), 2)).toEqual({ kind: 'full', queued: 2 });
  });

  it('claims in submission order and gives queue positions', () => {
    const ids = ['a/1', 'a/2', 'a/3'].map((k, i) => created(store.submit(audit(k), 10, 100 + i)).id);
    expect(ids.map((id) => store.queuePosition(store.get(id)!))).toEqual([1, 2, 3]);
    expect(store.claim()?.id).toBe(ids[0]);
    expect(store.queuePosition(store.get(ids[2]!)!)).toBe(2);
  });

  it('only the attempt that holds the row may write its end', () => {
    const a = created(store.submit(audit('a/r'), 10));
    store.claim();
    expect(store.requeue(a.id, 1)).toBe(true);
    expect(store.get(a.id)).toMatchObject({ status: 'queued', attempts: 0 });
    store.claim();
    store.recover(3); // a crash: running → queued, attempt kept
    const second = store.claim()!;
    expect(second.attempts).toBe(2);
    expect(store.finish(a.id, 1, result('stale'))).toBe(false);
    expect(store.setStage(a.id, 1, 'scan')).toBe(false);
    expect(store.finish(a.id, 2, result('fresh'))).toBe(true);
    expect(store.get(a.id)?.contentHash).toBe('fresh');
  });

  it('recovers running audits after a crash and fails those that were interrupted too often', () => {
    const a = created(store.submit(audit('a/1'), 10, 1));
    const b = created(store.submit(audit('a/2'), 10, 2));
    const c = created(store.submit(audit('a/3'), 10, 3));
    store.claim();
    store.claim();
    store.finish(b.id, 1, result('hb'));
    for (let i = 0; i < 2; i++) {
      store.recover(3);
      store.claim(); // a again (b is done, c is younger)
    }
    expect(store.get(a.id)?.attempts).toBe(3);
    expect(store.recover(3)).toEqual({ requeued: 0, failed: 1 });
    expect(store.get(a.id)).toMatchObject({ status: 'failed', errorCode: 'INTERRUPTED' });
    expect(store.get(b.id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(store.get(c.id)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('survives reopening: the queue and results are on disk', () => {
    const a = created(store.submit(audit('a/r'), 10));
    store.claim();
    store.close();
    store = AuditStore.open(dir);
    expect(store.get(a.id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(store.recover(3)).toEqual({ requeued: 1, failed: 0 });
    expect(store.countByStatus()).toEqual({ queued: 1, running: 0, done: 0, failed: 0 });
  });

  it('looks up the latest done audit by content hash and by repository, folder, skill and ref', () => {
    const done = (key: string, extra: Partial<NewAudit>, res: Partial<AuditResult>, at: number) => {
      const a = created(store.submit(audit(key, extra), 10, at));
      const claimed = store.claim(at)!;
      expect(claimed.id).toBe(a.id);
      store.finish(a.id, 1, result(res.contentHash ?? 'h', res), at);
      return a.id;
    };
    const repo = { repoKey: 'github.com/acme/skills' };
    const pdfMain = done(
      'k1',
      { ...repo, ref: 'main', subdir: 'skills/pdf' },
      { contentHash: 'h1', skillName: 'pdf', skillSubdir: 'skills/pdf' },
      10,
    );
    const pdfDefault = done(
      'k2',
      { ...repo, skill: 'pdf' },
      { contentHash: 'h2', skillName: 'pdf', skillSubdir: 'skills/pdf' },
      20,
    );
    const csv = done(
      'k3',
      { ...repo, subdir: 'skills/csv' },
      { contentHash: 'h3', skillName: 'csv', skillSubdir: 'skills/csv' },
      30,
    );
    const whole = done('k4', { repoKey: 'github.com/acme/one' }, { contentHash: 'h4', skillName: 'one' }, 40);
    const q = (o: Partial<{ ref: string; subdir: string; skill: string; repoKey: string; commit: string }>) =>
      store.latestByTarget({ repoKey: repo.repoKey, ref: null, subdir: null, skill: null, ...o })?.id ?? null;

    expect(store.latestByHash('h1')?.id).toBe(pdfMain);
    expect(store.latestByHash('nope')).toBeNull();
    expect(q({ skill: 'pdf' })).toBe(pdfDefault); // latest of either ref
    expect(q({ subdir: 'skills/pdf' })).toBe(pdfDefault);
    expect(q({ subdir: 'skills/pdf', ref: 'main' })).toBe(pdfMain); // the exact ref wins
    expect(q({ subdir: 'skills/pdf', ref: 'v9' })).toBe(pdfDefault); // else the default branch
    expect(q({ skill: 'csv' })).toBe(csv);
    expect(q({ skill: 'csv', ref: 'main' })).toBe(csv);
    expect(q({ skill: 'other' })).toBeNull();
    expect(q({})).toBeNull(); // the repository as a whole was never audited
    expect(q({ repoKey: 'github.com/acme/one' })).toBe(whole);
    // A page at the audited commit, by its full or short hash, is that audit, whatever ref it was submitted at.
    expect(q({ subdir: 'skills/pdf', ref: 'abc123' })).toBe(pdfDefault);
    const pinned = done(
      'k5',
      { ...repo, ref: 'v2', subdir: 'skills/pdf' },
      {
        contentHash: 'h5',
        skillName: 'pdf',
        skillSubdir: 'skills/pdf',
        commit: 'feedface0123456789abcdef0123456789abcdef',
      },
      5,
    );
    expect(q({ subdir: 'skills/pdf', ref: 'feedface0123456789abcdef0123456789abcdef' })).toBe(pinned);
    expect(q({ subdir: 'skills/pdf', ref: 'FEEDFACE' })).toBe(pinned);
    expect(q({ subdir: 'skills/pdf', ref: 'v2' })).toBe(pinned);
    expect(q({ subdir: 'skills/pdf', ref: 'deadbee' })).toBe(pdfDefault); // another commit: the default branch
    // A page at a branch the service resolved to the commit v2 was audited at: that audit, not the branch's
    // own older one nor the default branch's.
    const at = { subdir: 'skills/pdf', commit: 'feedface0123456789abcdef0123456789abcdef' };
    expect(q({ ...at, ref: 'release' })).toBe(pinned);
    expect(q({ ...at, ref: 'main' })).toBe(pinned);
    expect(q(at)).toBe(pinned); // a page at the default branch
    // No audit of that commit: as without it.
    const other = { subdir: 'skills/pdf', commit: '0123456789abcdef0123456789abcdef01234567' };
    expect(q({ ...other, ref: 'main' })).toBe(pdfMain);
    expect(q({ ...other, ref: 'v9' })).toBe(pdfDefault);
    expect(q(other)).toBe(pdfDefault); // the latest of any ref, as without it
  });

  it('splits a source of several skills into queued part audits sharing its upload', () => {
    const upload = '/data/uploads/u1/skills.zip';
    const parent = created(
      store.submit(
        audit('x', { source: 'upload:skills.zip', repoKey: null, intakeSource: upload, uploadPath: upload }),
        10,
        1000,
      ),
    );
    const claimed = store.claim(2000)!;
    const parts = [
      { subdir: 'skills/a', name: 'a' },
      { subdir: 'skills/b', name: null },
    ];
    expect(store.split(claimed.id, 2, parts, 3000)).toBe(false); // a stale attempt splits nothing
    expect(store.split(claimed.id, 1, parts, 3000)).toBe(true);
    expect(store.get(parent.id)).toMatchObject({ status: 'done', finishedAt: 3000, parentId: null });
    expect(store.get(parent.id)?.contentHash).toBeUndefined();
    const children = store.parts(parent.id);
    expect(children.map((c) => [c.source, c.subdir, c.skill, c.status, c.parentId, c.intakeSource])).toEqual([
      ['upload:skills.zip#skills/a', 'skills/a', 'a', 'queued', parent.id, upload],
      ['upload:skills.zip#skills/b', 'skills/b', null, 'queued', parent.id, upload],
    ]);
    // The upload is read until the last part ends.
    expect(store.activeUploadPaths().includes(upload)).toBe(true);
    const first = store.claim(4000)!;
    expect(first.id).toBe(children[0]!.id);
    expect(store.finish(first.id, 1, result('h1'))).toBe(true);
    expect(store.activeUploadPaths().includes(upload)).toBe(true);
    const second = store.claim(5000)!;
    expect(store.fail(second.id, 1, 'SKILL_NOT_FOUND', 'gone')).toBe(true);
    expect(store.activeUploadPaths().includes(upload)).toBe(false);
  });

  it('shows a part with the folder in place of the one the submission named; a group is never a lookup answer', () => {
    const parent = created(
      store.submit(
        audit('acme/many', {
          source: 'https://github.com/acme/many@main#skills',
          repoKey: 'github.com/acme/many',
          subdir: 'skills',
        }),
        10,
      ),
    );
    store.claim();
    store.split(parent.id, 1, [{ subdir: 'skills/pdf', name: 'pdf' }]);
    expect(store.parts(parent.id)[0]?.source).toBe('https://github.com/acme/many@main#skills/pdf');
    const q = { repoKey: 'github.com/acme/many', ref: null, subdir: 'skills', skill: null };
    expect(store.latestByTarget(q)).toBeNull();
  });

  it('adds the part column to a database written before parts existed', () => {
    store.close();
    const old = join(dir, 'old');
    rmSync(old, { recursive: true, force: true });
    store = AuditStore.open(old); // creates the file; then make it look like a version-1 database
    store.close();
    const db = new Database(join(old, 'server.sqlite'));
    db.exec('DROP INDEX audits_parent; ALTER TABLE audits DROP COLUMN parent_id');
    db.pragma('user_version = 1');
    db.close();
    store = AuditStore.open(old);
    const a = created(store.submit(audit('old/r'), 10));
    expect(store.get(a.id)).toMatchObject({ parentId: null, status: 'queued' });
    expect(store.parts(a.id)).toEqual([]);
  });

  it('adds the tenant and rating columns to a version-2 database, and keeps each tenant to its own', () => {
    store.close();
    const old = join(dir, 'v2');
    rmSync(old, { recursive: true, force: true });
    store = AuditStore.open(old);
    store.close();
    const db = new Database(join(old, 'server.sqlite'));
    for (const column of ['tenant', 'safety_rating', 'safety_reason'])
      db.exec(`ALTER TABLE audits DROP COLUMN ${column}`);
    db.pragma('user_version = 2');
    db.close();
    store = AuditStore.open(old);
    const mine = created(store.submit(audit('t/mine', { tenant: 'acme' }), 10));
    const theirs = created(store.submit(audit('t/theirs', { tenant: 'globex' }), 10));
    for (const [row, hash] of [
      [mine, 'a'.repeat(64)],
      [theirs, 'b'.repeat(64)],
    ] as const) {
      const claimed = store.claim()!;
      expect(claimed.id).toBe(row.id);
      store.finish(
        claimed.id,
        claimed.attempts,
        result(hash, { safetyRating: 12, safetyReason: 'risky because: x' }),
      );
    }
    expect(store.get(mine.id)).toMatchObject({
      tenant: 'acme',
      safetyRating: 12,
      safetyReason: 'risky because: x',
    });
    expect(store.list({ tenant: 'acme', limit: 10, offset: 0 }).audits.map((a) => a.id)).toEqual([mine.id]);
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(2);
    expect(store.latestByHash('b'.repeat(64), 'acme')).toBeNull();
    expect(store.latestByHash('b'.repeat(64), 'globex')?.id).toBe(theirs.id);
  });
});
