import { browser } from 'wxt/browser';
import type { Audit } from './audit.js';
import { Badge, type BadgeState } from './badge.js';
import type { DetectedSkill } from './detect.js';
import type { Reply, Request } from './protocol.js';
import { provenance } from './provenance.js';

// One detected skill's badge over its life: look the skill up, offer an audit, follow a queued or running audit
// until it is done or failed. stop() ends it when the page moves on (GitHub navigates without reloading).

// Poll quickly first (a cached audit finishes in seconds), then settle at 5 s; give up after an hour, which no
// audit should take, and leave the report link.
const POLL_DELAYS_MS = [1000, 1000, 2000, 3000, 5000];
const MAX_POLLING_MS = 60 * 60_000;

const RELOADED: Reply<never> = {
  ok: false,
  failure: { code: 'unreachable', message: 'SkillAudit was updated: reload this page' },
};

async function ask<K extends Request['kind']>(request: Extract<Request, { kind: K }>): Promise<Reply<K>> {
  try {
    // No reply at all means the worker went away mid-request, as when the extension is reloaded.
    return ((await browser.runtime.sendMessage(request)) as Reply<K> | undefined) ?? RELOADED;
  } catch {
    // The extension was updated or reloaded under this page: its old content script can no longer reach it.
    return RELOADED;
  }
}

export class SkillBadge {
  private readonly badge: Badge;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  // Each submission starts a new generation; answers and polls of an older one are dropped, so a second click
  // never leaves two polling loops drawing over each other.
  private generation = 0;
  // Where the page's branch or tag points now, as the server's lookup said.
  private pageCommit: string | undefined;

  constructor(private readonly skill: DetectedSkill) {
    this.badge = new Badge(skill.name, {
      submit: () => void this.submit(),
      openOptions: () => void ask({ kind: 'openOptions' }),
    });
  }

  start(): void {
    if (this.skill.source === null) this.show({ kind: 'no-source' });
    else void this.lookup(this.skill.source);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.badge.remove();
  }

  private show(state: BadgeState, generation = this.generation): void {
    if (!this.stopped && generation === this.generation) this.badge.render(state);
  }

  private request(): { skill?: string } {
    return this.skill.skill ? { skill: this.skill.skill } : {};
  }

  private async lookup(source: string): Promise<void> {
    const generation = this.generation;
    this.show({ kind: 'checking' });
    const reply = await ask({ kind: 'lookup', pageUrl: source, ...this.request() });
    if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure }, generation);
    if (reply.value.found) {
      this.pageCommit = reply.value.pageCommit;
      this.follow(reply.value.audit, generation, Date.now(), 0);
    } else this.show({ kind: 'not-audited', canSubmit: reply.value.canSubmit }, generation);
  }

  private async submit(): Promise<void> {
    if (this.skill.source === null) return;
    clearTimeout(this.timer);
    const generation = ++this.generation;
    // The new audit is of the page's source as it is now.
    this.pageCommit = undefined;
    this.show({ kind: 'submitting' });
    const reply = await ask({ kind: 'submit', source: this.skill.source, ...this.request() });
    if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure }, generation);
    this.follow(reply.value, generation, Date.now(), 0);
  }

  private follow(audit: Audit, generation: number, since: number, polls: number): void {
    if (this.stopped || generation !== this.generation) return;
    const shown = provenance(this.skill, audit, Date.now(), this.pageCommit);
    this.show({ kind: 'audit', audit, provenance: shown }, generation);
    const unfinished = audit.status === 'queued' || audit.status === 'running';
    if (!unfinished || Date.now() - since > MAX_POLLING_MS) return;
    const delay = POLL_DELAYS_MS[Math.min(polls, POLL_DELAYS_MS.length - 1)];
    this.timer = setTimeout(async () => {
      const reply = await ask({ kind: 'status', id: audit.id });
      if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure }, generation);
      this.follow(reply.value, generation, since, polls + 1);
    }, delay);
  }
}
