import { parseMarkdown } from '../core/markdown.js';
import type { Skill, SkillFile } from '../core/types.js';
import { escapeRegExp } from '../util/regexp.js';
import { withoutEmptyQuotes } from './text.js';

// Facts about the whole skill that detectors use to judge one file: which hosts the skill declares as its
// own services, and which scripts the agent is told to run (directly, or through another script).

// Hosts that anyone can receive data on. A skill naming them does not make sending data there expected.
const ANONYMOUS_RECEIVERS = [
  'webhook.site',
  'requestbin',
  'pipedream.net',
  'ngrok',
  'ngrok-free.app',
  'ngrok.io',
  'trycloudflare.com',
  'pastebin.com',
  'paste.ee',
  'hastebin',
  'ghostbin',
  'rentry.co',
  'glot.io',
  'transfer.sh',
  'file.io',
  'bit.ly',
  'tinyurl.com',
  'discord.com/api/webhooks',
  'discordapp.com',
  'interact.sh',
  'oast',
  'burpcollaborator',
  'beeceptor',
  'hookbin',
  'telegram.org',
];

const URL_RE = /\bhttps?:\/\/([a-z0-9.-]+\.[a-z]{2,})(?::\d+)?/gi;
const BARE_HOST_RE = /\b((?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|gov|edu|cloud|api))\b/gi;

function isAnonymousReceiver(host: string): boolean {
  return ANONYMOUS_RECEIVERS.some((r) => host.includes(r));
}

// A body paragraph that sends, uploads or pipes something names a destination, not a service the skill
// declares: a host mentioned only there must not make sending data to it expected. (A skill's own API is
// named in its description or where the body says what it uses.)
const SENDS =
  /\b(send|sends|sent|upload\w*|post|posts|posted|forward\w*|transmit\w*|exfiltrat\w*|report\w* (?:to|back)|sync\w* to|pipe\w*|collect\w*|curl|wget|download\w*)\b/i;

function hostsIn(text: string, into: Set<string>): void {
  for (const re of [URL_RE, BARE_HOST_RE]) {
    for (const m of text.matchAll(re)) {
      const host = m[1]!.toLowerCase();
      if (!isAnonymousReceiver(host)) into.add(host);
    }
  }
}

const proseCache = new WeakMap<Skill, string>();

/**
 * SKILL.md's body with the lines of its code blocks emptied: what the author says, not the code the agent runs.
 * A host or service named only in the code that sends data there is not one the skill declares; otherwise a
 * snippet that posts a token to a drop host would vouch for its own destination.
 */
export function bodyProse(skill: Skill): string {
  const known = proseCache.get(skill);
  if (known !== undefined) return known;
  const lines = skill.body.split('\n');
  const { blocks, shift } = bodyCodeBlocks(skill);
  for (const block of blocks)
    for (let i = Math.max(0, block.line - 1 - shift); i < block.endLine - shift && i < lines.length; i++)
      lines[i] = '';
  const prose = lines.join('\n');
  proseCache.set(skill, prose);
  return prose;
}

/**
 * The code blocks of SKILL.md's body, with the lines they are numbered from (`shift` lines before the body).
 * The prose detector parses the whole SKILL.md anyway: its tree is reused when the body is exactly that
 * file's lines after the frontmatter (the parser reads the frontmatter as one node), else the body is parsed.
 */
function bodyCodeBlocks(skill: Skill): {
  blocks: readonly { line: number; endLine: number }[];
  shift: number;
} {
  const text = skill.files.find((f) => f.path === 'SKILL.md')?.text;
  const shift = skill.bodyStartLine - 1;
  if (typeof text === 'string' && shift > 0 && text.endsWith(skill.body)) {
    const head = text.length - skill.body.length;
    let newlines = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i < head; i = text.indexOf('\n', i + 1)) newlines++;
    if (newlines === shift) {
      const blocks = parseMarkdown(text).codeBlocks.filter((b) => b.endLine > shift);
      return { blocks, shift };
    }
  }
  return { blocks: parseMarkdown(skill.body).codeBlocks, shift: 0 };
}

/**
 * Hostnames the skill declares as the services it talks to: those in its frontmatter (name, description,
 * metadata) and those its SKILL.md body names outside paragraphs that send data or fetch code.
 */
export function declaredHosts(skill: Skill): Set<string> {
  const hosts = new Set<string>();
  hostsIn(`${skill.description}\n${JSON.stringify(skill.frontmatter)}`, hosts);
  for (const paragraph of bodyProse(skill).split(/\n\s*\n/)) {
    if (!SENDS.test(paragraph)) hostsIn(paragraph, hosts);
  }
  return hosts;
}

