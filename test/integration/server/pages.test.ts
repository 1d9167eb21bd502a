import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { buildZip } from '../../support/intake/zip-writer.js';
import { type AuditJson, skillMd, startTestService, TOKEN, waitFor } from './support.js';

// The service's pages and list on the real server: home page, the audits list (API and page) with filters
// and pages, the true state of an audit, uploads shown by name and hash, and a finished upload reused.

let root: string;
let service: RunningService;
let url: string;
const ids: Record<string, string> = {};

async function upload(name: string, zip: Buffer, query = ''): Promise<{ status: number; json: AuditJson }> {
  const response = await fetch(`${url}/api/audits?filename=${name}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/zip', Authorization: `Bearer ${TOKEN}` },
    body: zip,
  });
  return { status: response.status, json: (await response.json()) as AuditJson };
}

const zipOf = (name: string) => buildZip([{ name: 'SKILL.md', data: skillMd(name) }]);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-pages-'));
  service = await startTestService(join(root, 'data'), {
    public: true,
    maxUploadBytes: 256 * 1024,
    rateLimitPerMinute: 1000,
    maxQueued: 100,
  });
  url = service.url;
  for (const name of ['alpha', 'beta', 'gamma']) {
    const r = await upload(`${name}.zip`, zipOf(name));
    expect(r.status).toBe(202);
    ids[name] = r.json.id;
  }
  const broken = await upload('broken.zip', buildZip([{ name: 'README.md', data: '# not a skill\n' }]));
  ids.broken = broken.json.id;
  for (const id of Object.values(ids)) await waitFor(url, id);
}, 120_000);

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('service pages', () => {
  it('GET / says what the service is and how to submit', async () => {
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).toContain('Submit a skill');
    expect(html).toContain('/api/audits');
    expect(html).toContain('Authorization: Bearer');
    expect(html).toContain('3 done');
  });

  it('GET /api/audits lists newest first, filters by status and source, and pages', async () => {
    const all = (await (await fetch(`${url}/api/audits`)).json()) as { audits: AuditJson[]; total: number };
    expect(all.total).toBe(4);
    expect(all.audits.map((a) => a.id)).toEqual([ids.broken, ids.gamma, ids.beta, ids.alpha]);
    const done = (await (await fetch(`${url}/api/audits?status=done`)).json()) as { total: number };
    expect(done.total).toBe(3);
    const failed = (await (await fetch(`${url}/api/audits?status=failed`)).json()) as { audits: AuditJson[] };
    expect(failed.audits.map((a) => a.id)).toEqual([ids.broken]);
    const bySource = (await (await fetch(`${url}/api/audits?source=beta`)).json()) as { audits: AuditJson[] };
    expect(bySource.audits.map((a) => a.id)).toEqual([ids.beta]);
    const wildcard = (await (await fetch(`${url}/api/audits?source=%25`)).json()) as { total: number };
    expect(wildcard.total).toBe(0);
    const page2 = (await (await fetch(`${url}/api/audits?limit=2&page=2`)).json()) as {
      audits: AuditJson[];
      page: number;
    };
    expect(page2.page).toBe(2);
    expect(page2.audits.map((a) => a.id)).toEqual([ids.beta, ids.alpha]);
    expect((await fetch(`${url}/api/audits?status=bogus`)).status).toBe(400);
    expect((await fetch(`${url}/api/audits?limit=0`)).status).toBe(400);
  });

  it('GET /audits renders the list with readable times and filters in the page', async () => {
    const html = await (await fetch(`${url}/audits?status=done&limit=2`)).text();
    expect(html.match(/data-testid="audit-row"/g)).toHaveLength(2);
    expect(html).toContain('3 audits, page 1 of 2');
    expect(html).toMatch(/rel="next" href="\/audits\?status=done&amp;page=2"/);
    expect(html).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(html).not.toMatch(/>\d{4}-\d\d-\d\dT/);
  });

  it('shows a failed audit as failed, with its reason', async () => {
    const html = await (await fetch(`${url}/audits/${ids.broken}`)).text();
    expect(html).toContain('data-state="failed"');
    expect(html).toContain('Failed');
    expect(html).toContain('NO_SKILL');
    // Named by the uploaded file, never by where the server keeps it.
    expect(html).toContain('broken.zip');
    expect(html).not.toContain(join(root, 'data'));
    expect(html).not.toContain('Audit in progress');
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it('names an upload by file name and content hash, never by its path on the server', async () => {
    const report = (await (await fetch(`${url}/api/audits/${ids.alpha}/report`)).json()) as {
      skill: { path: string; provenance: { uri: string } };
    };
    expect(report.skill.path).toMatch(/^alpha\.zip \(sha256 [0-9a-f]{12}…\)$/);
    expect(report.skill.provenance.uri).toBe(report.skill.path);
    const page = await (await fetch(`${url}/audits/${ids.alpha}`)).text();
    expect(page).not.toContain(join(root, 'data'));
    expect(page).not.toContain('uploads/');
  });

  it('answers a byte-identical upload from the finished audit, and runs again when asked', async () => {
    const again = await upload('alpha-copy.zip', zipOf('alpha'));
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: ids.alpha, status: 'done', reused: true });
    const fresh = await upload('alpha.zip', zipOf('alpha'), '&fresh=1');
    expect(fresh.status).toBe(202);
    expect(fresh.json.id).not.toBe(ids.alpha);
    await waitFor(url, fresh.json.id);
  });
});
