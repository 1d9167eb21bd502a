import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { buildZip } from '../../support/intake/zip-writer.js';
import { type AuditJson, skillMd, startTestService, TOKEN, waitFor } from './support.js';

// A private service with two tenants, over HTTP: an audit belongs to the token that submitted it; listing and
// reading need a token; a tenant sees its own audits only (another's is "no audit"), the admin token all; the
// home page's form submits with a token and keeps it in a cookie for the pages that follow.

const ACME = 'acme-token-0123456789abcdef';
const GLOBEX = 'globex-token-0123456789abcdef';

let root: string;
let service: RunningService;
let url: string;
const ids: Record<string, string> = {};

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function upload(name: string, token: string): Promise<AuditJson> {
  const response = await fetch(`${url}/api/audits?filename=${name}.zip`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/zip', ...auth(token) },
    body: buildZip([{ name: 'SKILL.md', data: skillMd(name) }]),
  });
  expect(response.status).toBe(202);
  return (await response.json()) as AuditJson;
}

const listed = async (token: string | null) => {
  const response = await fetch(`${url}/api/audits`, { headers: token ? auth(token) : {} });
  return { status: response.status, body: (await response.json()) as { audits: AuditJson[]; total: number } };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-tenancy-'));
  service = await startTestService(join(root, 'data'), {
    tenants: [
      { name: 'acme', token: ACME },
      { name: 'globex', token: GLOBEX },
    ],
    maxUploadBytes: 256 * 1024,
    rateLimitPerMinute: 1000,
  });
  url = service.url;
  ids.acme = (await upload('anvil', ACME)).id;
  ids.globex = (await upload('gadget', GLOBEX)).id;
  for (const id of Object.values(ids)) await waitFor(url, id);
}, 120_000);

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('tenancy', () => {
  it('lists and reads nothing without a token', async () => {
    expect((await listed(null)).status).toBe(401);
    expect((await fetch(`${url}/audits`)).status).toBe(401);
    expect((await fetch(`${url}/api/audits/${ids.acme}`)).status).toBe(401);
    expect((await fetch(`${url}/api/audits/${ids.acme}/report`)).status).toBe(401);
    expect((await fetch(`${url}/audits/${ids.acme}`)).status).toBe(401);
    expect((await fetch(`${url}/api/lookup?hash=${'0'.repeat(64)}`)).status).toBe(401);
    expect((await listed('not-a-token-of-this-service')).status).toBe(401);
  });

  it("a tenant lists and reads its own audits, and another's is no audit at all", async () => {
    const acme = await listed(ACME);
    expect(acme.status).toBe(200);
    expect(acme.body.audits.map((a) => a.id)).toEqual([ids.acme]);
    expect(acme.body.total).toBe(1);
    expect((await fetch(`${url}/api/audits/${ids.acme}`, { headers: auth(ACME) })).status).toBe(200);
    for (const path of [
      `/api/audits/${ids.globex}`,
      `/api/audits/${ids.globex}/report`,
      `/audits/${ids.globex}`,
    ])
      expect((await fetch(`${url}${path}`, { headers: auth(ACME) })).status).toBe(404);
    // A lookup by the other tenant's content hash finds nothing either.
    const theirs = (await (
      await fetch(`${url}/api/audits/${ids.globex}`, { headers: auth(GLOBEX) })
    ).json()) as AuditJson;
    const lookup = await fetch(`${url}/api/lookup?hash=${theirs.contentHash}`, { headers: auth(ACME) });
    expect(await lookup.json()).toEqual({ found: false });
    const own = await fetch(`${url}/api/lookup?hash=${theirs.contentHash}`, { headers: auth(GLOBEX) });
    expect(((await own.json()) as { found: boolean }).found).toBe(true);
  });

  it('the admin token lists every audit', async () => {
    const admin = await listed(TOKEN);
    expect(admin.body.audits.map((a) => a.id).sort()).toEqual([ids.acme, ids.globex].sort());
  });

  it('the same source submitted by two tenants is two audits, never the other tenant’s', async () => {
    const zip = buildZip([{ name: 'SKILL.md', data: skillMd('shared') }]);
    const post = (token: string) =>
      fetch(`${url}/api/audits?filename=shared.zip`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/zip', ...auth(token) },
        body: zip,
      }).then(async (r) => (await r.json()) as AuditJson & { reused?: boolean });
    const first = await post(ACME);
    await waitFor(url, first.id);
    const second = await post(GLOBEX);
    expect(second.id).not.toBe(first.id);
    expect(second.reused).toBeUndefined();
    // The same tenant again is answered from its own finished audit.
    const again = await post(ACME);
    expect(again.id).toBe(first.id);
    expect(again.reused).toBe(true);
    await waitFor(url, second.id);
  });

  it('whoami says who a token is and refuses an unknown one', async () => {
    const me = await fetch(`${url}/api/whoami`, { headers: auth(ACME) });
    expect(await me.json()).toEqual({ role: 'tenant', tenant: 'acme', public: false });
    expect((await fetch(`${url}/api/whoami`, { headers: auth('wrong-token-0123456789') })).status).toBe(401);
    expect(await (await fetch(`${url}/api/whoami`)).json()).toEqual({ role: 'anonymous', public: false });
  });

  it('the home page form submits an archive with a token and the cookie then reads its pages', async () => {
    const home = await (await fetch(`${url}/`)).text();
    expect(home).toContain('action="/submit"');
    expect(home).toContain('name="token"');
    expect(home).toContain(`curl -X POST ${url}/api/audits`);
    expect(home).not.toContain('&lt;this server&gt;');
    const form = new FormData();
    form.set('token', GLOBEX);
    form.set('url', '');
    form.set(
      'archive',
      new Blob([buildZip([{ name: 'SKILL.md', data: skillMd('formed') }])], { type: 'application/zip' }),
      'formed.zip',
    );
    const posted = await fetch(`${url}/submit`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { Origin: url },
    });
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location')!;
    expect(location).toMatch(/^\/audits\/[A-Za-z0-9_-]{16}$/);
    const cookie = posted.headers.get('set-cookie')!;
    expect(cookie).toMatch(/skillaudit_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const id = location.split('/').pop()!;
    await waitFor(url, id, undefined, 50_000, GLOBEX);
    const pair = cookie.split(';')[0]!;
    expect((await fetch(`${url}${location}`, { headers: { Cookie: pair } })).status).toBe(200);
    const list = await (await fetch(`${url}/audits`, { headers: { Cookie: pair } })).text();
    expect(list).toContain('formed');
    expect(list).not.toContain('anvil');
  });

  it('the form refuses a body over the upload cap and one that does not declare its length', async () => {
    const big = new FormData();
    big.set('token', ACME);
    big.set('archive', new Blob([Buffer.alloc(300 * 1024)], { type: 'application/zip' }), 'big.zip');
    expect((await fetch(`${url}/submit`, { method: 'POST', body: big, redirect: 'manual' })).status).toBe(
      413,
    );
    const { request } = await import('node:http');
    const status = await new Promise<number>((done, fail) => {
      const req = request(`${url}/submit`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (r) => done(r.statusCode ?? 0)).on('error', fail);
      req.end('--x--\r\n');
    });
    expect(status).toBe(400);
  });

  it('the form refuses a wrong token and a post from another site', async () => {
    const form = new FormData();
    form.set('token', 'wrong-token-0123456789');
    form.set('url', 'https://github.com/acme/skills');
    const wrong = await fetch(`${url}/submit`, { method: 'POST', body: form, redirect: 'manual' });
    expect(wrong.status).toBe(401);
    form.set('token', ACME);
    const foreign = await fetch(`${url}/submit`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('a public service', () => {
  it('lets anyone list and read, but submitting still needs a token', async () => {
    const open = await startTestService(join(root, 'public'), { public: true });
    try {
      expect((await fetch(`${open.url}/api/audits`)).status).toBe(200);
      const refused = await fetch(`${open.url}/api/audits`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'https://github.com/acme/skills' }),
      });
      expect(refused.status).toBe(401);
    } finally {
      await open.close();
    }
  });
});