/** How a script is named in text: its path, or its basename after a separator. */
interface ScriptName {
  path: string;
  base: string;
  /** Null when the basename has no extension: a bare word is too common to mean the script. */
  baseRe: RegExp | null;
}

function scriptName(file: SkillFile): ScriptName {
  const base = file.path.split('/').pop()!;
  return {
    path: file.path,
    base,
    baseRe: base.includes('.') ? new RegExp(`(^|[\\s\`'"/(])${escapeRegExp(base)}\\b`) : null,
  };
}

function mentions(text: string, name: ScriptName): boolean {
  if (text.includes(name.path)) return true;
  // The substring test is cheap and necessary for a match: most script pairs never get to the RegExp.
  return name.baseRe !== null && text.includes(name.base) && name.baseRe.test(text);
}

/** Files of one kind that `text` itself names. */
function namedBy(skill: Skill, kind: SkillFile['kind'], text: string): SkillFile[] {
  const bare = withoutEmptyQuotes(text);
  return skill.files.filter((f) => f.kind === kind && mentions(bare, scriptName(f)));
}

/**
 * Files of one kind that SKILL.md's body (or the `seeds` texts) names, and, transitively, files of that kind
 * those files name. With `where`, a mention counts only when the line naming the file passes it.
 */
function reachableOfKind(
  skill: Skill,
  kind: SkillFile['kind'],
  where?: (line: string) => boolean,
  seeds: readonly string[] = [skill.body],
): Set<string> {
  const names = skill.files.filter((f) => f.kind === kind).map(scriptName);
  const reached = new Set<string>();
  const queue: string[] = [];
  const named = (text: string, f: ScriptName) =>
    mentions(text, f) && (!where || text.split('\n').some((line) => mentions(line, f) && where(line)));
  const seedTexts = seeds.map(withoutEmptyQuotes);
  for (const f of names) {
    if (seedTexts.some((text) => named(text, f))) {
      reached.add(f.path);
      queue.push(f.path);
    }
  }
  const byPath = new Map(skill.files.map((f) => [f.path, f]));
  while (queue.length > 0) {
    const caller = byPath.get(queue.shift()!);
    if (!caller?.text) continue;
    const text = withoutEmptyQuotes(caller.text);
    for (const f of names) {
      if (!reached.has(f.path) && named(text, f)) {
        reached.add(f.path);
        queue.push(f.path);
      }
    }
  }
  return reached;
}

/**
 * Scripts the agent runs: those its instructions name (SKILL.md with its frontmatter, and the documents it reads
 * as its instructions: agentReadDocs), and, transitively, scripts those scripts name. Returns the set of file paths.
 */
export function reachableScripts(skill: Skill): Set<string> {
  return perSkill(scriptsCache, skill, () => {
    // SKILL.md whole: the agent loads its frontmatter with it (a value may hold the steps).
    const texts = new Map(skill.files.map((f) => [f.path, f.text]));
    const docs = [...agentReadDocs(skill)].map((p) => texts.get(p) ?? (p === 'SKILL.md' ? skill.body : ''));
    return reachableOfKind(skill, 'script', undefined, docs);
  });
}

// The engine and the detectors ask for these sets of the same skill: each is computed once per skill.
const scriptsCache = new WeakMap<Skill, Set<string>>();
const agentReadCache = new WeakMap<Skill, Set<string>>();
const namedDocsCache = new WeakMap<Skill, Set<string>>();

function perSkill(cache: WeakMap<Skill, Set<string>>, skill: Skill, compute: () => Set<string>): Set<string> {
  let found = cache.get(skill);
  if (!found) {
    found = compute();
    cache.set(skill, found);
  }
  return found;
}

// A line that hands the agent a document as its procedure ("read references/guide.md and follow every step",
// "see references/guide.md for the full procedure"), rather than pointing at it for reference ("see
// references/api.md for the endpoints").
const PROCEDURE = String.raw`(?:procedures?|steps|instructions|workflows?|playbook|runbook)`;
const FOLLOW = new RegExp(
  [
    String.raw`\b(?:follow(?:s|ing)?|execute|carry\s+out|obey|comply\s+with|do\s+(?:exactly\s+)?what)\b`,
    // "for the full procedure", "for step-by-step instructions"; not "server instructions" as a topic.
    String.raw`\bfor\s+(?:the\s+|its\s+|all\s+|every\s+)?(?:(?:full|complete|whole|detailed|exact|step[- ]by[- ]step|remaining|next|setup|installation|usage)\s+)*${PROCEDURE}\b`,
    // "the steps are in …", "instructions described in …"
    String.raw`\b${PROCEDURE}\s+(?:(?:are|is)\s+)?(?:in|at|from|(?:described|listed|given|written)\s+in)\b`,
  ].join('|'),
  'i',
);

