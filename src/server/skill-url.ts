import { normaliseSubdir, validateRef } from '../intake/index.js';
import { UserError } from '../util/errors.js';
import { ApiError } from './api-error.js';

// Reads the URLs people and the browser extension send (git URLs in intake's `url@ref#subdir` form, and
// repository page URLs) into one target: host, repository path, ref, subfolder and skill name. Submissions
// and lookups share it, so the same skill always gets the same canonical key.

export interface SkillTarget {
  /** Lower-case host name, e.g. github.com. */
  host: string;
  /** Repository path as written (owner/repo, or group/sub/repo), without `.git`. */
  repo: string;
  ref: string | null;
  subdir: string | null;
  /** Frontmatter name of the skill to audit when the repository holds several. */
  skill: string | null;
}

// Page URLs of git hosts: the path after the repository names a ref and a path inside it. Groups: repository,
// page kind (a `blob` path names a file, so its folder is meant), ref, path.
const PAGE_PATHS: { host: string; pattern: RegExp }[] = [
  { host: 'github.com', pattern: /^([^/]+\/[^/]+)\/(tree|blob)\/([^/]+)(?:\/(.*))?$/ },
  { host: 'gitlab.com', pattern: /^(.+?)\/-\/(tree|blob)\/([^/]+)(?:\/(.*))?$/ },
  { host: 'codeberg.org', pattern: /^([^/]+\/[^/]+)\/src\/(branch|tag|commit)\/([^/]+)(?:\/(.*))?$/ },
  { host: 'bitbucket.org', pattern: /^([^/]+\/[^/]+)\/(src)\/([^/]+)(?:\/(.*))?$/ },
];

// Directory sites that name a skill by owner/repo/skill of a GitHub repository (skills.sh).
const DIRECTORY_HOSTS: Record<string, string> = { 'skills.sh': 'github.com', 'www.skills.sh': 'github.com' };

// Hosts where a repository is exactly owner/name (GitLab nests groups, so its paths may be deeper).
const TWO_SEGMENT_HOSTS = new Set(['github.com', 'codeberg.org', 'bitbucket.org']);

// Hosts whose repository paths are case-insensitive: keys fold case so Acme/Skills and acme/skills meet.
const CASE_INSENSITIVE_HOSTS = new Set(['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org']);

const HOST_ALIASES: Record<string, string> = {
  'www.github.com': 'github.com',
  'www.gitlab.com': 'gitlab.com',
};

const SEGMENT = /^[A-Za-z0-9_.-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SKILL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

function bad(message: string): ApiError {
  return new ApiError(400, 'BAD_SOURCE', message);
}

/** Intake's own checks (ref syntax, subfolder inside the repository) answer 400 here. */
function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof UserError) throw bad(error.message);
    throw error;
  }
}

export function checkSkillName(name: string): string {
  if (!SKILL_NAME.test(name)) throw bad(`skill "${name.slice(0, 80)}": not a skill name`);
  return name;
}

function decodeSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw bad(`${segment}: malformed percent-encoding in the URL path`);
      }
    });
}

function repoPath(host: string, segments: string[], url: string): string {
  if (segments.length < 2 || (TWO_SEGMENT_HOSTS.has(host) && segments.length > 2)) {
    throw bad(`${url.slice(0, 200)}: expected https://${host}/<owner>/<repository> or a page inside it`);
  }
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || /^\.+$/.test(segment))
      throw bad(`${url}: "${segment}" is not a repository name`);
  }
  return segments.join('/').replace(/\.git$/i, '');
}

/** A page path (tree/blob) to ref and subfolder; a file path means the folder that holds it. */
function pageTarget(host: string, path: string, url: string): Omit<SkillTarget, 'skill'> | null {
  const page = PAGE_PATHS.find((p) => p.host === host);
  const match = page?.pattern.exec(path.replace(/^\/+|\/+$/g, ''));
  if (!match) return null;
  const [, repo = '', kind = '', ref = '', rest = ''] = match;
  const inner = decodeSegments(rest);
  if (kind === 'blob' || /^SKILL\.md$/i.test(inner.at(-1) ?? '')) inner.pop();
  return {
    host,
    repo: repoPath(host, decodeSegments(repo), url),
    ref: checked(() => validateRef(decodeURIComponent(ref))),
    subdir: checked(() => normaliseSubdir(inner.join('/'))),
  };
}

/**
 * Parses a submitted or looked-up URL. Only https without credentials or a port other than 443; the host
 * allowlist and address checks come later (host-guard.ts) so that lookups can name any host.
 */
