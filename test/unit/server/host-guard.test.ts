import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/api-error.js';
import {
  checkHost,
  DEFAULT_ALLOWED_HOSTS,
  type HostPolicy,
  pinnedGitSettings,
} from '../../../src/server/host-guard.js';
import { parseSkillUrl } from '../../../src/server/skill-url.js';

// The resolver is the policy's own injection point (the system resolver cannot reach github.com here);
// every other part runs as in the service.
function policy(answers: Record<string, string[]>, extra: Partial<HostPolicy> = {}): HostPolicy {
  return {
    allowedHosts: new Set([...DEFAULT_ALLOWED_HOSTS, 'git.internal.example', '10.0.0.5']),
    allowPrivate: false,
    mirrors: [],
    resolve: async (host) => {
      const found = answers[host];
      if (!found) throw new Error('ENOTFOUND');
      return found;
    },
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('checkHost', () => {
  it('accepts an allowed host whose every address is public, and pins git to those addresses', async () => {
    const target = parseSkillUrl('https://github.com/acme/skills');
    const checked = await checkHost(
      target,
      policy({ 'github.com': ['140.82.112.3', '2606:50c0:8000::154'] }),
    );
    expect(checked).toEqual({ mirror: null, addresses: ['140.82.112.3', '2606:50c0:8000::154'] });
    expect(pinnedGitSettings(target, checked)).toEqual([
      'http.curloptResolve=github.com:443:140.82.112.3,[2606:50c0:8000::154]',
      'http.followRedirects=false',
    ]);
  });

  it('refuses hosts off the allowlist before any lookup', async () => {
    const error = await refusal(checkHost(parseSkillUrl('https://evil.example/a/r'), policy({})));
    expect([error.status, error.code]).toEqual([403, 'HOST_NOT_ALLOWED']);
  });

  it('refuses a host when any resolved address is private, loopback or link-local (DNS rebinding set-ups)', async () => {
    for (const bad of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:192.168.0.1',
      '100.64.0.9',
    ]) {
      const error = await refusal(
        checkHost(
          parseSkillUrl('https://git.internal.example/a/r'),
          policy({ 'git.internal.example': ['8.8.8.8', bad] }),
        ),
      );
      expect([error.status, error.code]).toEqual([403, 'FORBIDDEN_ADDRESS']);
      expect(error.message).toContain(bad);
    }
  });

  it('refuses private IP literals even when listed, unless private addresses are allowed', async () => {
    const target = parseSkillUrl('https://10.0.0.5/a/r');
    expect((await refusal(checkHost(target, policy({})))).code).toBe('FORBIDDEN_ADDRESS');
    expect(await checkHost(target, policy({}, { allowPrivate: true }))).toEqual({
      mirror: null,
      addresses: ['10.0.0.5'],
    });
  });

  it('answers 503 when the name does not resolve', async () => {
    const error = await refusal(checkHost(parseSkillUrl('https://gitlab.com/a/r'), policy({})));
    expect([error.status, error.code, error.retryAfter]).toEqual([503, 'DNS_FAILED', 30]);
  });

  it('needs no lookup for a mirrored prefix, and pins nothing', async () => {
    const mirror = { from: 'https://github.com/', to: 'file:///srv/mirror/' };
    const target = parseSkillUrl('https://github.com/acme/skills');
    const checked = await checkHost(target, policy({}, { mirrors: [mirror] }));
    expect(checked).toEqual({ mirror, addresses: [] });
    expect(pinnedGitSettings(target, checked)).toEqual([]);
    // The allowlist still applies to mirrored prefixes.
    const off = policy({}, { mirrors: [mirror], allowedHosts: new Set(['gitlab.com']) });
    expect((await refusal(checkHost(target, off))).code).toBe('HOST_NOT_ALLOWED');
  });
});
