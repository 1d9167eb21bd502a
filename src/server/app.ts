import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { z } from 'zod';
import type { Report } from '../report/index.js';
import { renderReportHtml, reportHtmlCsp } from '../report/index.js';
import {
  AUDIT_ID,
  type AuditRow,
  type AuditStatus,
  type AuditStore,
  isGroup,
  type NewAudit,
} from '../store/audits.js';
import { COMMIT_HASH } from '../util/commit-hash.js';
import { VERSION } from '../version.js';
import { ApiError } from './api-error.js';
import { type AuditView, auditView } from './audit-view.js';
import { addressKey, clientAddress } from './client-address.js';
import { checkHost, type HostPolicy } from './host-guard.js';
import { auditsPage, homePage, statusPage } from './pages.js';
import { RateLimiter } from './rate-limit.js';
import { RefResolver } from './ref-resolver.js';
import { DEFAULT_ALLOWED_ORIGINS, isLoopbackListen, requestGuard } from './request-guard.js';
import {
  checkSkillName,
  checkSubmittable,
  intakeSource,
  parseSkillUrl,
  repoKey,
  sourceKey,
} from './skill-url.js';
import {
  type Access,
  ownerOf,
  readScope,
  requestToken,
  type Tenant,
  TOKEN_COOKIE,
  unauthorized,
  type Viewer,
  viewerOf,
  visible,
} from './tenancy.js';
import {
  ARCHIVE_TYPES,
  checkDeclaredLength,
  readCapped,
  removeUpload,
  storeUpload,
  uploadName,
} from './upload.js';

// The HTTP API and report pages (Hono): thin handlers over the store, the URL rules and the host guard.
// docs/server.md is the contract.

export interface AppSettings {
  dataDir: string;
  /** Listen address; on a loopback one, requests must be addressed to a loopback name (DNS rebinding). */
  host: string;
  /** Origins that may send state-changing requests (default: any chrome-extension:// origin). */
  allowedOrigins?: readonly string[];
  /** Behind a reverse proxy: the client is the right-most X-Forwarded-For entry (rate limiting). */
  trustProxy?: boolean;
  /** The admin token; null: no authentication (local use only). */
  token: string | null;
  /** Tenant tokens: each reads only the audits it submitted. */
  tenants?: readonly Tenant[];
  /** Lists, statuses and reports readable without a token (a public catalogue). */
  public?: boolean;
  policy: HostPolicy;
  maxUploadBytes: number;
  rateLimitPerMinute: number;
  maxQueued: number;
  /**
   * What decides an audit's outcome besides the skill (sandbox settings, limits, version): a finished audit of
   * the same upload is reused only under the same key.
   */
  configKey?: string;
}

export interface AppDeps {
  store: AuditStore;
  settings: AppSettings;
  /** Called after a submission so a free worker starts it at once. */
  wake: () => void;
  log: (line: string) => void;
}

const JSON_BODY_CAP = 64 * 1024;

const Submission = z.object({
  source: z.string().min(1).max(2048),
  skill: z.string().min(1).max(128).optional(),
});

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;
const STATUSES: readonly AuditStatus[] = ['queued', 'running', 'done', 'failed'];

/** ?status=&source=&page=&limit= of the audits list (API and page), checked. */
function listQuery(c: Context): { status?: AuditStatus; source?: string; page: number; pageSize: number } {
  const status = c.req.query('status') || undefined;
  if (status !== undefined && !STATUSES.includes(status as AuditStatus)) {
    throw new ApiError(400, 'BAD_REQUEST', `status: expected one of ${STATUSES.join(', ')}`);
  }
  const source = (c.req.query('source') ?? '').trim().slice(0, 200) || undefined;
  const whole = (name: string, fallback: number, max: number) => {
    const raw = c.req.query(name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      throw new ApiError(400, 'BAD_REQUEST', `${name}: expected a whole number from 1 to ${max}`);
    }
    return Number(raw);
  };
  return {
    ...(status ? { status: status as AuditStatus } : {}),
    ...(source ? { source } : {}),
    page: whole('page', 1, 1_000_000),
    pageSize: whole('limit', PAGE_SIZE, MAX_PAGE_SIZE),
  };
}

