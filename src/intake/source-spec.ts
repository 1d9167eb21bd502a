import { isAbsolute, posix } from 'node:path';
import { UserError } from '../util/errors.js';

// Reads what the user typed as a source: a local path (folder, SKILL.md, archive) or a git repository,
// with an optional `@ref` (git only) and `#subdir`. Transports that run commands (`ext::`) are refused.

export type ArchiveFormat = 'zip' | 'tar';

export type SourceSpec =
  | { kind: 'path'; path: string; ref: string | null; subdir: string | null }
  | {
      kind: 'git';
      /** URL handed to git (local repositories as file:// URLs). */
      url: string;
      /** The URL without credentials, for provenance and messages. */
      display: string;
      local: boolean;
      host: string | null;
      owner: string | null;
      ref: string | null;
      subdir: string | null;
    };

const SCHEME_URL = /^(https?|ssh|git|file):\/\//i;
const SCP_URL = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:(?!\/\/)/;
const TRANSPORT_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;
const ARCHIVE_URL = /\.(zip|skill|tgz|tar\.gz|tar)(\?.*)?$/i;
const SAFE_REF = /^[A-Za-z0-9._/+-]+$/;

/** `#subdir` must stay inside the source: relative, no `..`, normalised with forward slashes. */
export function normaliseSubdir(raw: string): string | null {
  const trimmed = raw.replace(/\\/g, '/').trim();
  if (trimmed === '' || trimmed === '.' || trimmed === './') return null;
  if (isAbsolute(trimmed) || /^[A-Za-z]:/.test(trimmed) || trimmed.split('/').includes('..')) {
    throw new UserError('UNSAFE_PATH', `#${raw}: the subfolder must be a relative path inside the source`);
  }
  return posix.normalize(trimmed).replace(/\/+$/, '');
}

export function validateRef(ref: string): string {
  if (ref === '' || ref.startsWith('-') || ref.includes('..') || !SAFE_REF.test(ref)) {
    throw new UserError('USAGE', `@${ref}: not a valid git ref (branch, tag or commit)`);
  }
  return ref;
}

/** Removes `user:password@` from URLs so tokens never reach reports or logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@]*@/, '$1');
}

function splitLast(text: string, marker: string, from: number): [string, string | null] {
  const at = text.lastIndexOf(marker);
  return at >= from ? [text.slice(0, at), text.slice(at + 1)] : [text, null];
}

function hostAndOwner(url: string): { host: string | null; owner: string | null } {
  const scp = SCP_URL.exec(url);
  if (scp) {
    const [, host = null, path = ''] = /^[^@]+@([^:]+):(.*)$/.exec(url) ?? [];
    return { host, owner: path.split('/').filter(Boolean)[0] ?? null };
  }
  try {
    const parsed = new URL(url);
    const segments = parsed.pathname.split('/').filter(Boolean);
    return { host: parsed.hostname || null, owner: segments.length >= 2 ? (segments[0] ?? null) : null };
  } catch {
    return { host: null, owner: null };
  }
}

/** Parses a git URL source; `exists` tells whether a local path exists (for `file://` and local repos). */
export function parseSource(source: string, exists: (path: string) => boolean): SourceSpec {
  if (source.trim() === '') throw new UserError('USAGE', 'the source is empty');
  if (source.startsWith('-')) throw new UserError('USAGE', `${source}: a source cannot start with "-"`);
  if (TRANSPORT_HELPER.test(source) && !SCHEME_URL.test(source)) {
    throw new UserError('UNSUPPORTED_SOURCE', `${source.split('::')[0]}:: transports are not supported`);
  }
  const scheme = SCHEME_URL.exec(source);
  if (scheme || SCP_URL.test(source)) return parseGitUrl(source, scheme ? scheme[0].length : -1);
  if (exists(source)) return { kind: 'path', path: source, ref: null, subdir: null };
  const [withoutSubdir, subdirRaw] = splitLast(source, '#', 1);
  // A local repository `path@ref`: the ref may hold slashes (feature/x) and the path may hold `@`, so every
  // `@` is tried from the right and the first one whose left side exists is the split.
  for (let at = withoutSubdir.lastIndexOf('@'); at >= 1; at = withoutSubdir.lastIndexOf('@', at - 1)) {
    const base = withoutSubdir.slice(0, at);
    if (!exists(base)) continue;
    return {
      kind: 'git',
      url: base,
      display: base,
      local: true,
      host: null,
      owner: null,
      ref: validateRef(withoutSubdir.slice(at + 1)),
      subdir: subdirRaw === null ? null : normaliseSubdir(subdirRaw),
    };
  }
  if (subdirRaw !== null && exists(withoutSubdir)) {
    return { kind: 'path', path: withoutSubdir, ref: null, subdir: normaliseSubdir(subdirRaw) };
  }
  throw new UserError('NOT_FOUND', `${source}: no such file or folder`);
}

// A GitHub page URL pasted from the browser: .../o/r/tree/<ref>/<path> means repository o/r at <ref>,
// subfolder <path> (a ref containing "/" needs the explicit `@ref#path` form).
const GITHUB_TREE =
  /^(https:\/\/(?:www\.)?github\.com\/[^/]+\/[^/]+)\/(?:tree|blob)\/([^/]+)(?:\/(.+?))?\/?$/i;

function parseGitUrl(source: string, schemeLength: number): SourceSpec {
  const tree = source.includes('#') ? null : GITHUB_TREE.exec(source);
  if (tree) {
    const [, repo = '', ref = '', path] = tree;
    const subdir = path?.replace(/(^|\/)SKILL\.md$/i, '');
    return parseGitUrl(`${repo}@${ref}${subdir ? `#${subdir}` : ''}`, schemeLength);
  }
  const [withoutSubdir, subdirRaw] = splitLast(source, '#', 0);
  // The ref's `@` sits in the path, after the host (which may itself carry `user@`).
  const pathStart =
    schemeLength >= 0 ? withoutSubdir.indexOf('/', schemeLength) : withoutSubdir.indexOf(':') + 1;
  const [url, ref] = pathStart > 0 ? splitLast(withoutSubdir, '@', pathStart) : [withoutSubdir, null];
  if (ARCHIVE_URL.test(url)) {
    throw new UserError(
      'UNSUPPORTED_SOURCE',
      `${redactUrl(url)}: archives are read from disk; download it first, then pass the file`,
    );
  }
  const local = /^file:\/\//i.test(url);
  return {
    kind: 'git',
    url,
    display: redactUrl(url),
    local,
    ...(local ? { host: null, owner: null } : hostAndOwner(url)),
    ref: ref === null ? null : validateRef(ref),
    subdir: subdirRaw === null ? null : normaliseSubdir(subdirRaw),
  };
}

/** Archive format from the file name, or null for anything else. */
export function archiveFormat(path: string): ArchiveFormat | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.zip') || lower.endsWith('.skill')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz') || lower.endsWith('.tar')) return 'tar';
  return null;
}

/**
 * A name safe to use as one folder inside a temp folder: the skill's folder name comes from the source
 * (archive or repository name, parent folder), so `..`, separators and odd characters are replaced.
 */
export function safeFolderName(name: string, fallback: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 128);
  return cleaned === '' || /^\.+$/.test(cleaned) ? fallback : cleaned;
}

/** Folder name an archive's root-level skill gets (`pdf.skill` → `pdf`). */
export function archiveStem(path: string): string {
  const name = posix.basename(path.replace(/\\/g, '/'));
  return safeFolderName(name.replace(/\.(zip|skill|tgz|tar\.gz|tar)$/i, ''), 'skill');
}
