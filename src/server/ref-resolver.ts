import { parseSource, resolveRemoteRef } from '../intake/index.js';
import { checkHost, type HostPolicy, pinnedGitSettings } from './host-guard.js';
import { intakeSource, repoKey, type SkillTarget } from './skill-url.js';

// A page at a branch or tag shows whatever commit that ref points at now, and the verdict that belongs there is
// the audit of that commit, whichever ref (or hash) it was submitted under: one commit, one verdict. Lookups are
// public and frequent (the browser extension asks on every skill page), so the answer of one `git ls-remote`
// is kept for a minute, at most a few run at once (beyond that a lookup goes on without the commit), and the
// host goes through the same guard as a submission.

const TTL_MS = 60_000;
const MAX_ENTRIES = 2_000;
const MAX_RUNNING = 4;

interface Entry {
  at: number;
  commit: Promise<string | null>;
}

export class RefResolver {
  private readonly entries = new Map<string, Entry>();
  private running = 0;

  constructor(
    private readonly policy: HostPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** The commit the target's ref (the default branch when it names none) points at; null when unknown. */
  commitOf(target: SkillTarget): Promise<string | null> {
    const key = `${repoKey(target)}@${target.ref ?? ''}`;
    const cached = this.entries.get(key);
    if (cached && this.now() - cached.at < TTL_MS) return cached.commit;
    if (this.running >= MAX_RUNNING) return Promise.resolve(null);
    this.running++;
    const commit = this.ask(target)
      .catch(() => null)
      .finally(() => {
        this.running--;
      });
    this.entries.delete(key);
    this.entries.set(key, { at: this.now(), commit });
    // Oldest first: Map keeps insertion order, and a refreshed key was re-inserted above.
    for (const old of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(old);
    }
    return commit;
  }

  private async ask(target: SkillTarget): Promise<string | null> {
    const checked = await checkHost(target, this.policy);
    const spec = parseSource(intakeSource({ ...target, subdir: null }), () => false);
    if (spec.kind !== 'git') return null;
    return resolveRemoteRef(spec, {
      mirrors: this.policy.mirrors,
      config: pinnedGitSettings(target, checked),
      addressesPinned: true,
    });
  }
}
