// Which page shows a skill, and what to ask the server about it. One detector per site, listed as data in SITES;
// each reads the URL first and the page only to confirm (a folder is a skill when its listing links its own
// SKILL.md), so pages that are not skills cost one URL check and get no badge.

/** The little of the DOM the detectors read, so they run on a real page and on plain data in unit tests. */
export interface PageView {
  /** Absolute hrefs of the links matching a CSS selector, in document order. */
  linkHrefs(selector: string): string[];
  /** Trimmed text of the first element matching a CSS selector, or null. */
  text(selector: string): string | null;
}

export interface DetectedSkill {
  site: 'github' | 'skills.sh' | 'clawhub';
  /** Shown in the badge. */
  name: string;
  /** The URL sent to the server as lookup `url` and audit `source`; null when the page names no source we can send. */
  source: string | null;
  /** Sent as `skill` when the source alone does not say which skill (a repository holding several). */
  skill?: string;
}

interface Site {
  host: string;
  /** Content-script match pattern (manifest). */
  match: string;
  detect(url: URL, page: PageView): DetectedSkill | null;
}

const SKILL_FILE = 'SKILL.md';
// Names come from the page; the badge is small and the server gets them in a query string.
const MAX_NAME = 200;

function segments(url: URL): string[] {
  return url.pathname.split('/').filter((part) => part !== '');
}

/** A URL path segment decoded; a malformed escape leaves it as written. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function decoded(segment: string): string {
  return decodeSegment(segment).slice(0, MAX_NAME);
}

function githubPath(href: string): string | null {
  try {
    const url = new URL(href);
    return url.hostname === 'github.com' ? url.pathname : null;
  } catch {
    return null;
  }
}

// github.com/<o>/<r>/blob/<ref>/<path>/SKILL.md is a skill's file; github.com/<o>/<r>/tree/<ref>/<path> and the
// repository root are a skill's folder when the listing links <that folder>/SKILL.md. The root's ref is not in
// its URL, so it is read from that link. GitHub is a single-page app: the caller re-runs this on every change.
function detectGitHub(url: URL, page: PageView): DetectedSkill | null {
  const [owner, repo, kind, ...rest] = segments(url);
  if (!owner || !repo) return null;
  if (kind === 'blob') {
    if (rest.length < 2 || rest.at(-1) !== SKILL_FILE) return null;
    const folder = rest.length > 2 ? rest.at(-2)! : repo;
    return {
      site: 'github',
      name: decoded(folder),
      source: `${url.origin}/${[owner, repo, kind, ...rest].join('/')}`,
    };
  }
  if (kind !== undefined && (kind !== 'tree' || rest.length === 0)) return null;
  // The folder's own SKILL.md link: blob/<ref>/<path>/SKILL.md for a tree page, blob/<any ref>/SKILL.md for the root.
  const wanted =
    kind === 'tree' ? [owner, repo, 'blob', ...rest, SKILL_FILE] : [owner, repo, 'blob', '*', SKILL_FILE];
  const ownFile = (path: string): boolean => {
    const parts = path.split('/').filter((part) => part !== '');
    return (
      parts.length === wanted.length &&
      parts.every((part, i) => wanted[i] === '*' || part.toLowerCase() === wanted[i]!.toLowerCase())
    );
  };
  const link = page
    .linkHrefs('a[href*="/SKILL.md"]')
    .map(githubPath)
    .find((path): path is string => path !== null && ownFile(path));
  if (!link) return null;
  const folder = link
    .split('/')
    .filter((part) => part !== '')
    .slice(0, -1);
  folder[2] = 'tree';
  const name = kind === 'tree' && rest.length > 1 ? rest.at(-1)! : repo;
  return { site: 'github', name: decoded(name), source: `${url.origin}/${folder.join('/')}` };
}

// skills.sh/<owner>/<repo>/<skill> is a skill page when it links the GitHub repository it names.
function detectSkillsSh(url: URL, page: PageView): DetectedSkill | null {
  const parts = segments(url);
  if (parts.length !== 3) return null;
  const [owner, repo, skill] = parts as [string, string, string];
  const repoPath = `/${owner}/${repo}`.toLowerCase();
  const linksRepo = page.linkHrefs('a[href^="https://github.com/"]').some((href) => {
    const path = githubPath(href)?.toLowerCase();
    return path === repoPath || path?.startsWith(`${repoPath}/`);
  });
  if (!linksRepo) return null;
  return { site: 'skills.sh', name: decoded(skill), source: `${url.origin}/${parts.join('/')}` };
}

// A ClawHub skill page has the "Skill breadcrumbs" trail ending in the skill's slug; a skill published from GitHub
// links its repository. The server is asked about that repository and the slug; a skill uploaded straight to
// ClawHub has no source the server could fetch, and the badge says so.
function detectClawHub(_url: URL, page: PageView): DetectedSkill | null {
  const slug = page.text('nav[aria-label="Skill breadcrumbs"] [aria-current="page"]');
  if (!slug) return null;
  const skill = slug.slice(0, MAX_NAME);
  const repository = page.linkHrefs('main a.plugin-external-link').find((href) => {
    const path = githubPath(href);
    return path !== null && path.split('/').filter((part) => part !== '').length >= 2;
  });
  return { site: 'clawhub', name: skill, source: repository ?? null, skill };
}

export const SITES: readonly Site[] = [
  { host: 'github.com', match: 'https://github.com/*', detect: detectGitHub },
  { host: 'skills.sh', match: 'https://skills.sh/*', detect: detectSkillsSh },
  { host: 'clawhub.ai', match: 'https://clawhub.ai/*', detect: detectClawHub },
];

export function detectSkill(pageUrl: string, page: PageView): DetectedSkill | null {
  const url = new URL(pageUrl);
  const site = SITES.find((candidate) => candidate.host === url.hostname);
  return site ? site.detect(url, page) : null;
}
