import { parseMarkdown } from '../../core/markdown.js';
import { escapeRegExp } from '../../util/regexp.js';
import { normaliseSpan } from '../engine/prose-normalise.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, linesOf, quote } from '../text.js';

// SC4: a skill's name against its folder, against well-known names it may be imitating, and claims to be
// official or verified by a vendor that did not publish it.

export const NAMESPACE_RULES = {
  folder: builtinRule('fm.name-folder-mismatch'),
  typosquat: builtinRule('fm.typosquat-name'),
  official: builtinRule('md.false-official-claim'),
};

/** Names worth imitating: widely installed skills and the packages and services skills wrap. */
export const WELL_KNOWN_NAMES: readonly string[] = [
  'skill-creator',
  'mcp-builder',
  'webapp-testing',
  'frontend-design',
  'canvas-design',
  'algorithmic-art',
  'brand-guidelines',
  'internal-comms',
  'slack-gif-creator',
  'theme-factory',
  'artifacts-builder',
  'web-artifacts-builder',
  'doc-coauthoring',
  'template-skill',
  'claude-api',
  'pdf-tools',
  'playwright',
  'puppeteer',
  'selenium',
  'requests',
  'numpy',
  'pandas',
  'openai',
  'anthropic',
  'langchain',
  'github',
  'gitlab',
  'notion',
  'slack',
  'stripe',
  'supabase',
  'vercel',
  'firebase',
  'docker',
  'kubernetes',
  'terraform',
  'obsidian',
  'youtube',
  'google-drive',
  'gmail',
  'clawhub',
  'openclaw',
  'moltbot',
  'clawdbot',
  'solana',
  'ethereum',
  'metamask',
  'phantom',
  'polymarket',
  'binance',
  'coinbase',
  'uniswap',
  'telegram',
  'discord',
  'twitter',
  'linkedin',
  'salesforce',
  'hubspot',
  'shopify',
  'jira',
  'confluence',
  'linear',
  'figma',
  'postgres',
  'mongodb',
  'redis',
  'sqlite',
  'excel',
  'powerpoint',
  'word-docx',
];

/** Vendors whose name lends trust, with the repository owners that really publish for them. */
const VENDOR_OWNERS: Record<string, readonly string[]> = {
  anthropic: ['anthropics', 'anthropic'],
  claude: ['anthropics', 'anthropic'],
  openai: ['openai'],
  chatgpt: ['openai'],
  codex: ['openai'],
  google: ['google', 'google-gemini', 'googleapis'],
  microsoft: ['microsoft', 'azure'],
  github: ['github'],
  vercel: ['vercel', 'vercel-labs'],
  stripe: ['stripe'],
};
const VENDOR = Object.keys(VENDOR_OWNERS).join('|');
const OFFICIAL_CLAIMS: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:this|the)\s+(?:skill|plugin|package|extension|tool|integration)\s+(?:is\s+|was\s+|has\s+been\s+)?(?:an?\s+|the\s+)?(?:officially\s+)?(?:official|verified|certified|endorsed|approved|authori[sz]ed|published|made|built|developed|maintained|released|provided)\s+(?:\w+\s+){0,2}?(?:by|from)\s+(${VENDOR})\b`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:the\s+|an?\s+)?(?:official|verified|certified)\s+(${VENDOR})(?:\s+code)?\s+(?:skill|plugin|extension|integration|release|partner)\b`,
    'i',
  ),
  new RegExp(String.raw`\b(?:verified|certified|endorsed|approved|audited)\s+by\s+(${VENDOR})\b`, 'i'),
  new RegExp(
    String.raw`\bofficial(?:ly)?\s+(?:[\w-]+\s+){0,3}?(?:skill|plugin|extension|integration|connector|tool|version|release)\s+(?:by|from|of)\s+(${VENDOR})\b`,
    'i',
  ),
];
// Any brand: "The official LinkedIn resume skill". Case-sensitive so the brand is a proper name.
const OFFICIAL_BRAND =
  /\b[Tt]he\s+official\s+([A-Z][\w.-]+)(?:\s+[\w-]+){0,2}?\s+(?:skill|plugin|extension|integration|connector|app)\b/;
