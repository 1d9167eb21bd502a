// The web service over real HTTP (port 0), real SQLite and real keyless audits (bubblewrap detonation) of
// skills fetched from a local bare repository that stands in for https://github.com/acme/skills.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_ADVICE, type VerdictStatus } from '../../../src/core/verdict-words.js';
import { validateReport } from '../../../src/report/schema.js';
import { DEFAULT_ALLOWED_HOSTS } from '../../../src/server/host-guard.js';
import { type RunningService, type ServiceConfig, startService } from '../../../src/server/service.js';
import { VERSION } from '../../../src/version.js';
import { buildZip } from '../../support/intake/zip-writer.js';
import { type AuditJson, makeMirror, REPO_URL, skillMd, submit, TOKEN, waitFor } from './support.js';

let root: string;
let mirror: string;
let service: RunningService;
let url: string;
let tipCommit: string;
// Audits are submitted together up front and run side by side; each test waits for the ones it checks.
const submitted: Record<string, { status: number; json: Record<string, unknown> }> = {};
const ZIP = buildZip([{ name: 'SKILL.md', data: skillMd('zipped') }]);
const TWO_SKILLS_ZIP = buildZip([
  { name: 'pack/alpha/SKILL.md', data: skillMd('alpha') },
  { name: 'pack/beta/SKILL.md', data: skillMd('beta') },
]);

function config(dataDir: string, extra: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    token: TOKEN,
    // A public catalogue (as the browser extension reads): lookups and reports need no token. A private
    // service's tenancy is tenancy.test.ts.
    public: true,
    concurrency: 3,
    policy: {
      // localhost and 127.0.0.1 are allowed hosts here only to show the address check refusing them.
      allowedHosts: new Set([...DEFAULT_ALLOWED_HOSTS, 'localhost', '127.0.0.1']),
      allowPrivate: false,
      mirrors: [{ from: 'https://github.com/', to: `file://${mirror}/` }],
    },
    maxUploadBytes: 256 * 1024,
    rateLimitPerMinute: 1000,
    maxQueued: 100,
    limits: {},
    detonate: true,
    maxRuns: 2,
    log: () => {},
    ...extra,
  };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-serve-'));
  mirror = makeMirror(root, {
    'skills/csv-summary': '@examples/csv-summary',
    'skills/notes/SKILL.md': skillMd('notes'),
  });
  service = await startService(config(join(root, 'data')));
  url = service.url;
  submitted.csv = await submit(url, { source: `${REPO_URL}/tree/main/skills/csv-summary` });
  submitted.csvAgain = await submit(url, { source: `${REPO_URL}.git@main#skills/csv-summary` });
  submitted.several = await submit(url, { source: REPO_URL });
  submitted.named = await submit(url, { source: REPO_URL, skill: 'notes' });
  submitted.unnamed = await submit(url, { source: REPO_URL, skill: 'nope' });
  submitted.escaped = await submit(url, { source: `${REPO_URL}#<img src=x onerror=alert(1)>` });
  const tip = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: join(mirror, 'acme', 'skills.git') });
  tipCommit = tip.toString().trim();
  // A page at a short hash: no server sends an abbreviated commit, so the service looks it up among the
  // repository's recent commits (a tree-less fetch) and fetches that one commit.
  submitted.abbreviated = await submit(url, {
    source: `${REPO_URL}@${tipCommit.slice(0, 8)}#skills/notes`,
  });
  submitted.noSuchCommit = await submit(url, { source: `${REPO_URL}@0000000a#skills/notes` });
  const upload = await fetch(`${url}/api/audits?filename=zipped.zip`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
    body: ZIP,
  });
  submitted.upload = { status: upload.status, json: (await upload.json()) as Record<string, unknown> };
  const pack = await fetch(`${url}/api/audits?filename=pack.zip`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
    body: TWO_SKILLS_ZIP,
  });
  submitted.pack = { status: pack.status, json: (await pack.json()) as Record<string, unknown> };
});

/** A group's parts once the group and every part have ended. */
async function partsOf(id: string): Promise<AuditJson[]> {
  const group = await waitFor(url, id, (a) => a.status === 'done' || a.status === 'failed', 120_000);
  expect(group.status).toBe('done');
  return group.parts as AuditJson[];
}

afterAll(async () => {
  await service?.close();
  await service?.workers.idle();
  rmSync(root, { recursive: true, force: true });
});

