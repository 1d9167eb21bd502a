import { browser } from 'wxt/browser';
import type { Audit } from './audit.js';
import { Badge, type BadgeState } from './badge.js';
import type { DetectedSkill } from './detect.js';
import type { Reply, Request } from './protocol.js';

// One detected skill's badge over its life: look the skill up, offer an audit, follow a queued or running audit
// until it is done or failed. stop() ends it when the page moves on (GitHub navigates without reloading).

// Poll quickly first (a cached audit finishes in seconds), then settle at 5 s; give up after an hour, which no
// audit should take, and leave the report link.
const POLL_DELAYS_MS = [1000, 1000, 2000, 3000, 5000];
const MAX_POLLING_MS = 60 * 60_000;

async function ask<K extends Request['kind']>(request: Extract<Request, { kind: K }>): Promise<Reply<K>> {
  try {
    return (await browser.runtime.sendMessage(request)) as Reply<K>;
  } catch {
    // The extension was updated or reloaded under this page: its old content script can no longer reach it.
    return {
      ok: false,
      failure: { code: 'unreachable', message: 'SkillAudit was updated: reload this page' },
    };
  }
}

export class SkillBadge {
  private readonly badge: Badge;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

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

  private show(state: BadgeState): void {
    if (!this.stopped) this.badge.render(state);
  }

  private request(): { skill?: string } {
    return this.skill.skill ? { skill: this.skill.skill } : {};
  }

  private async lookup(source: string): Promise<void> {
    this.show({ kind: 'checking' });
    const reply = await ask({ kind: 'lookup', pageUrl: source, ...this.request() });
    if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure });
    if (reply.value.found) this.follow(reply.value.audit, Date.now(), 0);
    else this.show({ kind: 'not-audited', canSubmit: reply.value.canSubmit });
  }

  private async submit(): Promise<void> {
    if (this.skill.source === null) return;
    clearTimeout(this.timer);
    this.show({ kind: 'submitting' });
    const reply = await ask({ kind: 'submit', source: this.skill.source, ...this.request() });
    if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure });
    this.follow(reply.value, Date.now(), 0);
  }

  private follow(audit: Audit, since: number, polls: number): void {
    this.show({ kind: 'audit', audit });
    const unfinished = audit.status === 'queued' || audit.status === 'running';
    if (!unfinished || this.stopped || Date.now() - since > MAX_POLLING_MS) return;
    const delay = POLL_DELAYS_MS[Math.min(polls, POLL_DELAYS_MS.length - 1)];
    this.timer = setTimeout(async () => {
      const reply = await ask({ kind: 'status', id: audit.id });
      if (!reply.ok) return this.show({ kind: 'failure', failure: reply.failure });
      this.follow(reply.value, since, polls + 1);
    }, delay);
  }
}