export function parseSkillUrl(raw: string, skill: string | null = null): SkillTarget {
  if (raw.length > 2048) throw bad('the URL is longer than 2048 characters');
  // The URL parser silently drops tabs and newlines; text that carries them is not a URL someone copied.
  if (CONTROL.test(raw)) throw bad('the URL contains control characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw bad(`${raw.slice(0, 200)}: not a URL`);
  }
  if (url.protocol !== 'https:') throw bad(`${url.protocol}//: only https URLs are accepted`);
  if (url.username || url.password) throw bad('credentials in the URL are not accepted');
  if (url.port !== '' && url.port !== '443') {
    throw new ApiError(403, 'FORBIDDEN_PORT', `port ${url.port}: only the https port 443 is allowed`);
  }
  const name = skill === null ? null : checkSkillName(skill);
  const rawHost = url.hostname.toLowerCase().replace(/\.$/, '');
  const directoryHost = DIRECTORY_HOSTS[rawHost];
  if (directoryHost) {
    const segments = decodeSegments(url.pathname);
    if (segments.length !== 3) throw bad(`${url.href}: expected https://${rawHost}/<owner>/<repo>/<skill>`);
    return {
      host: directoryHost,
      repo: repoPath(directoryHost, segments.slice(0, 2), url.href),
      ref: null,
      subdir: null,
      skill: name ?? checkSkillName(segments[2]!),
    };
  }
  const host = HOST_ALIASES[rawHost] ?? rawHost;
  const page = url.hash === '' ? pageTarget(host, url.pathname, url.href) : null;
  if (page) return { ...page, skill: name };
  // intake's form: https://host/owner/repo[.git][@ref][#subdir]
  const segments = decodeSegments(url.pathname);
  const last = segments.pop() ?? '';
  const at = last.indexOf('@');
  const repoName = at >= 0 ? last.slice(0, at) : last;
  const ref = at >= 0 ? checked(() => validateRef(last.slice(at + 1))) : null;
  const hash = url.hash.replace(/^#/, '');
  let subdir: string | null = null;
  if (hash !== '') {
    const decoded = (() => {
      try {
        return decodeURIComponent(hash);
      } catch {
        throw bad(`#${hash}: malformed percent-encoding`);
      }
    })();
    subdir = checked(() => normaliseSubdir(decoded));
  }
  return { host, repo: repoPath(host, [...segments, repoName], url.href), ref, subdir, skill: name };
}

/**
 * A submission is audited exactly as parsed, so what intake cannot fetch is refused now rather than failing
 * later: a query string (never part of a repository), a ref with `/` (intake's `url@ref#subdir` form cannot
 * carry it) and a subfolder with `#`.
 */
export function checkSubmittable(raw: string, target: SkillTarget): void {
  if (new URL(raw.trim()).search !== '')
    throw bad('a query string is not part of a repository URL; remove it');
  if (target.ref?.includes('/')) {
    throw bad(
      `ref "${target.ref}": refs containing "/" are not supported; submit the commit or a tag instead`,
    );
  }
  if (target.subdir?.includes('#'))
    throw bad(`subfolder "${target.subdir}": "#" is not supported in folder names`);
}

/** The repository part of the key: `github.com/owner/repo` (case folded where the host ignores case). */
export function repoKey(target: Pick<SkillTarget, 'host' | 'repo'>): string {
  const repo = CASE_INSENSITIVE_HOSTS.has(target.host) ? target.repo.toLowerCase() : target.repo;
  return `${target.host}/${repo}`;
}

/**
 * The canonical key of a submission: `github.com/owner/repo[@ref][#subdir][?skill=name]`. Two
 * submissions with the same key audit the same thing (at the time each runs).
 */
export function sourceKey(target: SkillTarget): string {
  return (
    repoKey(target) +
    (target.ref ? `@${target.ref}` : '') +
    (target.subdir ? `#${target.subdir}` : '') +
    (target.skill ? `?skill=${target.skill}` : '')
  );
}

/** The https URL of the repository (what git fetches). */
export function repoUrl(target: Pick<SkillTarget, 'host' | 'repo'>): string {
  return `https://${target.host}/${target.repo}`;
}

/** The source string intake reads: `https://host/repo[@ref][#subdir]`. */
export function intakeSource(target: SkillTarget): string {
  return repoUrl(target) + (target.ref ? `@${target.ref}` : '') + (target.subdir ? `#${target.subdir}` : '');
}
