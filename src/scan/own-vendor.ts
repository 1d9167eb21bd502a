import { registeredLabel } from '../core/hosts.js';
import type { Finding, Skill } from '../core/types.js';
import { OWN_SERVICE_SECRET } from '../score/index.js';
import { KNOWN_INDICATOR_RULE } from './detectors/known-indicators.js';
import {
  EXECUTABLE_FILE,
  FREE_HOSTING_SUFFIXES,
  freeHostOf,
  KNOWN_INSTALLER,
  NO_REPUTATION_SOURCE,
  SECRET_FILE,
} from './detectors/prose-vocabulary.js';
import { CODE_HOSTS } from './detectors/skill-hosts.js';

// Two things a skill does with its own vendor that read like attacks out of context, each kept as a finding
// at a lower confidence:
//
// 1. Installers. A skill about a tool that installs that tool with the tool's own installer (`curl -sSL https://aspire.dev/
// install.sh | bash` in an Aspire skill, Syft's install.sh from anchore/syft in an SBOM-with-Syft skill) is
// doing what the vendor documents, not fetching a stranger's code. Remote-code findings whose URL is the
// vendor's own (a well-known installer, or a host or GitHub repository named after the tool the skill is
// about) keep their finding but at a lower confidence. Hosts nobody vouches for (raw IPs, paste sites,
// dynamic DNS, plain http) and free app platforms, where anyone can pick a subdomain named after any tool,
// never get the discount.
//
// 2. Credentials. A skill that calls a service with that service's own key (`TODOIST_API_KEY` to
// api.todoist.com, `GITHUB_TOKEN` to api.github.com) is using the key for what it is for; exfiltration
// findings (E1, E2, P3) whose every secret is named after the service at every host they reach are lowered.
// The service is the label the host is registered under on the Public Suffix List (core/hosts.ts: todoist in
// api.todoist.com, not in todoist.com.example.net), and a credential file (a private key, a cloud credentials file) belongs to no service,
// except a token file in a tool's own folder sent to hosts registered under that tool's name
// (`~/.terraform.d/credentials.tfrc.json` to app.terraform.io). Either is kept in the report but leaves the status.
// A host named after the skill is not enough: attacker fixtures name the skill after their collector
// ("Project Analyzer" posting tokens to project-health-check.io).

export const OWN_INSTALLER_FACTOR = 0.55;
export const OWN_SERVICE_FACTOR = 0.4;

