import { isDeclared } from '../../core/hosts.js';
import type { Skill } from '../../core/types.js';
import { escapeRegExp } from '../../util/regexp.js';
import { freeHostOf, KNOWN_INSTALLER } from './prose-vocabulary.js';

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

// Where code is hosted for anyone: the repository in the path, not the site, is what a skill would name.
export const CODE_HOSTS: ReadonlySet<string> = new Set([
  'github.com',
  'raw.githubusercontent.com',
  'gitlab.com',
  'codeload.github.com',
]);
const docsCache = new WeakMap<Skill, string>();

/** The skill's words to its reader: frontmatter, SKILL.md and its other documents, not its code. */
function documentsText(skill: Skill): string {
  const known = docsCache.get(skill);
  if (known !== undefined) return known;
  const docs = skill.files
    .filter((f) => f.kind === 'doc' && f.text !== null && f.path !== 'SKILL.md')
    .map((f) => f.text!);
  const text = [skill.name, skill.folderName, skill.description, skill.body, ...docs].join('\n');
  docsCache.set(skill, text);
  return text;
}

/** Whether the skill's words to its reader (not its code) say what `re` matches. */
export function documentsSay(skill: Skill, re: RegExp): boolean {
  return re.test(documentsText(skill));
}

/**
 * Whether the skill's documents name the place a URL points to: the host, a distinctive label of it, or, on
 * a code host, the repository's owner or name. A stage-two host written only into a script is one nobody
 * reading the skill was told about; a host named in a script's other lines does not count.
 */
export function hostNamedInDocuments(url: string, host: string, skill: Skill): boolean {
  const docs = documentsText(skill);
  const h = host.toLowerCase();
  if (CODE_HOSTS.has(h)) {
    const [owner, repo] = (/^https?:\/\/[^/]+\/([^?#]*)/i.exec(url)?.[1] ?? '').split('/');
    return [owner, repo].some((w) => !!w && w.length >= 4 && !GENERIC_LABELS.test(w) && wordIn(w, docs));
  }
  return ownHost(url, h, skill, docs) || ownLabels(h).some((l) => wordIn(l, docs));
}

// A name or an address, not a template's placeholder (`http://{value}`).
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$|^\d{1,3}(?:\.\d{1,3}){3}$/i;

/**
 * A host written into code that nobody reading the skill was told about: not one it declares, not one its
 * documents name, not a well-known vendor's installer, not this machine.
 */
export function unnamedHost(url: string, host: string, skill: Skill, declared: ReadonlySet<string>): boolean {
  return (
    HOSTNAME.test(host) &&
    !KNOWN_INSTALLER.test(url) &&
    !isDeclared(host, declared) &&
    !hostNamedInDocuments(url, host, skill)
  );
}
