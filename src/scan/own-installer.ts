import type { Finding, Skill } from '../types.js';
import { NO_REPUTATION_SOURCE, VENDOR_INSTALLER } from './rules/prose-vocabulary.js';

// A skill about a tool that installs that tool with the tool's own installer (`curl -sSL https://aspire.dev/
// install.sh | bash` in an Aspire skill, Syft's install.sh from anchore/syft in an SBOM-with-Syft skill) is
// doing what the vendor documents, not fetching a stranger's code. Remote-code findings whose URL is the
// vendor's own (a well-known installer, or a host or GitHub repository named after the tool the skill is
// about) keep their finding but at a lower confidence. Hosts nobody vouches for (raw IPs, paste sites,
// dynamic DNS, plain http) and free app platforms, where anyone can pick a subdomain named after any tool,
// never get the discount.

export const OWN_INSTALLER_FACTOR = 0.55;

const URL_RE = /\bhttps?:\/\/([^\s/"'`)|;<>]+)(\/[^\s"'`)|;<>]*)?/gi;
const KNOWN_INSTALLER = new RegExp(VENDOR_INSTALLER, 'i');
const NO_REPUTATION = new RegExp(NO_REPUTATION_SOURCE, 'i');
// App platforms that hand out subdomains to anyone (a lure can live at <tool>.vercel.app).
const FREE_PLATFORM =
  /\.(?:vercel\.app|netlify\.app|pages\.dev|workers\.dev|github\.io|gitlab\.io|glitch\.me|herokuapp\.com|onrender\.com|replit\.app|repl\.co|fly\.dev|web\.app|firebaseapp\.com|surge\.sh|azurewebsites\.net|blogspot\.com|wixsite\.com|weebly\.com)$/i;
const CODE_HOSTS = new Set(['raw.githubusercontent.com', 'github.com', 'gitlab.com', 'codeload.github.com']);
// Words in skill names that say what kind of skill it is, not which tool it is about.
const GENERIC = new Set(
  'skill skills tool tools helper helpers agent agents code data setup install installer manager client server guide test tests testing build builder deploy deployment scan scanner security review reviewer docs documentation expert best practices pro plus core kit with using and for the into from your automation workflow workflows integration template templates generator runner api sdk cli app apps web'.split(
    ' ',
  ),
);

/** Names of the tool a skill is about: words of its frontmatter name and its first heading. */
export function subjectWords(skill: Skill): Set<string> {
  const heading = /^#\s+(.+)$/m.exec(skill.body)?.[1] ?? '';
  const words = `${skill.name} ${heading}`.toLowerCase().split(/[^a-z0-9]+/);
  return new Set(words.filter((w) => w.length >= 4 && !GENERIC.has(w) && !/^\d+$/.test(w)));
}

function namedAfter(label: string, subject: ReadonlySet<string>): boolean {
  const l = label.toLowerCase();
  for (const w of subject) if (l === w || (w.length >= 5 && l.includes(w))) return true;
  return false;
}

/** Whether a URL is the installer of the tool the skill is about (see the note at the top). */
export function isOwnInstaller(
  url: string,
  host: string,
  path: string,
  subject: ReadonlySet<string>,
): boolean {
  if (NO_REPUTATION.test(url) || FREE_PLATFORM.test(host) || /^[\d.]+$/.test(host)) return false;
  if (KNOWN_INSTALLER.test(url)) return true;
  const h = host.toLowerCase();
  if (CODE_HOSTS.has(h)) {
    // github.com/<owner>/<repo>/…: the repository must be named after the tool.
    const repo = path.split('/').filter(Boolean)[1] ?? '';
    return namedAfter(repo, subject);
  }
  // Every label but the top-level domain: get.helm.sh, aspire.dev, install.tool.io.
  return h
    .split('.')
    .slice(0, -1)
    .some((label) => namedAfter(label, subject));
}

/** The finding's lines as the file has them (a code finding's evidence can be the runner alone: `bash`). */
function linesOf(skill: Skill, f: Finding): string {
  const text = skill.files.find((x) => x.path === f.file)?.text;
  if (!text) return f.evidence;
  return `${f.evidence}\n${text
    .split('\n')
    .slice(f.line - 1, f.endLine)
    .join('\n')}`;
}

/** Lowers remote-code findings (SC2) whose every URL is the skill's own vendor installer. */
export function discountOwnInstallers(skill: Skill, findings: Finding[]): void {
  const subject = subjectWords(skill);
  for (const f of findings) {
    if (f.pattern !== 'SC2') continue;
    const urls = [...linesOf(skill, f).matchAll(URL_RE)];
    if (!urls.length) continue;
    if (!urls.every((m) => isOwnInstaller(m[0], m[1]!, m[2] ?? '', subject))) continue;
    // Prose rules already apply the known-installer factor: do not apply it twice.
    if (f.rule.startsWith('md.') && urls.every((m) => KNOWN_INSTALLER.test(m[0]))) continue;
    f.confidence = Math.round(f.confidence * OWN_INSTALLER_FACTOR * 100) / 100;
    f.rationale = `${f.rationale}; the URL is the installer of the tool the skill is about`;
  }
}
