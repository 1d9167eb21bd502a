// The server's answers (GET /api/lookup, POST /api/audits, GET /api/audits/:id), checked field by field: the
// server is configured by the user but still a remote party, so nothing it sends is trusted as code or markup,
// and a link it sends must stay on its own origin.

import { isVerdictStatus, type VerdictStatus } from '../../src/core/verdict-words.js';

export type { VerdictStatus };

export type AuditStatus = 'queued' | 'running' | 'done' | 'failed';

export interface Verdict {
  status: VerdictStatus;
  /** The headline number in the status's band; absent from audits finished before the server sent it. */
  rating?: number;
  /** Why the status, in one line (shown as text, never markup). */
  reason?: string;
}

export interface Audit {
  id: string;
  status: AuditStatus;
  stage?: string;
  skill?: string;
  /** The source the audit was submitted with: a lookup may answer with an audit of another URL or ref. */
  source?: string;
  /** Full sha of the audited commit, when the source was a git repository. */
  commit?: string;
  /** ISO time the audit finished. */
  finishedAt?: string;
  verdict?: Verdict;
  error?: { code: string; message: string };
  /** Absolute report page URL on the server's origin; absent when the server sent none we can trust. */
  reportHref?: string;
}

/** `pageCommit`: the commit the page's branch or tag points at now, when the server resolved it. */
export type Lookup = { found: false } | { found: true; audit: Audit; pageCommit?: string };

export class BadResponse extends Error {}

const AUDIT_STATUSES: readonly string[] = ['queued', 'running', 'done', 'failed'] satisfies AuditStatus[];
// Longest text kept from any field: the badge is a few words wide and a hostile server could send megabytes.
const MAX_TEXT = 300;
// A source is a URL and is compared, not only shown, so it is kept whole up to the length a URL may have.
const MAX_URL = 2048;
const COMMIT = /^[0-9a-f]{7,64}$/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new BadResponse(`the server sent no ${field}`);
  return value.slice(0, MAX_TEXT);
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, MAX_TEXT) : undefined;
}

export function reportHref(reportUrl: unknown, origin: string): string | undefined {
  if (typeof reportUrl !== 'string') return undefined;
  try {
    const url = new URL(reportUrl, origin);
    return url.origin === origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function optionalCommit(value: unknown): string | undefined {
  return typeof value === 'string' && COMMIT.test(value) ? value.toLowerCase() : undefined;
}

function optionalTime(value: unknown): string | undefined {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function optionalUrl(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_URL ? value : undefined;
}

function parseVerdict(value: unknown): Verdict | undefined {
  if (!isObject(value)) return undefined;
  // The advice the server sends is not shown: the badge takes its words from the shared vocabulary by status.
  const { status, rating, reason } = value;
  if (!isVerdictStatus(status)) return undefined;
  const shown = optionalText(reason);
  return {
    status,
    ...(typeof rating === 'number' && rating >= 0 && rating <= 100 ? { rating: Math.round(rating) } : {}),
    ...(shown ? { reason: shown } : {}),
  };
}

function parseError(value: unknown): Audit['error'] {
  if (!isObject(value)) return undefined;
  return {
    code: optionalText(value.code) ?? 'error',
    message: optionalText(value.message) ?? 'the audit failed',
  };
}

export function parseAudit(value: unknown, origin: string): Audit {
  if (!isObject(value)) throw new BadResponse('the server sent no audit');
  const status = value.status;
  if (typeof status !== 'string' || !AUDIT_STATUSES.includes(status)) {
    throw new BadResponse('the server sent an unknown audit status');
  }
  const audit: Audit = { id: text(value.id, 'audit id'), status: status as AuditStatus };
  const stage = optionalText(value.stage);
  const skill = optionalText(value.skill);
  const source = optionalUrl(value.source);
  const commit = optionalCommit(value.commit);
  const finishedAt = optionalTime(value.finishedAt);
  const verdict = parseVerdict(value.verdict);
  const error = parseError(value.error);
  const href = reportHref(value.reportUrl, origin);
  if (stage) audit.stage = stage;
  if (skill) audit.skill = skill;
  if (source) audit.source = source;
  if (commit) audit.commit = commit;
  if (finishedAt) audit.finishedAt = finishedAt;
  if (verdict) audit.verdict = verdict;
  if (error) audit.error = error;
  if (href) audit.reportHref = href;
  return audit;
}

export function parseLookup(value: unknown, origin: string): Lookup {
  if (!isObject(value) || typeof value.found !== 'boolean')
    throw new BadResponse('the server sent no lookup result');
  if (!value.found) return { found: false };
  const found: Lookup = { found: true, audit: parseAudit(value.audit, origin) };
  if (typeof value.pageCommit === 'string' && COMMIT.test(value.pageCommit))
    found.pageCommit = value.pageCommit.toLowerCase();
  return found;
}

/** The `{"error": {"code", "message"}}` body of a refused request, or undefined when the body is something else. */
export function parseErrorBody(value: unknown): { code: string; message: string } | undefined {
  return isObject(value) ? parseError(value.error) : undefined;
}