/**
 * An uploaded archive is audited from the server's upload folder: in what a reader sees, that internal path
 * becomes the file's name and content hash.
 */
function presentUpload(report: Report, audit: AuditRow): Report {
  const hash = /^upload:sha256:([0-9a-f]{64})/.exec(audit.sourceKey)?.[1];
  if (!hash || !audit.intakeSource) return report;
  const shown = `${audit.source.replace(/^upload:/, '')} (sha256 ${hash.slice(0, 12)}…)`;
  const swap = (text: string) => text.split(audit.intakeSource).join(shown);
  return {
    ...report,
    skill: {
      ...report.skill,
      path: swap(report.skill.path),
      provenance: { ...report.skill.provenance, uri: swap(report.skill.provenance.uri) },
    },
  };
}
const STATUS_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** An audit by id that the reader may see; any other is "no audit", whether or not it exists. */
function findAudit(store: AuditStore, id: string, scope: string | undefined): AuditRow {
  const audit = AUDIT_ID.test(id) ? store.get(id) : null;
  if (!audit || !visible(audit, scope)) throw new ApiError(404, 'NOT_FOUND', `no audit ${id.slice(0, 40)}`);
  return audit;
}

/** A finished audit's report.json; the run folder is ours, but its path is still kept inside the data dir. */
async function readReport(settings: AppSettings, audit: AuditRow): Promise<Report> {
  if (isGroup(audit)) {
    throw new ApiError(
      409,
      'SEVERAL_SKILLS',
      `audit ${audit.id} covers several skills: each part has its own report (parts in /api/audits/${audit.id})`,
    );
  }
  if (audit.status !== 'done' || !audit.runDir) {
    throw new ApiError(409, 'NOT_READY', `audit ${audit.id} is ${audit.status}; its report is not ready`);
  }
  const root = resolve(settings.dataDir);
  const path = resolve(root, audit.runDir, 'report.json');
  if (!path.startsWith(`${root}/`)) throw new ApiError(404, 'NOT_FOUND', 'the report is missing');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Report;
  } catch {
    throw new ApiError(404, 'NOT_FOUND', `the report of audit ${audit.id} is missing from the run folder`);
  }
}

/**
 * A form body (the home page's), parsed in memory: so its size must be declared (browsers do) and within `cap`;
 * Node reads no more than the declared length.
 */
async function cappedForm(c: Context, cap: number): Promise<Record<string, string | File>> {
  const declared = c.req.header('Content-Length');
  if (declared === undefined)
    throw new ApiError(400, 'BAD_REQUEST', 'the form must declare its Content-Length');
  checkDeclaredLength(declared, cap);
  return (await c.req.parseBody()) as Record<string, string | File>;
}

/** A text field of a form, trimmed; '' when absent or a file. */
function formField(form: Record<string, string | File>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Keeps the token for this browser's later reads: not readable by scripts, not sent by other sites. */
function setTokenCookie(c: Context, token: string): void {
  setCookie(c, TOKEN_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: 30 * 24 * 3600,
  });
}