/** Words of its own below which a SKILL.md body only stands in for the documents it names. */
const STAND_IN_WORDS = 30;

/**
 * A body that says next to nothing itself ("# Guide / More in `references/guide.md`."): an agent loading the
 * skill has nothing to act on but the documents it names, so those are its instructions however the pointer is
 * worded. Headings, code spans, paths and links are not words of its own; a fenced block's lines are (a body
 * with a command of its own is not a pointer).
 */
function isStandIn(body: string): boolean {
  const own = body.replace(/^ {0,3}#.*$/gm, ' ').replace(/`[^`\n]*`/g, ' ');
  let words = 0;
  // Token by token (no expression spans tokens, so the count stays linear in the body's length).
  for (const token of own.split(/\s+/)) {
    if (token.includes('/') || token.includes('](') || /\.(?:md|markdown|mdx|txt|rst)\b/i.test(token))
      continue;
    if (/[\p{L}\p{N}]/u.test(token) && ++words > STAND_IN_WORDS) return false;
  }
  return true;
}

/**
 * Documents the agent reads as its instructions: SKILL.md, and the documents SKILL.md tells it to follow (a
 * line naming the document says to follow or execute it, or names it as the procedure), transitively. Text
 * there that tells the agent what to do is an instruction, whatever heading the author put above it. A JSON or
 * YAML file it is told to follow ("load assets/template.json and follow its instructions") is one too.
 */
export function agentReadDocs(skill: Skill): Set<string> {
  return perSkill(agentReadCache, skill, () => {
    const follows = (line: string) => FOLLOW.test(line);
    // A stand-in body hands over every document it or the description names (the agent reads both when it
    // loads the skill); what those documents name counts only when followed.
    const handed = isStandIn(skill.body) ? namedBy(skill, 'doc', `${skill.description}\n${skill.body}`) : [];
    const seeds = [skill.body, ...handed.map((f) => f.text ?? '')];
    const docs = reachableOfKind(skill, 'doc', follows, seeds).add('SKILL.md');
    for (const f of handed) docs.add(f.path);
    for (const path of reachableOfKind(skill, 'data', follows))
      if (/\.(?:json|ya?ml)$/i.test(path)) docs.add(path);
    // A SKILL.md deeper in the skill is a skill of its own that an agent may load (a collection installed whole,
    // a plugin's skills folder): its text is instructions to the agent, not reference material.
    for (const path of nestedSkillFiles(skill)) docs.add(path);
    return docs;
  });
}

/**
 * Documents SKILL.md names, transitively, whatever the words around the name: the agent reads them when it
 * follows SKILL.md's pointer ("see references/guide.md" as much as "follow references/guide.md").
 */
export function namedDocs(skill: Skill): Set<string> {
  return perSkill(namedDocsCache, skill, () => reachableOfKind(skill, 'doc'));
}

/** SKILL.md files below the skill's root: skills inside the skill. */
export function nestedSkillFiles(skill: Skill): string[] {
  return skill.files.filter((f) => /\/SKILL\.md$/i.test(f.path)).map((f) => f.path);
}

// `-s <service>` of a `security` keychain command, as a shell line or a list of arguments (`"-s", "name"`).
const KEYCHAIN_SERVICE = /(?:^|[\s,[(])["']?-s["']?\s*,?\s*["']([^"']+)["']|\s-s\s+([^\s"'-][^\s]*)/;
const KEYCHAIN_STORE = /\badd-(?:generic|internet)-password\b/g;
// How far past the command its `-s` may be written (a command continued over lines, one argument a line).
const STORE_WINDOW = 400;

/** The keychain service a `security` command names with `-s`, if any. */
export function keychainService(command: string): string | null {
  const m = KEYCHAIN_SERVICE.exec(command);
  return m?.[1] ?? m?.[2] ?? null;
}

const storedCache = new WeakMap<Skill, Set<string>>();

/**
 * Keychain services the skill stores items under itself (`security add-generic-password -s <service>` in any of
 * its files): reading such an item back reads the skill's own secret, not another application's.
 */
export function storedKeychainServices(skill: Skill): Set<string> {
  return perSkill(storedCache, skill, () => {
    const services = new Set<string>();
    for (const f of skill.files) {
      if (!f.text?.includes('-password')) continue;
      for (const m of f.text.matchAll(KEYCHAIN_STORE)) {
        const window = f.text.slice(m.index, m.index + STORE_WINDOW);
        // The store's own arguments only: not the `-s` of the next `security` command.
        const next = window.search(/\bsecurity\b/);
        const service = keychainService(next > 0 ? window.slice(0, next) : window);
        if (service) services.add(service);
      }
    }
    return services;
  });
}
