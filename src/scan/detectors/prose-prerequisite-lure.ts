import { followedFraming, framedAsStep } from '../../core/markdown/framing.js';
import type { ProseSpan } from '../../core/markdown.js';
import { UNLESS_DOUBLE_NEGATIVE } from '../../core/negation.js';
import { ORDER_TO_AGENT } from '../../score/index.js';
import { escapeRegExp } from '../../util/regexp.js';
import { glossed } from '../engine/prose-gloss.js';
import { normalise } from '../engine/prose-normalise.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Hit, ReadDocument } from '../rule.js';
import { lineAt, quote } from '../text.js';
import {
  EXECUTABLE_FILE,
  freeHostOf,
  PASTE_HOST,
  RAW_IP_URL,
  rx,
  URL_SHORTENER,
  VENDOR_INSTALLER,
} from './prose-vocabulary.js';
import { endsWithHost, hostOfUrl, ownHost, ownLabels, skillTextOutside, squash } from './skill-hosts.js';

// Prerequisite lures by link (SC2). A copy of a popular skill gains one line near the top: a "required"
// helper to download and install from a link ("⏹ Quick setup here -> https://…", "OpenClawCLI must be
// installed … Download and install (Windows, MacOS) from: https://….vercel.app/", a GitHub release zip with
// "extract with pass `…`"). The payload is not in the skill, so nothing else about it looks wrong. This is
// the ClawHavoc campaign of February 2026 (hundreds of ClawHub uploads delivering the AMOS stealer), and the
// template is easy to reuse with any helper name and host.
//
// A setup or prerequisite sentence that sends the reader to a link is normal (vendor installers, docs); it
// becomes a lure when the link has the marks of throwaway delivery infrastructure, listed below as data.
// Without one of them nothing is reported: links to documentation, vendors' own installers and registries
// stay quiet.

export const PREREQUISITE_LURE_RULE = builtinRule('md.prerequisite-lure');

/**
 * Cheap TLDs that abuse reports rank highest for malware and phishing per registration (Spamhaus "most
 * abused TLDs", Interisle Phishing Landscape 2023/2024), plus the free ccTLDs of the old Freenom registry.
 */
export const CHEAP_TLDS: readonly string[] = [
  'top',
  'xyz',
  'icu',
  'buzz',
  'cyou',
  'sbs',
  'cfd',
  'bond',
  'click',
  'link',
  'rest',
  'monster',
  'quest',
  'lol',
  'online',
  'site',
  'store',
  'shop',
  'live',
  'fun',
  'space',
  'website',
  'zip',
  'mov',
  'country',
  'stream',
  'download',
  'win',
  'bid',
  'loan',
  'racing',
  'review',
  'trade',
  'date',
  'faith',
  'party',
  'men',
  'work',
  'kim',
  'gdn',
  'vip',
  'club',
  'pw',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'su',
  'ws',
  'cc',
];

/**
 * TLDs that software vendors and projects commonly publish under. A generic TLD outside this list and the
 * two-letter country codes (`.forum`, `.support`, `.guru`) is uncommon for a developer tool's installer.
 */
export const COMMON_TLDS: readonly string[] = [
  'com',
  'org',
  'net',
  'edu',
  'gov',
  'mil',
  'int',
  'io',
  'dev',
  'app',
  'ai',
  'co',
  'sh',
  'me',
  'cloud',
  'tech',
  'info',
  'land',
  'run',
  'rs',
  'so',
  'build',
  'tools',
  'software',
  'systems',
  'page',
  'codes',
  'foundation',
  'security',
  'sucks',
  'inc',
  'ltd',
  'company',
  'team',
  'works',
  'studio',
  'design',
];

/** Package registries and app stores: installing from them is not a download from a link. */
export const REGISTRY_HOSTS: readonly string[] = [
  'pypi.org',
  'npmjs.com',
  'npmjs.org',
  'crates.io',
  'rubygems.org',
  'pkg.go.dev',
  'packagist.org',
  'nuget.org',
  'brew.sh',
  'formulae.brew.sh',
  'marketplace.visualstudio.com',
  'open-vsx.org',
  'chromewebstore.google.com',
  'addons.mozilla.org',
  'apps.apple.com',
  'play.google.com',
  'microsoft.com',
  'hub.docker.com',
  'anaconda.org',
  'conda-forge.org',
  'jsr.io',
];

