import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AuditRow } from '../store/audits.js';
import { ApiError } from './api-error.js';
import { bearerToken, tokenMatches } from './auth.js';

// Who may read and submit what. An audit belongs to the token that submitted it: the service's own token is the
// admin (reads every audit), each tenant token reads only its own. Reading needs a token unless the service is
// --public (a public catalogue, such as the one the browser extension looks verdicts up in) or runs without
// authentication (local use). A browser sends the token in a cookie the home page's form sets, since a link
// cannot carry an Authorization header.

export interface Tenant {
  name: string;
  token: string;
}

export interface Access {
  /** The admin token; null: no authentication at all (local use only). */
  token: string | null;
  tenants: readonly Tenant[];
  /** Lists, statuses and reports readable without a token. */
  public: boolean;
}

export type Viewer = { role: 'admin' } | { role: 'tenant'; name: string } | { role: 'anonymous' };

/** The cookie the home page's form sets, so report links opened in the same browser can be read. */
export const TOKEN_COOKIE = 'skillaudit_token';

/** The token of a request: its Authorization header, else the form's cookie. */
export function requestToken(c: Context): string | null {
  return bearerToken(c.req.header('Authorization')) ?? getCookie(c, TOKEN_COOKIE) ?? null;
}

/** Who a token is: every tenant is compared (constant time each), so the answer's timing names none. */
export function viewerOf(token: string | null, access: Access): Viewer {
  if (access.token === null) return { role: 'admin' };
  let viewer: Viewer = { role: 'anonymous' };
  if (tokenMatches(token, access.token)) viewer = { role: 'admin' };
  for (const t of access.tenants) if (tokenMatches(token, t.token)) viewer = { role: 'tenant', name: t.name };
  return viewer;
}

/** The owner an audit submitted by this viewer is recorded under (null on a service without tokens). */
export function ownerOf(viewer: Viewer, access: Access): string | null {
  if (access.token === null) return null;
  return viewer.role === 'tenant' ? viewer.name : 'admin';
}

/**
 * The audits a viewer may read: undefined for all of them, else one tenant's. Throws 401 for a reader without a
 * token on a service that is not public.
 */
export function readScope(viewer: Viewer, access: Access): string | undefined {
  if (access.public || viewer.role === 'admin') return undefined;
  if (viewer.role === 'tenant') return viewer.name;
  throw unauthorized('reading audits needs a token (Authorization: Bearer <token>) on this service');
}

/** An audit the viewer may read, or a 404 that does not say whether it exists. */
export function visible(audit: AuditRow, scope: string | undefined): boolean {
  return scope === undefined || audit.tenant === scope;
}

export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message);
}

/** Tenants from a file of `name token` lines (`#` comments): a clear error for every line it cannot use. */
export function parseTenants(text: string, minTokenLength: number): Tenant[] {
  const tenants: Tenant[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const [name, token, extra] = line.split(/\s+/);
    const where = `tenants file line ${i + 1}`;
    if (!name || !token || extra !== undefined) throw new Error(`${where}: expected "<name> <token>"`);
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name === 'admin')
      throw new Error(`${where}: a tenant name is 1-64 letters, digits, '.', '_' or '-', and not "admin"`);
    if (token.length < minTokenLength)
      throw new Error(`${where}: the token must be at least ${minTokenLength} characters`);
    if (seen.has(name)) throw new Error(`${where}: tenant ${name} is listed twice`);
    seen.add(name);
    tenants.push({ name, token });
  });
  return tenants;
}
