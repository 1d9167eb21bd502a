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

// Second-level labels that sit under a country code as a suffix of their own (example.co.uk, example.com.au).
const COUNTRY_SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'or', 'ne']);

/** The label a domain is registered under: `notion` for api.notion.com and for api.notion.co.uk. */
export function registrableLabel(host: string): string {
  const labels = bareHost(host).split('.');
  if (labels.length < 2) return labels[0] ?? '';
  const second = labels[labels.length - 2]!;
  const last = labels[labels.length - 1]!;
  return last.length === 2 && labels.length >= 3 && COUNTRY_SECOND_LEVEL.has(second)
    ? labels[labels.length - 3]!
    : second;
}

/**
 * Whether an environment key is named for the host it went to: NOTION_TOKEN to api.notion.com, DEEPL_AUTH_KEY to
 * api-free.deepl.com, EXPO_POSTHOG_KEY to us.i.posthog.com. Keys are named after their vendor by the vendor's own
 * docs; a stealer's collector is not.
 */
export function keyNamedFor(envName: string, host: string): boolean {
  const label = registrableLabel(host);
  return label.length >= 3 && !KEY_WORDS.has(label) && envName.toLowerCase().split('_').includes(label);
}

// The words key names are built from besides the vendor's: a host registered under one names no vendor.
const KEY_WORDS = new Set(
  'api key keys token secret auth access client public private app bot user pass password cloud service skills oauth bearer'.split(
    ' ',
  ),
);