// Words that make a sentence a setup or prerequisite step.
const SETUP_CUE = rx(
  String.raw`\b(?:set\s?up|install(?:s|ed|ing|ation|er)?|download\w*|prerequisites?|required|requires?|must\s+(?:be\s+)?(?:first\s+)?(?:installed|downloaded|install|download|run)|before\s+using|get\s+started|quick\s*start|first[- ]time)\b`,
);
// The link is the thing to fetch: "from: URL", "here -> URL", "download … URL", a markdown link to it.
const POINTS_TO_LINK = rx(
  String.raw`\b(?:from|here|download\w*|install\w*|set\s?up|get|grab|fetch)\b[^\n.]{0,60}?(?:[:\-=]+>|→|:|\(|\s)\s*<?https?://`,
);
const LINK_ALONE = /^\s*<?https?:\/\/\S+>?\s*$/i;
const LEADS_TO_LINK =
  /\b(?:from|here|download\w*|install\w*|run\w*|copy|set\s?up|get|grab|fetch)\b[^\n]{0,80}:\s*$/i;
// Documentation, not something to run.
const DOCS_LINK =
  /^(?:docs?|developers?|learn|help|support|wiki|blog|manual)\.|\/(?:docs?|documentation|wiki|guides?|manual|reference|blob|tree|issues|pulls?|discussions)(?:\/|$|#)|readthedocs\.|\.md(?:#|$)/i;
const PACKAGE_MANAGER_INSTALL = rx(
  String.raw`\b(?:npm\s+(?:i|install)|pnpm\s+add|yarn\s+(?:global\s+)?add|pipx?\s+install|uv\s+tool\s+install|brew\s+install|apt(?:-get)?\s+install|dnf\s+install|winget\s+install|choco\s+install|scoop\s+install|cargo\s+install|go\s+install|gem\s+install|conda\s+install)\b`,
);
const PASSWORD_ARCHIVE = rx(
  String.raw`\bpassword[- ]protected\b|\b(?:extract|unzip|unpack|unrar|open|decompress)\w*\b[^.\n]{0,60}?\b(?:with|using|by)\s+(?:the\s+)?(?:pass(?:word|phrase|code)?|pwd|key)\b|\b(?:archive|zip|rar|7z)\s+pass(?:word)?\s*[:=]`,
);
const DESKTOP_ONLY = rx(
  String.raw`\b(?:windows|macos|mac\s*os|os\s*x|mac)\b[^\n]{0,60}?\b(?:download|install|run|from)\b|\b(?:download|install)\b[^\n]{0,60}?\((?:windows|macos|mac)\b`,
);
// Data, documents and media: a sample file to fetch, not a program to install.
const DATA_PATH =
  /\.(?:csv|tsv|json|jsonl|xml|ya?ml|txt|md|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|webp|mp[34]|wav|parquet|sqlite|db)(?:[?#]|$)/i;
const BINARY_PATH = /\.(?:exe|msi|dmg|pkg|zip|rar|7z|scr|bat|cmd|command|app|jar)(?:[?#]|$)/i;
// The text warns against the step ("never install such helpers", "malicious clones add a line like …").
const NEGATED = new RegExp(
  String.raw`\b(?:never|do\s+not|don'?t|avoid)${UNLESS_DOUBLE_NEGATIVE}\s+(?:\w+\s+){0,3}?(?:download|install|run|use|click|open|follow|trust)\b|\b(?:fake|malicious|scam|phishing|fraudulent|trojani[sz]ed)\s+(?:prerequisites?|setup|helpers?|installers?|links?|lures?|downloads?|copies|clones?|sites?|skills?)\b`,
  'i',
);
// "Beware of fake copies: download only from …" is the lure's own warning, steering to its link.
const ONLY_FROM =
  /\bonly\s+(?:\w+\s+){0,2}?(?:from|at|via|here)\b|\bofficial\s+(?:site|link|download|installer|source)\b/i;
// A named helper: "OpenClawCLI is required", "X must be installed", "requires the X utility".
const HELPER_NAME = [
  /([\w][\w.-]*(?:\s+CLI)?)\s+(?:is|are)\s+(?:required|needed|necessary)\b/i,
  /([\w][\w.-]*(?:\s+CLI)?)\s+must\s+be\s+(?:installed|downloaded|running)\b/i,
  /\brequires?\s+(?:the\s+)?([\w][\w.-]*)\s+(?:utility|helper|agent|cli|tool|client|app|driver|component|runtime)\b/i,
  /\b[Ii]nstall\s+(?:the\s+)?([A-Z][\w.-]+(?:\s+CLI)?)\b/,
];
const INSTALLS_PROGRAM = /\b(?:download\w*|install\w*)\b/i;
const CREDENTIAL_NAME = /[A-Z0-9]_[A-Z0-9]|\b(?:api|key|token|secret|password|account|credentials?)\b/i;
const GENERIC_NAMES =
  /^(?:it|this|that|the|a|an|tool|cli|app|helper|setup|skill|installation|access|key|token|python|node|nodejs|git|docker|account|version|which|what|one|following|following:)$/i;

const URL = /https?:\/\/[^\s<>()[\]"'`*]+/gi;
const PROSE_KINDS = new Set(['paragraph', 'list-item', 'blockquote', 'table', 'heading']);

interface Indicator {
  why: string;
}

/** The helper a setup sentence names, if any. */
function helperName(text: string): string | null {
  // Only a program is downloaded and installed; "XAI_API_KEY is required. Get it at …" names a credential.
  if (!INSTALLS_PROGRAM.test(text)) return null;
  for (const re of HELPER_NAME) {
    const raw = re.exec(text)?.[1];
    if (!raw || CREDENTIAL_NAME.test(raw)) continue;
    const name = raw.replace(/^[*_]+|[*_]+$/g, '').trim();
    if (!GENERIC_NAMES.test(name) && squash(name).length >= 3) return name;
  }
  return null;
}

// Lines about getting or checking the helper ("Check it with `x --version`", "Once X is installed"): they
// belong to the lure, not to a use of the helper.
const ABOUT_INSTALLING =
  /\b(?:install\w*|download\w*|set\s?up|setup|prerequisites?|required|which|verify|check)\b|\s(?:--version|-v|-V|--help|-h)\b/i;

/**
 * The skill uses the helper elsewhere: by the name the step gives ("OpenClawCLI"), or, for a product
 * named with a separate word ("Solana CLI", "Figma desktop app"), by the product's name (`solana`), on a
 * line that does more than install or check it.
 */
function usedElsewhere(helper: string, elsewhere: string): boolean {
  const product = helper.replace(/\s+(?:CLI|app|tool|utility|client|desktop)$/i, '');
  // The product's name counts only as a command (`solana balance`): "for OpenClaw agents" names the
  // platform a lure borrows, it does not run a CLI.
  const command =
    product !== helper && product.length >= 3
      ? new RegExp(String.raw`(?:^\s*(?:\$\s*)?|\x60\s*)${escapeRegExp(product)}\s+[\w-]`, 'i')
      : null;
  const named = (line: string) => squash(line).includes(squash(helper)) || (command?.test(line) ?? false);
  return elsewhere.split('\n').some((line) => named(line) && !ABOUT_INSTALLING.test(line));
}

/**
 * A download page on the vendor's own domain: a label of the host is the product the text names
 * ("Install Docker Desktop (Windows, macOS) from https://www.docker.com/…"). Never on a free-hosting
 * subdomain, whose name is whatever its owner typed.
 */
function vendorPage(host: string, context: string): boolean {
  if (freeHostOf(host)) return false;
  const prose = context.replace(/https?:\/\/\S+/gi, ' ');
  return ownLabels(host).some((l) => squash(prose).includes(squash(l)));
}

function hostIndicators(url: string, host: string, own: boolean): Indicator[] {
  const out: Indicator[] = [];
  if (new RegExp(RAW_IP_URL, 'i').test(url)) out.push({ why: `a raw IP address (${host})` });
  if (new RegExp(`(?:${PASTE_HOST}|${URL_SHORTENER})`, 'i').test(url))
    out.push({ why: `a paste site or URL shortener (${host})` });
  if (own) return out;
  const free = freeHostOf(host);
  if (free) out.push({ why: `a free-hosting subdomain of ${free} (${host})` });
  const tld = host.split('.').pop() ?? '';
  if (!/^\d+$/.test(tld)) {
    if (CHEAP_TLDS.includes(tld)) out.push({ why: `a cheap, much-abused TLD (.${tld})` });
    else if (tld.length > 2 && !COMMON_TLDS.includes(tld))
      out.push({ why: `a TLD uncommon for software downloads (.${tld})` });
  }
  return out;
}

/** Spans within three lines before `span` in the same section: the "X is required" line above the link. */
function windowOf(spans: readonly ProseSpan[], index: number): ProseSpan[] {
  const span = spans[index]!;
  const out = [span];
  for (let i = index - 1; i >= 0; i--) {
    const prev = spans[i]!;
    if (prev.endLine < span.line - 3 || prev.section !== span.section) break;
    if (PROSE_KINDS.has(prev.kind)) out.unshift(prev);
  }
  return out;
}

const PROGRAM_PATH = new RegExp(String.raw`\/([\w.-]+?)(?:[-_.]v?\d[\w.-]*)?${EXECUTABLE_FILE}`, 'i');

/** The program a direct link to an executable names: `…/releases/download/v1/PriceAgent.exe` → PriceAgent. */
function programOf(pathPart: string): string | null {
  const m = PROGRAM_PATH.exec(pathPart);
  const name = m?.[1] ?? null;
  return name && squash(name).length >= 3 && !GENERIC_NAMES.test(name) ? name : null;
}

/** Text in another language read through the gloss (unchanged when it is English or not glossed). */
function inEnglish(s: string): string {
  return glossed(normalise(s, 0))?.norm.text ?? s;
}

const DEFANGED = /\bh(?:xx|XX)ps?(?::|\[:\])\/\/|\w(?:\[\.\]|\(\.\)|\{\.\}|\[dot\])\w/;

/** SC2 hits for prerequisite lures in a markdown document. */
export function prerequisiteLureHits({ doc, text, starts, skill, path, agentRead }: ReadDocument): Hit[] {
  const hits: Hit[] = [];
  const spans = doc.spans;
  for (const [index, span] of spans.entries()) {
    if (!PROSE_KINDS.has(span.kind)) continue;
    const raw = text.slice(span.start, span.end);
    // Defanged links (hxxps://host[.]example) are read as the address they stand for.
    const defanged = DEFANGED.test(raw);
    if (!defanged && !/https?:\/\//i.test(raw)) continue;
    // Another language is read through the gloss, so its setup verbs meet the cues below.
    const plain = defanged ? normalise(raw, span.start) : null;
    const norm = glossed(plain ?? normalise(raw, span.start))?.norm ?? plain;
    const source = norm ? norm.text : raw;
    const link = source.search(/https?:\/\//i);
    if (link < 0) continue;
    const framing = agentRead ? followedFraming(span, source, link) : span.framing;
    const window = windowOf(spans, index);
    const context = inEnglish(`${span.section}\n${window.map((s) => text.slice(s.start, s.end)).join('\n')}`);
    // A link on a line of its own points where the line before it says ("run the command from this page:").
    // A markdown link's label may hold dots (`[PriceAgent.exe](…)`): the cue reads past it.
    const pointed =
      POINTS_TO_LINK.test(source.replace(/\[[^\]\n]{0,80}\]\(/g, (label) => label.replaceAll('.', ' '))) ||
      (LINK_ALONE.test(source) &&
        index > 0 &&
        LEADS_TO_LINK.test(text.slice(spans[index - 1]!.start, spans[index - 1]!.end)));
    if (!SETUP_CUE.test(context) || !pointed) continue;
    const from = window[0]!.line;
    const to = span.endLine;
    let elsewhere: string | null = null;
    for (const m of source.matchAll(URL)) {
      const url = m[0].replace(/[.,;:!?]+$/, '');
      const host = hostOfUrl(url);
      if (!host || host === 'localhost' || /^(?:127|10|192\.168)\./.test(host)) continue;
      if (REGISTRY_HOSTS.some((h) => endsWithHost(host, h))) continue;
      if (rx(VENDOR_INSTALLER).test(url)) continue;
      const pathPart = url.slice(url.indexOf(host) + host.length);
      if (DOCS_LINK.test(host) || DOCS_LINK.test(pathPart) || DATA_PATH.test(pathPart)) continue;
      elsewhere ??= skillTextOutside(skill, path, from, to);
      const own = ownHost(url, host, skill, elsewhere);
      const indicators = hostIndicators(url, host, own);
      if (PASSWORD_ARCHIVE.test(context)) indicators.push({ why: 'a password-protected archive' });
      if (defanged) indicators.push({ why: 'the link is defanged, as reports write addresses not to visit' });
      // A helper the skill never runs or names again. A link that names it is its vendor's own site,
      // unless the host already looks like throwaway infrastructure (`<helper>.vercel.app`).
      // A direct link to an executable names its program (`…/PriceAgent.exe`): the vendor's own site names it
      // in its host, a release page anyone can open does not.
      const named = helperName(context);
      const program = named === null ? programOf(pathPart) : null;
      const helper = named ?? program;
      const core = helper === null ? '' : squash(helper.replace(/[\s.-]*(?:cli|app|tool|utility)$/i, ''));
      const namedByLink =
        core.length >= 3 && squash(program ? host : url).includes(core) && indicators.length === 0;
      if (helper && !namedByLink && !usedElsewhere(helper, elsewhere))
        indicators.push({ why: `the helper ${helper} is not used anywhere else in the skill` });
      if (indicators.length === 0) continue;
      // Supporting only: real projects ship Windows and macOS binaries from their GitHub releases too.
      if ((DESKTOP_ONLY.test(context) || BINARY_PATH.test(pathPart)) && !vendorPage(host, context))
        indicators.push({ why: 'a Windows/macOS binary download' });
      let confidence =
        Math.min(0.97, 0.78 + 0.07 * indicators.length) * PREREQUISITE_LURE_RULE.framing[framing];
      const notes = indicators.map((i) => i.why);
      if (helper && usedElsewhere(helper, elsewhere)) {
        // The skill runs the tool it has the reader install: a real dependency, whatever its vendor's TLD.
        confidence *= 0.5;
        notes.push(`the skill uses ${helper} elsewhere`);
      }
      if (PACKAGE_MANAGER_INSTALL.test(context)) {
        confidence *= 0.7;
        notes.push('a package-manager install is offered too');
      }
      if (NEGATED.test(context) && !ONLY_FROM.test(context)) {
        confidence *= 0.15;
        notes.push('the text warns against it');
      }
      if (confidence < 0.2) continue;
      const line = lineAt(starts, norm ? norm.map[m.index]! : span.start + m.index);
      const step = text.slice(starts[line - 1] ?? span.start, starts[line] ?? span.end).trim();
      // A setup step that sends the reader to a download is an order, however the lure words it.
      const order = framedAsStep(framing) ? `; ${ORDER_TO_AGENT}` : '';
      hits.push({
        rule: PREREQUISITE_LURE_RULE.id,
        line,
        endLine: line,
        evidence: quote(step),
        confidence,
        rationale: `a setup step sends the reader to ${host}: ${notes.join('; ')}; framed as ${framing}${order}`,
        message: `A setup step sends the reader to download and install from ${host}.`,
      });
    }
  }
  return hits;
}
