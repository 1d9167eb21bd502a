import { defineContentScript } from 'wxt/utils/define-content-script';
import { type DetectedSkill, detectSkill, type PageView, SITES } from '../lib/detect.js';
import { SkillBadge } from '../lib/skill-badge.js';

// Runs on the three sites' pages. GitHub (and ClawHub) navigate without reloading and render listings after the
// URL has changed, so detection re-runs whenever the URL or the DOM changes (throttled), and the badge is
// replaced only when the detected skill changes.

const SETTLE_MS = 250;

const documentView: PageView = {
  linkHrefs: (selector) =>
    Array.from(document.querySelectorAll(selector))
      .filter((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement)
      .map((link) => link.href),
  text: (selector) => document.querySelector(selector)?.textContent?.trim() || null,
};

function identity(skill: DetectedSkill | null): string | null {
  return skill && JSON.stringify([skill.source, skill.skill, skill.name]);
}

export default defineContentScript({
  matches: SITES.map((site) => site.match),
  runAt: 'document_idle',
  main(ctx) {
    let shown: { id: string; badge: SkillBadge } | null = null;
    const evaluate = () => {
      const skill = detectSkill(location.href, documentView);
      const id = identity(skill);
      if (id === (shown?.id ?? null)) return;
      shown?.badge.stop();
      shown = skill && id ? { id, badge: new SkillBadge(skill) } : null;
      shown?.badge.start();
    };
    // At most one evaluation per SETTLE_MS after the first change: a page that never stops changing (live
    // timestamps, animations) still gets evaluated, and a burst of changes costs one evaluation.
    let pending = false;
    const schedule = () => {
      if (pending) return;
      pending = true;
      ctx.setTimeout(() => {
        pending = false;
        evaluate();
      }, SETTLE_MS);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.documentElement, { childList: true, subtree: true });
    ctx.addEventListener(window, 'wxt:locationchange', schedule);
    ctx.onInvalidated(() => {
      observer.disconnect();
      shown?.badge.stop();
    });
    evaluate();
  },
});
