import { getDomain, getDomainWithoutSuffix } from 'tldts';

// Host names as every stage compares them, on the Public Suffix List (the tldts package carries it) rather than a
// guess at which labels are a suffix. Two questions, two answers:
// - who controls a host: its registrable domain with the list's private section, so x.github.io and
//   y.github.io, or two web.app projects, are different sites (anyone can publish under github.io);
// - which organisation registered it at the registry: the label left of the ICANN suffix (`notion` for
//   api.notion.co.uk, `web` for any-project.web.app), the vendor a key or a service word can name. A name
//   chosen under a platform (`notion.web.app`) is the platform's, never the vendor's.

const PRIVATE = { allowPrivateDomains: true } as const;

/** Lower case, without a trailing dot or the port an HTTP Host header carries. */
export function bareHost(host: string): string {
  return host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/** The site that controls `host` (`x.github.io`, `example.co.uk`); the host itself for an IP or a single label. */
export function registrableDomain(host: string): string {
  const h = bareHost(host);
  return getDomain(h, PRIVATE) ?? h;
}

/** The label a domain is registered under at the registry: `notion` for api.notion.co.uk; '' for an IP or one label. */
export function registeredLabel(host: string): string {
  return getDomainWithoutSuffix(bareHost(host)) ?? '';
}

/** Hosts that never leave the machine. */
export const LOCAL_HOST_RE =
  /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|::1|host\.docker\.internal)$/i;

/**
 * Whether a host is one the skill declares: on the same site as a host it names (api.acme.io declares
 * cdn.acme.io; x.github.io does not declare y.github.io), or one that never leaves the machine. The one test of
 * "a host the skill declares" for the scan and for detonation.
 */
export function isDeclared(host: string, declared: Iterable<string>): boolean {
  const h = bareHost(host);
  if (LOCAL_HOST_RE.test(h)) return true;
  const site = registrableDomain(h);
  for (const d of declared) {
    const dl = bareHost(d);
    if (dl === h || registrableDomain(dl) === site) return true;
  }
  return false;
}