const URL_RE = /\bhttps?:\/\/([^\s/"'`)|;<>]+)(\/[^\s"'`)|;<>]*)?/gi;
const NO_REPUTATION = new RegExp(NO_REPUTATION_SOURCE, 'i');
const CREDENTIAL_FILE = new RegExp(SECRET_FILE, 'i');
// A host written without a scheme (`otlp.arize.com:443`), on common top-level domains only: `service.name` and
// `config.json` are not hosts.
const BARE_HOST =
  /(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|io|dev|ai|app|cloud|co|sh|so))(?=[/:\s'"`),;]|$)/gi;
const EXECUTABLE_DOWNLOAD = new RegExp(EXECUTABLE_FILE, 'i');
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

/** Hosts nobody vouches for: raw IPs, paste sites, dynamic DNS, plain http, free app platforms. */
function unvouched(url: string, host: string): boolean {
  const h = host.toLowerCase();
  return (
    NO_REPUTATION.test(url) ||
    /^[\d.]+$/.test(h) ||
    // App platforms hand out subdomains to anyone: a lure can live at <tool>.vercel.app.
    FREE_HOSTING_SUFFIXES.includes(h) ||
    freeHostOf(h) !== undefined
  );
}

/** Whether a URL is the installer of the tool the skill is about (see the note at the top). */
export function isOwnInstaller(
  url: string,
  host: string,
  path: string,
  subject: ReadonlySet<string>,
): boolean {
  if (unvouched(url, host)) return false;
  if (KNOWN_INSTALLER.test(url)) return true;
  // A program to download and run (`…/releases/download/v1/PriceAgent.exe`) is the campaign lure's template,
  // and a repository named after the skill's topic is the first name a lure picks: no discount for it.
  if (EXECUTABLE_DOWNLOAD.test(path)) return false;
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

// `<SERVICE>_API_KEY`, `<SERVICE>_TOKEN`, `<SERVICE>_SECRET_KEY`…: the service is the first word.
const SECRET_NAME = /\b([A-Z][A-Z0-9]{2,})_(?:[A-Z0-9]+_)*(?:API_?KEY|KEY|TOKEN|SECRET|PAT)\b/g;
const GENERIC_SECRET_PREFIX = new Set([
  'API',
  'AUTH',
  'ACCESS',
  'SECRET',
  'PRIVATE',
  'MY',
  'APP',
  'SERVICE',
  'CLIENT',
  'USER',
  'BEARER',
  'SESSION',
  'ENCRYPTION',
  'SIGNING',
  'MASTER',
  'ADMIN',
  'ROOT',
]);

/**
 * Whether `text` names a host and every host it names is one somebody vouches for whose registered label passes
 * `owned` (the service a secret belongs to): URLs, and hosts written without a scheme.
 */
function everyHostOwned(text: string, owned: (label: string) => boolean): boolean {
  const hosts = [...text.matchAll(URL_RE), ...text.replace(URL_RE, ' ').matchAll(BARE_HOST)];
  return (
    hosts.length > 0 && hosts.every(([url, host]) => !unvouched(url!, host!) && owned(registeredLabel(host!)))
  );
}

/** Whether every secret named in `text` belongs to a service that every host in it is a host of. */
export function ownServiceCall(text: string): boolean {
  if (CREDENTIAL_FILE.test(text)) return false;
  const services = [...text.matchAll(SECRET_NAME)].map((m) => m[1]!.toLowerCase());
  if (!services.length) return false;
  if (services.some((s) => GENERIC_SECRET_PREFIX.has(s.toUpperCase()))) return false;
  return everyHostOwned(text, (label) => services.every((s) => label === s || label.includes(s)));
}

// A credential file in a tool's own folder (`~/.terraform.d/credentials.tfrc.json`, `~/.docker/config.json`):
// the folder names the service whose token the file keeps.
const TOKEN_FILE = /\/[\w.-]*(?:credential|token|auth|secret)[\w.-]*$/i;
const TOOL_FOLDER_FILE = /(?:~|\$HOME|\$\{HOME\})?\/\.([a-z][a-z0-9-]{2,})(?:\.d)?\/[\w.-]+/gi;

/**
 * Whether a credential read is a tool's own token going back to that tool's service: every credential file named
 * sits in a tool's own folder, and every host the finding names is registered under that tool's name
 * (`~/.terraform.d/credentials.tfrc.json` to app.terraform.io). A key file, `~/.aws/credentials` (amazonaws.com
 * is not "aws") or a host elsewhere keeps the finding whole.
 */
export function ownToolCredential(text: string): boolean {
  const files = [...text.matchAll(TOOL_FOLDER_FILE)];
  const tools = new Set(
    files.filter((m) => CREDENTIAL_FILE.test(m[0]) || TOKEN_FILE.test(m[0])).map((m) => m[1]!.toLowerCase()),
  );
  if (tools.size !== 1) return false;
  const [tool] = tools;
  const rest = text.replace(TOOL_FOLDER_FILE, ' ');
  if (CREDENTIAL_FILE.test(rest)) return false;
  return everyHostOwned(rest, (label) => label === tool);
}

// Exfiltration findings: an instruction to send data, a transmission in code, an environment harvest.
const SEND_PATTERNS: ReadonlySet<string> = new Set(['E1', 'E2', 'P3']);

/** Lowers the findings that are the skill dealing with its own vendor (see the note at the top). */
export function discountOwnVendor(skill: Skill, findings: Finding[]): void {
  const subject = subjectWords(skill);
  for (const f of findings) {
    const sends = SEND_PATTERNS.has(f.pattern);
    if (!sends && f.pattern !== 'PE3' && f.pattern !== 'SC2') continue;
    // The finding's lines are read from its file: only for the patterns either discount looks at.
    const lines = linesOf(skill, f);
    const ownToken =
      (sends && ownServiceCall(lines)) ||
      (f.pattern !== 'SC2' && ownToolCredential(`${lines}\n${f.rationale}`));
    if (ownToken) {
      f.confidence = Math.round(f.confidence * OWN_SERVICE_FACTOR * 100) / 100;
      f.rationale = `${f.rationale}; ${OWN_SERVICE_SECRET}`;
      continue;
    }
    // Known campaign infrastructure is nobody's own vendor, whatever the skill calls itself.
    if (f.pattern !== 'SC2' || f.rule === KNOWN_INDICATOR_RULE.id) continue;
    const urls = [...lines.matchAll(URL_RE)];
    if (!urls.length) continue;
    if (!urls.every((m) => isOwnInstaller(m[0], m[1]!, m[2] ?? '', subject))) continue;
    // Prose rules already apply the known-installer factor: do not apply it twice.
    if (f.rule.startsWith('md.') && urls.every((m) => KNOWN_INSTALLER.test(m[0]))) continue;
    f.confidence = Math.round(f.confidence * OWN_INSTALLER_FACTOR * 100) / 100;
    f.rationale = `${f.rationale}; the URL is the installer of the tool the skill is about`;
  }
}
