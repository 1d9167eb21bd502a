import { describe, expect, it } from 'vitest';
import { RefResolver } from '../../../src/server/ref-resolver.js';
import type { SkillTarget } from '../../../src/server/skill-url.js';

// The lookup's ref resolution is bounded: one answer per repository and ref a minute, and a host the policy
// refuses is never fetched (the answer is "unknown", and the lookup goes on without a commit).

const target = (ref: string | null): SkillTarget => ({
  host: 'github.com',
  repo: 'acme/skills',
  ref,
  subdir: 'skills/pdf',
  skill: null,
});

describe('RefResolver', () => {
  it('keeps an answer for a minute per repository and ref, then asks again', async () => {
    let now = 1_000_000;
    // github.com is not allowed: every answer is null, without any git run.
    const resolver = new RefResolver(
      { allowedHosts: new Set(), allowPrivate: false, mirrors: [] },
      () => now,
    );
    const main = resolver.commitOf(target('main'));
    expect(resolver.commitOf({ ...target('main'), subdir: 'skills/other' })).toBe(main);
    expect(resolver.commitOf(target('v1'))).not.toBe(main);
    expect(resolver.commitOf(target(null))).not.toBe(main);
    expect(await main).toBeNull();
    now += 59_000;
    expect(resolver.commitOf(target('main'))).toBe(main);
    now += 2_000;
    const again = resolver.commitOf(target('main'));
    expect(again).not.toBe(main);
    expect(await again).toBeNull();
  });
});