describe('skillaudit serve: audits', () => {
  let csv: AuditJson;

  it('reports health and version', async () => {
    const response = await fetch(`${url}/api/health`);
    expect(await response.json()).toMatchObject({ ok: true, version: VERSION });
  });

  it('audits a skill from a GitHub tree URL end to end, once per identical source', async () => {
    const first = submitted.csv!;
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({
      status: 'queued',
      statusUrl: `/api/audits/${first.json.id}`,
      reportUrl: `/audits/${first.json.id}`,
    });
    const again = submitted.csvAgain!;
    expect([again.status, again.json.id]).toEqual([200, first.json.id]);
    // The source shown is the one audited, not the page URL as sent.
    expect(first.json.source).toBe(`${REPO_URL}@main#skills/csv-summary`);

    csv = await waitFor(url, first.json.id as string);
    expect(csv).toMatchObject({
      status: 'done',
      attempts: 1,
      skill: 'csv-summary',
      skillPath: 'skills/csv-summary',
    });
    expect(csv.verdict).toMatchObject({ status: expect.stringMatching(/^(pass|caution|risky)$/) });
    expect(csv.verdict!.advice).toBe(STATUS_ADVICE[csv.verdict!.status as VerdictStatus]);
    expect(csv.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const report = await (await fetch(`${url}/api/audits/${csv.id}/report`)).json();
    expect(validateReport(report)).toEqual([]);
    expect(report).toMatchObject({
      skill: { id: csv.contentHash, provenance: { source: 'git', subdir: 'skills/csv-summary' } },
    });
    // Detonation ran in the sandbox (the report lists the scripts it ran).
    expect((report as { runtime: { scriptsRun: unknown[] } }).runtime.scriptsRun.length).toBeGreaterThan(0);
  });

  it('serves the report page with a strict CSP header that matches the inlined script', async () => {
    const response = await fetch(`${url}/audits/${csv.id}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;.*script|script-src[^;]*unsafe/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const html = await response.text();
    expect(html).toContain(csv.contentHash);
    // The page's own meta policy allows the same script hash as the header.
    const hash = /'sha256-[^']+'/.exec(csp)![0];
    expect(html).toContain(hash);
  });

  it('looks up the report by tree, blob, skills.sh and git URLs and by content hash, from any origin', async () => {
    const lookups = [
      `url=${encodeURIComponent(`${REPO_URL}/tree/main/skills/csv-summary`)}`,
      `url=${encodeURIComponent('https://github.com/Acme/Skills/blob/main/skills/csv-summary/SKILL.md')}`,
      `url=${encodeURIComponent('https://skills.sh/acme/skills/csv-summary')}`,
      `url=${encodeURIComponent(REPO_URL)}&skill=csv-summary`,
      `hash=${csv.contentHash}`,
    ];
    // The repository's group audits csv-summary a second time (no ref): a lookup finds one of the two, the
    // audit of the URL's ref first, else the latest.
    const part = (await partsOf(submitted.several!.json.id as string))[0]!;
    for (const query of lookups) {
      const response = await fetch(`${url}/api/lookup?${query}`, {
        headers: { Origin: 'https://github.com' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const body = (await response.json()) as { found: boolean; audit?: AuditJson };
      expect(body.found, query).toBe(true);
      expect(body.audit).toMatchObject({
        status: 'done',
        skill: 'csv-summary',
        contentHash: csv.contentHash,
      });
      expect([csv.id, part.id]).toContain(body.audit!.id);
    }
    const missing = await (
      await fetch(`${url}/api/lookup?url=${encodeURIComponent('https://skills.sh/acme/skills/other')}`)
    ).json();
    expect(missing).toEqual({ found: false });
    expect((await fetch(`${url}/api/lookup?hash=xyz`)).status).toBe(400);
    expect((await fetch(`${url}/api/lookup`)).status).toBe(400);
  });

  it('audits each skill of a repository that holds several when none is named, and the named one alone', async () => {
    const groupId = submitted.several!.json.id as string;
    const parts = await partsOf(groupId);
    expect(parts.map((p) => [p.status, p.skill, p.skillPath, p.source])).toEqual([
      ['done', 'csv-summary', 'skills/csv-summary', `${REPO_URL}#skills/csv-summary`],
      ['done', 'notes', 'skills/notes', `${REPO_URL}#skills/notes`],
    ]);
    for (const part of parts) {
      expect(part.verdict?.status).toMatch(/^(pass|caution|risky)$/);
      expect(part.partOf).toEqual({
        id: groupId,
        statusUrl: `/api/audits/${groupId}`,
        reportUrl: `/audits/${groupId}`,
      });
      expect((await fetch(`${url}/api/audits/${part.id}/report`)).status).toBe(200);
    }
    // The group has no report of its own: its page lists the parts with their verdicts.
    const report = await fetch(`${url}/api/audits/${groupId}/report`);
    expect([report.status, ((await report.json()) as AuditJson).error?.code]).toEqual([
      409,
      'SEVERAL_SKILLS',
    ]);
    const page = await (await fetch(`${url}/audits/${groupId}`)).text();
    expect(page).toContain('>2 skills<');
    for (const part of parts) expect(page).toContain(`href="/audits/${part.id}"`);
    // A lookup of the repository as a whole finds no verdict: a group has none.
    const lookup = await (await fetch(`${url}/api/lookup?url=${encodeURIComponent(REPO_URL)}`)).json();
    expect(lookup).toEqual({ found: false });

    const named = submitted.named!;
    expect(named.status).toBe(202);
    expect(await waitFor(url, named.json.id as string)).toMatchObject({
      status: 'done',
      skill: 'notes',
      skillPath: 'skills/notes',
    });
    expect(named.json.parts).toBeUndefined();
    const missing = await waitFor(url, submitted.unnamed!.json.id as string);
    expect(missing.error?.code).toBe('SKILL_NOT_FOUND');
  });

  it('audits an uploaded archive and removes the upload afterwards', async () => {
    expect(submitted.upload!.status).toBe(202);
    const created = submitted.upload!.json as AuditJson;
    expect(created.source).toBe('upload:zipped.zip');
    const done = await waitFor(url, created.id);
    expect(done).toMatchObject({ status: 'done', skill: 'zipped' });
    // An archive of several skills: a part audit each, reading the one upload, removed after the last.
    expect(submitted.pack!.status).toBe(202);
    const parts = await partsOf(submitted.pack!.json.id as string);
    expect(parts.map((p) => [p.status, p.skill, p.source])).toEqual([
      ['done', 'alpha', 'upload:pack.zip#pack/alpha'],
      ['done', 'beta', 'upload:pack.zip#pack/beta'],
    ]);
    expect(readdirSync(join(root, 'data', 'uploads'))).toEqual([]);
    const lookup = await (await fetch(`${url}/api/lookup?hash=${done.contentHash}`)).json();
    expect(lookup).toMatchObject({ found: true, audit: { id: created.id } });
  });

  it('shows a failed audit as an escaped status page', async () => {
    const created = submitted.escaped!;
    expect(created.status).toBe(202);
    const failed = await waitFor(url, created.json.id as string);
    expect(failed.status).toBe('failed');
    const response = await fetch(`${url}/audits/${failed.id}`);
    const html = await response.text();
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect((await fetch(`${url}/api/audits/${failed.id}/report`)).status).toBe(409);
  });

  it('audits a submitted short hash at the commit it abbreviates, and says when none matches', async () => {
    expect(submitted.abbreviated!.status).toBe(202);
    const done = await waitFor(url, submitted.abbreviated!.json.id as string);
    expect(done).toMatchObject({ status: 'done', skill: 'notes', commit: tipCommit });
    const failed = await waitFor(url, submitted.noSuchCommit!.json.id as string);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'GIT_FAILED', message: expect.stringContaining('starts with 0000000a') },
    });
  });
});

