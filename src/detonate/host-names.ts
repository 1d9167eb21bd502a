// Host names as detonation compares them: a destination against a list of domains (its own or a subdomain).

import { registeredLabel } from '../core/hosts.js';

/** Whether `host` is one of `domains` or a subdomain of one (`api.github.com` of `github.com`). */
export function hostMatches(host: string, domains: Iterable<string>): boolean {
  const h = host.toLowerCase();
  for (const d of domains) if (h === d || h.endsWith(`.${d}`)) return true;
  return false;
}

/**
 * Whether an environment key is named for the host it went to: NOTION_TOKEN to api.notion.com, DEEPL_AUTH_KEY to
 * api-free.deepl.com, EXPO_POSTHOG_KEY to us.i.posthog.com. Keys are named after their vendor by the vendor's own
 * docs; a stealer's collector is not.
 */
export function keyNamedFor(envName: string, host: string): boolean {
  const label = registeredLabel(host);
  return label.length >= 3 && !KEY_WORDS.has(label) && envName.toLowerCase().split('_').includes(label);
}

// The words key names are built from besides the vendor's: a host registered under one names no vendor.
const KEY_WORDS = new Set(
  'api key keys token secret auth access client public private app bot user pass password cloud service skills oauth bearer'.split(
    ' ',
  ),
);
