// Hosts of network destinations: the host part of a URL or a bare `host/path`, with runtime holes marked.
import { UNKNOWN } from './model.js';

export const URL_RE = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^/:?#]+)/i;
export const BARE_HOST_RE = /^((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:[/?#]|$)/i;

/** Host of a URL or bare `host/path`; UNKNOWN labels are dropped and reported as dynamic. */
export function hostOf(target: string | null): { host: string | null; dynamic: boolean } {
  if (!target) return { host: null, dynamic: false };
  const m = URL_RE.exec(target) ?? BARE_HOST_RE.exec(target);
  const raw = m?.[1]?.toLowerCase() ?? null;
  if (!raw) return { host: null, dynamic: target.startsWith(UNKNOWN) };
  if (!raw.includes(UNKNOWN)) return { host: raw, dynamic: false };
  // `${API}${path}`: a complete host followed by a runtime path, not a host built from data.
  const head = raw.slice(0, raw.indexOf(UNKNOWN));
  if (
    raw.endsWith(UNKNOWN) &&
    raw.indexOf(UNKNOWN) === raw.length - 1 &&
    /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(head)
  )
    return { host: head, dynamic: false };
  const labels = raw.split('.');
  const known = labels.slice(labels.findLastIndex((l) => l.includes(UNKNOWN)) + 1);
  return { host: known.length >= 2 ? known.join('.') : null, dynamic: true };
}
