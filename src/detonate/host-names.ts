// Host names as detonation compares them: a destination against a list of domains (its own or a subdomain).

/** A host name as compared here: lower case, without the port an HTTP Host header carries. */
export function bareHost(host: string): string {
  return host.toLowerCase().replace(/:\d+$/, '');
}

/** Whether `host` is one of `domains` or a subdomain of one (`api.github.com` of `github.com`). */
export function hostMatches(host: string, domains: Iterable<string>): boolean {
  const h = host.toLowerCase();
  for (const d of domains) if (h === d || h.endsWith(`.${d}`)) return true;
  return false;
}
