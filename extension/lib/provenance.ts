import type { Audit } from './audit.js';
import { type DetectedSkill, decodeSegment } from './detect.js';

// What a verdict is for. A lookup answers with the closest audit the server has: another URL form of the skill,
// the default branch when the page shows another ref, an older commit, or (on ClawHub) the repository the page
// links rather than the files uploaded there. The badge says which, so a green verdict is never read as covering
// something it did not look at.

export interface Provenance {
  /** The audited source in short form ("github.com/o/r@ref#path"), when it is not the page itself. */
  verdictFor?: string;
  /** The source is a repository the page links, chosen by its publisher, not the content the page hosts. */
  linkedRepository: boolean;
  /** Short sha of the audited commit. */
  commit?: string;
  /** How long ago the audit finished, in words. */
  age?: string;
  /** Set when the page shows another version than the audited one: the ref the page shows. */
  pageRef?: string;
  /** The audited ref, when the audit's source names one. */
  auditRef?: string;
}

// Sites whose detected source is a link on the page rather than the page's own content.
const LINKED_SOURCE_SITES: readonly DetectedSkill['site'][] = ['clawhub'];
const SHORT_SHA = 7;
const HEX = /^[0-9a-f]{7,64}$/i;

interface SourceName {
  /** host/owner/repo[@ref][#folder], or host/path for other sites. */
  label: string;
  ref?: string;
}

// Reads GitHub's tree/blob URLs and intake's `repo[.git][@ref][#folder]` form into one name, so two URLs of the
// same skill at the same ref compare equal; a ref containing `/` is read up to its first `/` (docs/extension.md).
export function nameSource(source: string): SourceName | undefined {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return undefined;
  }
  const parts = url.pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decodeSegment);
  if (url.hostname !== 'github.com' || parts.length < 2) {
    return { label: `${url.host}${url.pathname.replace(/\/+$/, '')}` };
  }
  const [owner, repoPart, kind, treeRef, ...rest] = parts as [string, string, ...string[]];
  const at = repoPart.indexOf('@');
  const repo = (at === -1 ? repoPart : repoPart.slice(0, at)).replace(/\.git$/i, '');
  let ref = at === -1 ? undefined : repoPart.slice(at + 1) || undefined;
  // Intake's form names the folder in the fragment; on a GitHub page URL the fragment is only an anchor.
  let folder = kind === undefined ? decodeSegment(url.hash.slice(1)) : '';
  if ((kind === 'tree' || kind === 'blob') && treeRef) {
    ref = treeRef;
    folder = (kind === 'blob' ? rest.slice(0, -1) : rest).join('/');
  }
  const label =
    `github.com/${owner}/${repo}`.toLowerCase() + (ref ? `@${ref}` : '') + (folder ? `#${folder}` : '');
  return ref ? { label, ref } : { label };
}

export function age(finishedAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(finishedAt)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function sameVersion(
  pageRef: string,
  auditRef: string | undefined,
  commit: string | undefined,
  pageCommit: string | undefined,
): boolean {
  // The server said where the page's ref points now: the audit is of that commit or of another, whatever ref
  // it was submitted under (a branch moves on after its audit).
  if (pageCommit !== undefined && commit !== undefined) return commit.toLowerCase() === pageCommit;
  if (auditRef === pageRef) return true;
  // A page at a commit (github.com/o/r/tree/<sha>/…) shows the audited version when that is the audited commit.
  return commit !== undefined && HEX.test(pageRef) && commit.startsWith(pageRef.toLowerCase());
}

export function provenance(skill: DetectedSkill, audit: Audit, now: number, pageCommit?: string): Provenance {
  const linkedRepository = LINKED_SOURCE_SITES.includes(skill.site);
  const page = skill.source === null ? undefined : nameSource(skill.source);
  // Without a source in the answer nothing says the audit is of this page's version, so nothing is assumed.
  const audited = audit.source === undefined ? undefined : nameSource(audit.source);
  const result: Provenance = { linkedRepository };
  const verdictFor = linkedRepository ? (audited ?? page) : audited;
  if (verdictFor && (linkedRepository || verdictFor.label !== page?.label))
    result.verdictFor = verdictFor.label;
  if (audit.commit) result.commit = audit.commit.slice(0, SHORT_SHA);
  if (audit.finishedAt) result.age = age(audit.finishedAt, now);
  if (audited?.ref) result.auditRef = audited.ref;
  const pageRef = skill.site === 'github' ? page?.ref : undefined;
  if (pageRef && !sameVersion(pageRef, audited?.ref, audit.commit, pageCommit)) result.pageRef = pageRef;
  return result;
}
