import type { Skill } from '../../core/types.js';
import { escapeRegExp } from '../../util/regexp.js';
import { freeHostOf } from './prose-vocabulary.js';

// Whether a host a document names is the skill's own (its name, its homepage, a host it uses elsewhere) or
// somewhere else: a lure's download host and an exfiltration step's destination are judged by the same test.

export function hostOfUrl(url: string): string {
  return (/^https?:\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(url)?.[1] ?? '').toLowerCase().replace(/\.$/, '');
}

export function endsWithHost(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

export const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const wordIn = (word: string, text: string) =>
  new RegExp(String.raw`(?<![\w-])${escapeRegExp(word)}(?![\w-])`, 'i').test(text);

/** Text of the skill's files outside the lines [from, to] of `path`. */
export function skillTextOutside(skill: Skill, path: string, from: number, to: number): string {
  return skill.files
    .filter((f) => f.text !== null)
    .map((f) =>
      f.path === path
        ? f
            .text!.split('\n')
            .filter((_, i) => i + 1 < from || i + 1 > to)
            .join('\n')
        : f.text!,
    )
    .join('\n');
}

// Project pages of a code-hosting account: the project's own site when the skill uses the project.
const PROJECT_PAGES = new Set(['github.io', 'gitlab.io']);
const GENERIC_LABELS =
  /^(?:www|docs?|download|downloads|install|setup|get|releases?|latest|cdn|static|files?|assets)$/;

/** The host's own labels: without the TLD or the free-hosting platform it sits on. */
export function ownLabels(host: string): string[] {
  const free = freeHostOf(host);
  const base = free ? host.slice(0, -free.length - 1) : host.split('.').slice(0, -1).join('.');
  return base.split('.').filter((l) => l.length >= 4 && !GENERIC_LABELS.test(l));
}

/** The skill names this host as its own: its name or homepage, or it uses the host elsewhere. */
export function ownHost(url: string, host: string, skill: Skill, elsewhere: string): boolean {
  const own = squash(`${skill.name} ${skill.folderName}`);
  if (ownLabels(host).some((l) => own.includes(squash(l)))) return true;
  if (elsewhere.toLowerCase().includes(host)) return true;
  // rtyley.github.io/bfg-repo-cleaner in a skill that runs bfg-repo-cleaner: the project's own page.
  const free = freeHostOf(host);
  if (free && PROJECT_PAGES.has(free)) {
    const segment = /^https?:\/\/[^/]+\/([^/?#]+)/i.exec(url)?.[1] ?? '';
    return [...ownLabels(host), segment].some((w) => w.length >= 4 && wordIn(w, elsewhere));
  }
  return false;
}
