import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

// Cross-site protections for a service that usually listens on the user's own machine. Browsers attach an
// `Origin` header to every cross-origin POST, so a request that changes state and carries a foreign origin
// is some web page's doing, not the extension's or curl's (curl sends no Origin): it is refused, token or
// not. On a loopback listen address the Host header must name loopback too, so a page on a rebound DNS name
// (evil.example -> 127.0.0.1) cannot reach the service as a "same-origin" site.

/** Default origins allowed to change state: the browser extension, whatever its id. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['chrome-extension://*'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `pattern` is an exact origin or `<scheme>://*` (any origin of that scheme). */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.endsWith('://*')
      ? origin.startsWith(pattern.slice(0, -1)) && origin.length > pattern.length - 1
      : origin === pattern,
  );
}

/** Whether an Origin header names the host the request was addressed to (a form on one of our pages). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

const LOOPBACK_NAMES = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a Host header (`name[:port]`) names this machine's loopback interface. */
export function isLoopbackHostHeader(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '');
  return LOOPBACK_NAMES.test(name);
}

/** Whether a listen address is a loopback one (the Host header is then checked). */
export function isLoopbackListen(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function requestGuard(options: {
  allowedOrigins: readonly string[];
  loopbackOnly: boolean;
}): MiddlewareHandler {
  return async (c, next) => {
    if (options.loopbackOnly && !isLoopbackHostHeader(c.req.header('Host') ?? '')) {
      throw new ApiError(
        403,
        'FORBIDDEN_HOST',
        'this service listens on loopback and answers only requests addressed to localhost or 127.0.0.1',
      );
    }
    const origin = c.req.header('Origin');
    if (!SAFE_METHODS.has(c.req.method) && origin !== undefined) {
      // The service's own pages (the home page's forms) post from its own origin. Under the pages' no-referrer
      // policy a browser sends `Origin: null` for such a post, and says it is same-origin in Sec-Fetch-Site
      // (a header a page cannot set).
      const ours =
        sameOrigin(origin, c.req.header('Host')) || c.req.header('Sec-Fetch-Site') === 'same-origin';
      if (!ours && !originAllowed(origin, options.allowedOrigins)) {
        throw new ApiError(
          403,
          'FORBIDDEN_ORIGIN',
          `requests from ${origin.slice(0, 100)} may not submit audits`,
        );
      }
    }
    await next();
  };
}