export function createApp(deps: AppDeps): Hono {
  const { store, settings } = deps;
  const access: Access = {
    token: settings.token,
    tenants: settings.tenants ?? [],
    public: settings.public === true,
  };
  const viewer = (c: Context): Viewer => viewerOf(requestToken(c), access);
  const scopeOf = (c: Context): string | undefined => readScope(viewer(c), access);
  const refs = new RefResolver(settings.policy);
  const byAddress = new RateLimiter(settings.rateLimitPerMinute);
  const byToken = new RateLimiter(settings.rateLimitPerMinute);
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    if (!c.res.headers.has('Content-Security-Policy')) c.header('Content-Security-Policy', API_CSP);
  });
  app.use(
    '*',
    requestGuard({
      allowedOrigins: settings.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS,
      loopbackOnly: isLoopbackListen(settings.host),
    }),
  );
  // Any page may read status and lookups (public data). Nothing else is shared cross-origin: the
  // extension's service worker has host permissions and needs no CORS to submit, and web pages must not.
  app.use(
    '/api/*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD'],
      allowHeaders: [],
      exposeHeaders: ['Retry-After'],
      maxAge: 600,
    }),
  );

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.retryAfter !== undefined) c.header('Retry-After', String(error.retryAfter));
      // The rest of a refused body is never read: the connection cannot carry another request.
      if (error.status === 413) c.header('Connection', 'close');
      return c.json({ error: { code: error.code, message: error.message } }, error.status);
    }
    deps.log(`internal error on ${c.req.method} ${c.req.path}: ${(error as Error).stack ?? String(error)}`);
    return c.json({ error: { code: 'INTERNAL', message: 'internal error' } }, 500);
  });
  app.notFound((c) =>
    c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404),
  );

  app.get('/', (c) => {
    c.header('Content-Security-Policy', STATUS_PAGE_CSP);
    return c.html(homePage(store.countByStatus(), settings.token !== null, new URL(c.req.url).origin));
  });

  // The home page's token form: the cookie lets this browser read its audits' pages.
  app.post('/session', async (c) => {
    const form = await cappedForm(c, JSON_BODY_CAP);
    const token = formField(form, 'token');
    if (viewerOf(token, access).role === 'anonymous') throw unauthorized('that token is not valid here');
    setTokenCookie(c, token);
    return c.redirect('/audits', 303);
  });

  const listed = (c: Context) => {
    const scope = scopeOf(c);
    const q = listQuery(c);
    const { audits, total } = store.list({
      ...(scope !== undefined ? { tenant: scope } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.source ? { source: q.source } : {}),
      limit: q.pageSize,
      offset: (q.page - 1) * q.pageSize,
    });
    return { ...q, total, audits: audits.map((a) => auditView(a, store)) };
  };

  app.get('/api/audits', (c) => {
    const { audits, total, page, pageSize } = listed(c);
    return c.json({ audits, total, page, pageSize });
  });

  app.get('/audits', (c) => {
    c.header('Content-Security-Policy', STATUS_PAGE_CSP);
    c.header('Cache-Control', 'no-store');
    return c.html(auditsPage(listed(c)));
  });

  // Whether a token is known here, and as whom: clients (the extension's Options) check a token before saving it.
  app.get('/api/whoami', (c) => {
    const token = requestToken(c);
    const who = viewerOf(token, access);
    if (token !== null && who.role === 'anonymous') throw unauthorized('this token is not valid here');
    return c.json({
      role: who.role,
      ...(who.role === 'tenant' ? { tenant: who.name } : {}),
      public: access.public,
    });
  });

  app.get('/api/health', (c) => c.json({ ok: true, version: VERSION, audits: store.countByStatus() }));

  /** The viewer allowed to submit (a token holder, or anyone on a service without tokens), rate-limited. */
  function submitter(c: Context, token: string | null = requestToken(c)): Viewer {
    const limited = (decision: { ok: boolean; retryAfter: number }) => {
      if (!decision.ok) {
        throw new ApiError(429, 'RATE_LIMITED', 'too many submissions; retry later', decision.retryAfter);
      }
    };
    // A token holder is charged to its token; everything else (wrong or missing tokens, and all use of a
    // --no-auth service) to the client's address. So wrong tokens are limited, yet a flood of them from
    // behind a shared proxy address cannot lock the token holders out.
    const addressBucket = () =>
      addressKey(
        clientAddress(peerAddress(c), c.req.header('X-Forwarded-For'), settings.trustProxy === true),
      );
    const who = viewerOf(token, access);
    if (settings.token === null) {
      limited(byAddress.take(addressBucket()));
    } else if (who.role === 'anonymous') {
      limited(byAddress.take(addressBucket()));
      c.header('WWW-Authenticate', 'Bearer');
      throw unauthorized('a valid Authorization: Bearer <token> header is required');
    } else {
      limited(byToken.take(token!));
    }
    return who;
  }

  /**
   * Queues a submission (or answers it from an audit of the same source): the audit belongs to its submitter,
   * and one submitter's audit is never handed to another as "the same source".
   */
  async function queue(
    c: Context,
    submission: NewAudit,
  ): Promise<{ view: AuditView & { reused?: true }; code: 200 | 202 }> {
    if (submission.tenant !== null) submission.sourceKey += `@${submission.tenant}`;
    // A byte-identical upload audited before under the same settings is answered from that audit, unless
    // the submitter asks for a fresh run (?fresh=1).
    if (submission.uploadPath && c.req.query('fresh') !== '1') {
      const done = store.latestDoneBySourceKey(submission.sourceKey);
      if (done) {
        await removeUpload(submission.uploadPath);
        return { view: { ...auditView(done, store), reused: true }, code: 200 };
      }
    }
    const outcome = store.submit(submission, settings.maxQueued);
    if (outcome.kind === 'full') {
      if (submission.uploadPath) await removeUpload(submission.uploadPath);
      throw new ApiError(503, 'QUEUE_FULL', `${outcome.queued} audits are waiting; retry later`, 60);
    }
    if (outcome.kind === 'existing') {
      if (submission.uploadPath) await removeUpload(submission.uploadPath);
      return { view: auditView(outcome.audit, store), code: 200 };
    }
    deps.log(`audit ${outcome.audit.id} queued: ${outcome.audit.source}`);
    const view = auditView(outcome.audit, store); // before a worker claims it
    deps.wake();
    return { view, code: 202 };
  }

  app.post('/api/audits', async (c) => {
    const owner = ownerOf(submitter(c), access);
    checkDeclaredLength(c.req.header('Content-Length'), settings.maxUploadBytes);
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    const submission =
      type === 'application/json'
        ? await urlSubmission(await jsonBody(c), owner)
        : await archiveSubmission(c.req.raw.body, type, c.req.query('filename'), c.req.query('skill'), owner);
    const { view, code } = await queue(c, submission);
    return c.json(view, code);
  });

  // The home page's form (a URL or an archive, and the token): answered with the audit's page, and the token
  // kept in a cookie so that page, and the list, can be read in this browser.
  app.post('/submit', async (c) => {
    const form = await cappedForm(c, settings.maxUploadBytes + JSON_BODY_CAP);
    const field = (name: string) => formField(form, name);
    const token = field('token');
    const owner = ownerOf(submitter(c, token || requestToken(c)), access);
    const file = form.archive;
    const skill = field('skill') || undefined;
    let submission: NewAudit;
    if (file instanceof File && file.size > 0) {
      const type = file.name.toLowerCase().endsWith('.zip') ? 'application/zip' : 'application/octet-stream';
      submission = await archiveSubmission(file.stream(), type, file.name, skill, owner);
    } else if (field('url')) {
      submission = await urlSubmission({ source: field('url'), ...(skill ? { skill } : {}) }, owner);
    } else {
      throw new ApiError(400, 'BAD_REQUEST', 'give a git URL or choose an archive to upload');
    }
    const { view } = await queue(c, submission);
    if (token) setTokenCookie(c, token);
    return c.redirect(view.reportUrl, 303);
  });

  async function jsonBody(c: Context): Promise<unknown> {
    const text = await readCapped(c.req.raw.body, JSON_BODY_CAP);
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError(400, 'BAD_REQUEST', 'the body is not JSON');
    }
  }

  async function urlSubmission(body: unknown, tenant: string | null): Promise<NewAudit> {
    const parsed = Submission.safeParse(body);
    if (!parsed.success) {
      throw new ApiError(
        400,
        'BAD_REQUEST',
        'expected {"source": "<https git URL>", "skill"?: "<skill name>"}',
      );
    }
    const target = parseSkillUrl(parsed.data.source, parsed.data.skill ?? null);
    checkSubmittable(parsed.data.source, target);
    await checkHost(target, settings.policy);
    return {
      // What is audited, not what was sent: the raw text is the submitter's and may carry anything.
      source: intakeSource(target),
      sourceKey: sourceKey(target),
      repoKey: repoKey(target),
      ref: target.ref,
      subdir: target.subdir,
      skill: target.skill,
      intakeSource: intakeSource(target),
      uploadPath: null,
      tenant,
    };
  }

  async function archiveSubmission(
    body: ReadableStream<Uint8Array> | null,
    type: string,
    filename: string | undefined,
    skillParam: string | undefined,
    tenant: string | null,
  ): Promise<NewAudit> {
    if (!ARCHIVE_TYPES.includes(type)) {
      throw new ApiError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `send application/json or an archive (${ARCHIVE_TYPES.join(', ')}), not "${type.slice(0, 80)}"`,
      );
    }
    const skill = skillParam ? checkSkillName(skillParam) : null;
    const name = uploadName(filename, type);
    const upload = await storeUpload(body, join(settings.dataDir, 'uploads'), name, settings.maxUploadBytes);
    return {
      source: `upload:${name}`,
      sourceKey: `upload:sha256:${upload.sha256}${skill ? `?skill=${skill}` : ''}${settings.configKey ? `#${settings.configKey}` : ''}`,
      repoKey: null,
      ref: null,
      subdir: null,
      skill,
      intakeSource: upload.path,
      uploadPath: upload.path,
      tenant,
    };
  }

  app.get('/api/audits/:id', (c) =>
    c.json(auditView(findAudit(store, c.req.param('id'), scopeOf(c)), store)),
  );

  app.get('/api/audits/:id/report', async (c) => {
    const audit = findAudit(store, c.req.param('id'), scopeOf(c));
    return c.json(presentUpload(await readReport(settings, audit), audit));
  });

  app.get('/api/lookup', async (c) => {
    const scope = scopeOf(c);
    const hash = c.req.query('hash');
    const url = c.req.query('url');
    let found: AuditRow | null;
    let pageCommit: string | null = null;
    if (hash !== undefined) {
      if (!/^[0-9a-f]{64}$/i.test(hash))
        throw new ApiError(400, 'BAD_REQUEST', 'hash: expected 64 hex digits (sha256)');
      found = store.latestByHash(hash.toLowerCase(), scope);
    } else if (url !== undefined) {
      const target = parseSkillUrl(url, c.req.query('skill') ?? null);
      const query = { repoKey: repoKey(target), ref: target.ref, subdir: target.subdir, skill: target.skill };
      found = store.latestByTarget(query, scope);
      // Only a repository with an audit is asked where its ref points: a lookup cannot make the service
      // query any repository on the web. A page at a hash names its commit already.
      if (found && !(target.ref !== null && COMMIT_HASH.test(target.ref))) {
        pageCommit = await refs.commitOf(target);
        if (pageCommit) found = store.latestByTarget({ ...query, commit: pageCommit }, scope);
      }
    } else {
      throw new ApiError(400, 'BAD_REQUEST', 'give ?url=<skill page or git URL> or ?hash=<sha256>');
    }
    if (!found) return c.json({ found: false });
    return c.json({ found: true, audit: auditView(found, store), ...(pageCommit ? { pageCommit } : {}) });
  });

  app.get('/audits/:id', async (c) => {
    const audit = findAudit(store, c.req.param('id'), scopeOf(c));
    // Before the report exists, and for a group of part audits, which has none of its own.
    if (audit.status !== 'done' || isGroup(audit)) {
      c.header('Content-Security-Policy', STATUS_PAGE_CSP);
      c.header('Cache-Control', 'no-store');
      return c.html(statusPage(auditView(audit, store)));
    }
    // Rendered from report.json with the current template, so the page and the header's policy (script
    // hashes of that template) always agree. The report is hostile content: the template escapes it.
    const html = renderReportHtml(presentUpload(await readReport(settings, audit), audit));
    c.header('Content-Security-Policy', `${reportHtmlCsp()}; frame-ancestors 'none'`);
    return c.html(html);
  });

  return app;
}