const DISCLAIMER =
  /(?:\b(?:not|un)|n't)\s*(?:an?\s+)?(?:official|affiliated|endorsed|verified)|\bunofficial\b|\bnot\s+(?:affiliated|associated)\b/i;

/** Damerau-Levenshtein distance (optimal string alignment), bounded: stops early past `max`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length]![b.length]!;
}

// Digits and letter pairs that pass for other letters at a glance.
const LOOKALIKES: [RegExp, string][] = [
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/3/g, 'e'],
  [/5/g, 's'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/I/g, 'l'],
];

function foldLookalikes(name: string): string {
  let out = name;
  for (const [re, to] of LOOKALIKES) out = out.replace(re, to);
  return out.toLowerCase();
}

/** The well-known name this one imitates, or null. Exact matches and short names are never typosquats. */
export function typosquatOf(name: string): { target: string; distance: number } | null {
  const lower = name.toLowerCase();
  if (lower.length < 5 || WELL_KNOWN_NAMES.includes(lower)) return null;
  const folded = foldLookalikes(name);
  for (const target of WELL_KNOWN_NAMES) {
    if (target.length < 5) continue;
    if (folded === target) return { target, distance: 0 };
    const max = target.length >= 8 ? 2 : 1;
    const distance = editDistance(lower, target, max);
    if (distance <= max) return { target, distance };
  }
  return null;
}

function lineText(text: string, line: number): string {
  return quote(linesOf(text, line));
}

function nameHits(ctx: FileContext): Hit[] {
  const { skill } = ctx;
  const name = typeof skill.frontmatter.name === 'string' ? skill.frontmatter.name.trim() : '';
  const line = skill.frontmatterLines.name;
  if (!name || line === undefined) return [];
  const hits: Hit[] = [];
  const folder = skill.folderName;
  if (folder && folder !== '.' && name !== folder) {
    const lowerFolder = folder.toLowerCase();
    // Archives and clones name folders "<repo>-main" or "<name>-v1.2"; that is packaging, not impersonation.
    const packaging = new RegExp(
      `^${escapeRegExp(name.toLowerCase())}[-_.](?:main|master|v?\\d[\\w.-]*)$`,
    ).test(lowerFolder);
    const confidence = name.toLowerCase() === lowerFolder ? 0.3 : packaging ? 0.15 : 0.55;
    hits.push({
      rule: NAMESPACE_RULES.folder.id,
      line,
      endLine: line,
      evidence: lineText(ctx.text, line),
      confidence,
      rationale: `name "${name}" but folder "${folder}"${packaging ? ' (looks like a packaging suffix)' : ''}`,
    });
  }
  const squat = typosquatOf(name);
  if (squat) {
    const trivial =
      squat.distance === 1 &&
      (name.toLowerCase() === `${squat.target}s` ||
        name.replace(/[-_]/g, '') === squat.target.replace(/[-_]/g, ''));
    hits.push({
      rule: NAMESPACE_RULES.typosquat.id,
      line,
      endLine: line,
      evidence: lineText(ctx.text, line),
      confidence: squat.distance === 0 ? 0.75 : trivial ? 0.35 : 0.6,
      rationale:
        squat.distance === 0
          ? `"${name}" spells "${squat.target}" with look-alike characters`
          : `"${name}" is ${squat.distance} edit(s) from "${squat.target}"`,
    });
  }
  return hits;
}

function officialClaimHits(ctx: FileContext): Hit[] {
  const owner = (ctx.skill.provenance.owner ?? '').toLowerCase();
  const starts = lineStarts(ctx.text);
  const hits: Hit[] = [];
  for (const span of parseMarkdown(ctx.text).spans) {
    if (span.kind === 'html-comment' || span.kind === 'image-alt' || span.kind === 'link-title') continue;
    const norm = normaliseSpan(ctx.text, span);
    if (DISCLAIMER.test(norm.text)) continue;
    for (const re of [...OFFICIAL_CLAIMS, OFFICIAL_BRAND]) {
      const m = re.exec(norm.text);
      if (!m) continue;
      const vendor = m[1]!.toLowerCase();
      const publishers = VENDOR_OWNERS[vendor] ?? [vendor];
      if (owner && publishers.some((p) => owner.includes(p))) continue;
      const from = norm.map[m.index]!;
      const to = norm.map[m.index + m[0].length - 1]! + 1;
      hits.push({
        rule: NAMESPACE_RULES.official.id,
        line: lineAt(starts, from),
        endLine: lineAt(starts, to - 1),
        evidence: quote(ctx.text.slice(from, to)),
        confidence: owner ? 0.7 : 0.6,
        rationale: `claims ${vendor} backing; publisher ${owner ? `is "${owner}"` : 'unknown'}`,
      });
      break;
    }
  }
  return hits;
}

export const frontmatterNamespaceDetector: Detector = {
  name: 'frontmatter-namespace',
  rules: Object.values(NAMESPACE_RULES),
  appliesTo: (file) => file.path === 'SKILL.md' && file.kind === 'doc',
  detect: (ctx) => [...nameHits(ctx), ...officialClaimHits(ctx)],
};