describe('skillaudit serve: refusals', () => {
  it('answers 401 without a token or with a wrong one', async () => {
    for (const token of [null, 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const response = await submit(url, { source: REPO_URL }, token);
      expect(response.status).toBe(401);
      expect(response.json).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('refuses non-https URLs, hosts off the allowlist, private addresses and odd ports (no SSRF)', async () => {
    const cases: [string, number, string][] = [
      ['http://github.com/acme/skills', 400, 'BAD_SOURCE'],
      ['file:///etc/passwd', 400, 'BAD_SOURCE'],
      ['https://user:pw@github.com/acme/skills', 400, 'BAD_SOURCE'],
      ['https://evil.example/acme/skills', 403, 'HOST_NOT_ALLOWED'],
      ['https://169.254.169.254/latest/meta', 403, 'HOST_NOT_ALLOWED'],
      ['https://localhost/acme/skills', 403, 'FORBIDDEN_ADDRESS'], // allowed name, loopback address
      ['https://127.0.0.1/acme/skills', 403, 'FORBIDDEN_ADDRESS'],
      ['https://2130706433/acme/skills', 403, 'FORBIDDEN_ADDRESS'], // decimal form of 127.0.0.1
      ['https://0x7f.0.0.1/acme/skills', 403, 'FORBIDDEN_ADDRESS'],
      ['https://github.com:22/acme/skills', 403, 'FORBIDDEN_PORT'],
      // Log injection: the parser would drop the newline, and the raw text used to be stored and echoed.
      ['https://github.com/o/r?secret=abc#\n2026-01-01T00:00:00Z audit x finished', 400, 'BAD_SOURCE'],
      ['https://github.com/o/r?secret=abc', 400, 'BAD_SOURCE'],
      [`${REPO_URL}@feature%2Fx#skills/notes`, 400, 'BAD_SOURCE'], // intake cannot fetch such a ref
      [`${REPO_URL}/tree/feature%2Fx/skills/notes`, 400, 'BAD_SOURCE'],
      [`${REPO_URL}#skills/a%23b`, 400, 'BAD_SOURCE'],
    ];
    for (const [source, status, code] of cases) {
      const response = await submit(url, { source });
      expect([response.status, (response.json.error as { code: string }).code], source).toEqual([
        status,
        code,
      ]);
    }
    expect((await submit(url, '{not json')).status).toBe(400);
    expect((await submit(url, { src: 'x' })).status).toBe(400);
  });

  it('refuses an unknown content type (415) and a body over the cap while it streams (413)', async () => {
    const text = await fetch(`${url}/api/audits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
    const big = Buffer.alloc(300 * 1024, 1);
    const declared = await fetch(`${url}/api/audits?filename=big.zip`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
      body: big,
    });
    expect(declared.status).toBe(413);
    // No Content-Length: the cap is enforced on the bytes as they arrive.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 30; i++) controller.enqueue(new Uint8Array(16 * 1024));
        controller.close();
      },
    });
    const streamed = await fetch(`${url}/api/audits?filename=big.zip`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'TOO_LARGE' } });
    expect(readdirSync(join(root, 'data', 'uploads'))).toEqual([]);
  });

  it('answers 404 for unknown audits and routes', async () => {
    expect((await fetch(`${url}/api/audits/AAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetch(`${url}/api/audits/..%2F..%2Fetc`)).status).toBe(404);
    expect((await fetch(`${url}/audits/nope`)).status).toBe(404);
    expect((await fetch(`${url}/api/nothing`)).status).toBe(404);
  });

  it('shares reads cross-origin but refuses submissions from web pages, token or not', async () => {
    const preflight = await fetch(`${url}/api/audits`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-methods') ?? '').not.toMatch(/POST/);
    const zip = (origin: string) =>
      fetch(`${url}/api/audits?filename=x.zip`, {
        method: 'POST',
        headers: { Origin: origin, Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
        body: ZIP,
      });
    const evil = await zip('https://evil.example');
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN_ORIGIN');
    // The extension's service worker sends its own origin; the same upload is already queued (200) or new.
    expect([200, 202]).toContain((await zip('chrome-extension://abcdefghijklmnop')).status);
  });

  it('answers only requests addressed to a loopback name when it listens on loopback (DNS rebinding)', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${url}/api/health`, { headers: { Host: host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.once('error', reject);
        request.end();
      });
    expect(await status('evil.example:8787')).toBe(403);
    expect(await status(new URL(url).host)).toBe(200);
    expect(await status('localhost:8787')).toBe(200);
  });

  it('rate-limits failed tokens per client address and token holders per token (behind a trusted proxy)', async () => {
    const limited = await startService(
      config(join(root, 'limited'), { rateLimitPerMinute: 2, detonate: false, trustProxy: true }),
    );
    const post = async (client: string, token: string) => {
      const response = await fetch(`${limited.url}/api/audits`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          'X-Forwarded-For': `6.6.6.6, ${client}`,
        },
        body: JSON.stringify({ source: 'http://x' }),
      });
      await response.body?.cancel();
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    };
    try {
      const guesses = [];
      for (let i = 0; i < 3; i++) guesses.push((await post('198.51.100.7', 'wrong')).status);
      expect(guesses).toEqual([401, 401, 429]);
      // The guesser's address is used up, but not the token holder's bucket nor another client's address.
      expect((await post('198.51.100.7', TOKEN)).status).toBe(400);
      expect((await post('198.51.100.8', 'wrong')).status).toBe(401);
      expect((await post('198.51.100.9', TOKEN)).status).toBe(400);
      const spent = await post('198.51.100.10', TOKEN);
      expect(spent.status).toBe(429);
      expect(Number(spent.retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
