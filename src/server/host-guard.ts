import { lookup } from 'node:dns/promises';
import type { GitMirror } from '../intake/index.js';
import { type AddressClass, classifyAddress } from './address-class.js';
import { ApiError } from './api-error.js';
import { repoUrl, type SkillTarget } from './skill-url.js';

// The SSRF guard for submitted repositories: the host must be on the allowlist, and every address it
// resolves to must be public (unless the operator allows private ones). The checked addresses are handed
// to git as its only resolution of that host (http.curloptResolve), so a second, different DNS answer
// cannot move the fetch to an internal address after the check. Hosts served from a configured mirror are
// never contacted and need no lookup.

export const DEFAULT_ALLOWED_HOSTS = ['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org'];

export interface HostPolicy {
  allowedHosts: ReadonlySet<string>;
  allowPrivate: boolean;
  mirrors: readonly GitMirror[];
  /** Resolver (all addresses of a name); the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
}

export interface CheckedHost {
  mirror: GitMirror | null;
  /** Addresses git may connect to (empty when mirrored). */
  addresses: string[];
}

const DNS_TIMEOUT_MS = 5_000;

async function systemResolve(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), DNS_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

function refuse(host: string, address: string, kind: AddressClass): ApiError {
  const shown = address === host ? address : `${host} (${address})`;
  return new ApiError(
    403,
    'FORBIDDEN_ADDRESS',
    `${shown} is a ${kind} address; only public hosts are fetched`,
  );
}

export function mirrorFor(target: Pick<SkillTarget, 'host' | 'repo'>, policy: HostPolicy): GitMirror | null {
  // The same prefix test intake applies before handing the rewrite to git.
  const url = repoUrl(target);
  return policy.mirrors.find((m) => url.startsWith(m.from)) ?? null;
}

/** Checks a submitted repository's host; throws ApiError 403 (refused) or 503 (DNS failed). */
export async function checkHost(target: SkillTarget, policy: HostPolicy): Promise<CheckedHost> {
  if (!policy.allowedHosts.has(target.host)) {
    throw new ApiError(
      403,
      'HOST_NOT_ALLOWED',
      `${target.host} is not an allowed git host (allowed: ${[...policy.allowedHosts].join(', ')})`,
    );
  }
  const mirror = mirrorFor(target, policy);
  if (mirror) return { mirror, addresses: [] };
  const literal = classifyAddress(target.host);
  let addresses: string[];
  if (literal !== 'invalid') {
    addresses = [target.host.replace(/^\[(.*)\]$/, '$1')];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(target.host);
    } catch (error) {
      throw new ApiError(
        503,
        'DNS_FAILED',
        `cannot resolve ${target.host} (${(error as Error).message})`,
        30,
      );
    }
    if (addresses.length === 0) throw new ApiError(503, 'DNS_FAILED', `${target.host} has no address`, 30);
  }
  if (!policy.allowPrivate) {
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (kind !== 'public') throw refuse(target.host, address, kind);
    }
  }
  return { mirror: null, addresses };
}

/**
 * git settings that fetch exactly what was checked: the host resolves only to the checked addresses, and
 * redirects (which could lead anywhere) are not followed. A mirrored host needs none (intake rewrites it).
 */
export function pinnedGitSettings(target: SkillTarget, checked: CheckedHost): string[] {
  if (checked.mirror) return [];
  const pinned = checked.addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',');
  return [`http.curloptResolve=${target.host}:443:${pinned}`, 'http.followRedirects=false'];
}
