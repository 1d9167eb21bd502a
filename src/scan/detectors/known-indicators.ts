import { z } from 'zod';
import { readDataFile, ruleData } from '../../core/knowledge.js';
import type { SkillFile } from '../../core/types.js';
import { allMatches, escapeRegExp } from '../../util/regexp.js';
import { isTestPath } from '../code/hits.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts, quote } from '../text.js';

// Known-bad indicators (rules/_data/indicators.yaml, and lists a user adds with `--indicators FILE`): a host,
// publisher account, package or file hash that a public report ties to a malicious-skill campaign. What antivirus
// feeds do, for the samples that differ from a clean skill only by where they send you.
//
// Security tools ship these same values as data (an IOC list, a blocklist, a test that the scanner flags them), so
// a value is reported only where the skill *uses* it: a line that fetches, sends, connects, installs or tells the
// agent to, a link or address in its text, a publisher field. A value alone on a line of a list, in a table row,
// or beside words that name it as bad (and no action) is listing, and so is a test nobody runs. The listing words
// cannot switch off a use: `curl` to a known C2 under a "known C2" comment is still a use.

export const KNOWN_INDICATOR_RULE = builtinRule('intel.known-indicator');

const INDICATOR_TYPES = ['ip', 'domain', 'account', 'package', 'sha256'] as const;
export type IndicatorType = (typeof INDICATOR_TYPES)[number];

const VALUE_SHAPE: Readonly<Record<IndicatorType, RegExp>> = {
  ip: /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/,
  domain: /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/i,
  account: /^[a-z0-9](?:[a-z0-9_.-]{0,98}[a-z0-9_])?$/i,
  package: /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]{0,213}$/i,
  sha256: /^[a-f0-9]{64}$/i,
};

const indicatorSchema = z
  .strictObject({
    type: z.enum(INDICATOR_TYPES),
    value: z.string().min(1).max(300),
    campaign: z.string().min(1),
    source: z.string().min(1),
    published: z.string().min(4),
  })
  .refine((i) => VALUE_SHAPE[i.type].test(i.value), {
    message: 'value does not have the shape its type needs',
    path: ['value'],
  });

export type Indicator = z.infer<typeof indicatorSchema>;

/** The shape of rules/_data/indicators.yaml and of a `--indicators FILE` (YAML or JSON). */
export const indicatorListSchema = z.strictObject({ indicators: z.array(indicatorSchema).max(100_000) });

/**
 * A user's known-bad list, as data: what `--indicators FILE` reads, and what a batch job or the service hands a
 * worker on another machine (which has no copy of the file). `name` says where it came from.
 */
export interface IndicatorList {
  name: string;
  indicators: Indicator[];
}

/** A user's indicator list, checked: a RulePackError names the file and what is wrong with it. */
export function readIndicatorFile(file: string): IndicatorList {
  return { name: file, indicators: readDataFile(file, indicatorListSchema).indicators };
}

// Defanged dots as threat reports and lures write them: `91[.]92[.]242[.]30`, `host(.)buzz`.
const DOT = String.raw`(?:\.|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))`;

const DEFANGED_DOT = new RegExp(DOT, 'gi');

function dotted(value: string): string {
  return value.split('.').map(escapeRegExp).join(DOT);
}

function longestLabel(value: string): string {
  return escapeRegExp(value.split('.').reduce((a, b) => (b.length > a.length ? b : a)));
}

function alternation(values: readonly string[], form: (v: string) => string): string {
  return [...new Set(values)].map(form).join('|');
}

// Where an account is named: as a repository or registry owner in a URL, a GitHub Pages site, or the
// publisher field of the skill's metadata.
const ACCOUNT_HOSTS = String.raw`(?:github\.com|githubusercontent\.com|gist\.github\.com|clawhub\.(?:ai|com)|gitlab\.com|npmjs\.com\/~|huggingface\.co)`;
const PUBLISHER_FIELD = String.raw`\b(?:author|owner|owner_?id|publisher|maintainer|handle|username)["']?\s*[:=]\s*["']?@?`;
// Where a package is named: an install or run command, a manifest's dependency key, a requirements line.
const INSTALL = String.raw`\b(?:npx|bunx|uvx|pipx\s+(?:install|run)|npm\s+(?:i|install|add|exec)|pnpm\s+(?:add|i|install|dlx)|yarn\s+(?:add|dlx)|bun\s+add|pip3?\s+install|python3?\s+-m\s+pip\s+install|uv\s+(?:add|pip\s+install))\b[^\n;&|]*?`;

/** The regular expressions one list compiles to, each with the indicator a match stands for. */
interface Matchers {
  /** `needle`: a word every match of `re` holds, cheap to look for before running `re` over the text. */
  patterns: { re: RegExp; needle: RegExp; type: Exclude<IndicatorType, 'sha256'> }[];
  byValue: Map<string, Indicator>;
  byHash: Map<string, Indicator>;
}

function compile(list: readonly Indicator[]): Matchers {
  const byValue = new Map<string, Indicator>();
  const byHash = new Map<string, Indicator>();
  const of = (type: IndicatorType) => list.filter((i) => i.type === type).map((i) => i.value.toLowerCase());
  for (const i of list) {
    if (i.type === 'sha256') byHash.set(i.value.toLowerCase(), i);
    else byValue.set(`${i.type}:${i.value.toLowerCase()}`, i);
  }
  const patterns: Matchers['patterns'] = [];
  const add = (
    type: Exclude<IndicatorType, 'sha256'>,
    source: (alts: string) => string,
    form = escapeRegExp,
  ) => {
    const values = of(type);
    if (!values.length) return;
    const re = new RegExp(source(alternation(values, form)), 'gim');
    // A dotted value may be written with defanged dots, but each of its labels is there as it is.
    const needle = new RegExp(alternation(values, form === dotted ? longestLabel : escapeRegExp), 'i');
    patterns.push({ re, needle, type });
  };
  add('ip', (alts) => String.raw`(?<![\d.])(${alts})(?!\d|${DOT}\d)`, dotted);
  add(
    'domain',
    (alts) => String.raw`(?<![\w.-])(?:[a-z0-9-]+${DOT})*(${alts})(?![\w-]|${DOT}[a-z0-9])`,
    dotted,
  );
  add(
    'account',
    (alts) =>
      String.raw`(?:${ACCOUNT_HOSTS}\/(${alts})(?![\w.-])|(?<![\w.-])(${alts})${DOT}github${DOT}io\b|${PUBLISHER_FIELD}(${alts})(?![\w.-]))`,
  );
  add(
    'package',
    (alts) =>
      String.raw`(?:${INSTALL}(?<![\w@/.-])(${alts})(?![\w/-]|\.\w)|^[ \t]*["']?(${alts})["']?[ \t]*(?::[ \t]*["'^~<>=\d*]|[=<>~!]=|$))`,
  );
  return { patterns, byValue, byHash };
}

// A line that does something with what it names: fetches, sends, connects, runs or installs, or tells the
// agent to. Checked on the line and on the text line before it when that ends with a colon ("Download it from:").
const ACTION =
  /\b(?:curl|wget|fetch|requests?\.|urllib|urlopen|https?\.(?:get|post|request)|axios|got\(|XMLHttpRequest|WebSocket|socket\.|connect\w*|nc|ncat|socat|ssh|scp|rsync|sftp|ftp|Invoke-(?:WebRequest|RestMethod|Expression)|iwr|irm|download\w*|upload\w*|post|send\w*|regist\w*|sign\s+up|log\s*in|visit|open|navigate|go\s+to|install\w*|npx|pip3?|npm|git\s+clone|bash|sh|eval|exec\w*|run|execute|import|require|enrol\w*|join|check[- ]in|heartbeat|beacon|report\s+to)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i;
// A command line: in a document, what runs whatever the sentence around it says.
const COMMAND =
  /\b(?:curl|wget|nc|ncat|socat|ssh|scp|rsync|sftp|Invoke-(?:WebRequest|RestMethod)|iwr|irm|npx|bunx|uvx|pip3?\s+install|npm\s+(?:i|install)|git\s+clone)\b|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i;
// Words that name a value as bad, as IOC lists, blocklists and detection docs do.
const LISTING =
  /\b(?:iocs?|indicators?(?:\s+of\s+compromise)?|block\s*-?list\w*|deny\s*-?list\w*|black\s*-?list\w*|known[\s_-]*(?:bad|malicious|c2)|malicious|threat[\s_-]*intel\w*|blocked|quarantin\w*|detect\w*|flag(?:s|ged)?)\b/i;
// One value alone on a line: an element of a list or array, with at most a trailing comma and comment.
const BARE_ELEMENT = /^\s*(?:[-*]\s+)?["'`]?[^\s"'`]+["'`]?\s*[,;)\]}]*\s*(?:(?:#|\/\/|--).*)?$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const LINK = /\b(?:h(?:tt|xx)ps?|ftp|wss?):\/\//i;
const MARKDOWN = /\.(?:md|markdown|mdx)$/i;

/** Whether the line at `index` uses what it names (else it lists it). */
function uses(lines: readonly string[], index: number, type: IndicatorType, path: string): boolean {
  const line = lines[index]!;
  // A document that names the value as bad describes it, unless the line is itself a command or links to it
  // (a word like "detected" beside a link is the author's to choose; a list of IOCs does not link them).
  if (MARKDOWN.test(path) && LISTING.test(line))
    return COMMAND.test(line) || (LINK.test(line) && !TABLE_ROW.test(line) && !BARE_ELEMENT.test(line));
  let before = '';
  for (let i = index - 1; i >= Math.max(0, index - 3) && !before; i--) before = lines[i]!.trimEnd();
  if (ACTION.test(line) || (before.endsWith(':') && ACTION.test(before))) return true;
  // A publisher field is the skill's own metadata: there is nothing to list there.
  if (type === 'account' && !/\/|github\.io/i.test(line)) return true;
  // A dependency (a manifest key, a requirements line) is a use; a quoted name alone is a list's element.
  if (type === 'package') return !BARE_ELEMENT.test(line) || !/["'`]/.test(line);
  return !(BARE_ELEMENT.test(line) || TABLE_ROW.test(line) || LISTING.test(line));
}

function detectIn(ctx: FileContext, m: Matchers): Hit[] {
  const hits: Hit[] = [];
  const known = m.byHash.get(ctx.file.sha256?.toLowerCase() ?? '');
  if (known) hits.push(hashHit(ctx.file, known));
  // Files the skill ships that no detector reads as text (binaries): their hashes are checked from SKILL.md.
  if (ctx.file.path === 'SKILL.md')
    for (const f of ctx.skill.files) {
      const bad = f.text === null ? m.byHash.get(f.sha256?.toLowerCase() ?? '') : undefined;
      if (bad) hits.push(hashHit(f, bad));
    }
  if (!m.patterns.length) return hits;
  // A test nobody runs asserts that a scanner flags the value: listing, whatever its lines do.
  if (isTestPath(ctx.file.path) && !ctx.reachable) return hits;
  const text = ctx.text;
  let lines: string[] | null = null;
  let starts: number[] | null = null;
  const seen = new Set<string>();
  for (const { re, needle, type } of m.patterns) {
    // Most files name no indicator at all: a plain search rules them out before the full expression.
    if (!needle.test(text)) continue;
    for (const match of allMatches(re, text)) {
      const value = match.slice(1).find((g) => g !== undefined);
      if (!value) continue;
      const indicator = m.byValue.get(`${type}:${value.replace(DEFANGED_DOT, '.').toLowerCase()}`);
      if (!indicator) continue;
      lines ??= text.split('\n');
      starts ??= lineStarts(text);
      const line = lineAt(starts, match.index);
      const key = `${indicator.value}\0${line}`;
      if (seen.has(key) || !uses(lines, line - 1, type, ctx.file.path)) continue;
      seen.add(key);
      hits.push({
        rule: KNOWN_INDICATOR_RULE.id,
        line,
        endLine: line,
        evidence: quote(lines[line - 1]!),
        confidence: 0.99,
        rationale: `${describe(indicator)}; used here, not listed as data`,
        message: `Uses ${indicator.value} (${kindName(indicator.type)}), tied to a malicious-skill campaign: ${indicator.campaign}.`,
      });
    }
  }
  return hits;
}

function kindName(type: IndicatorType): string {
  return {
    ip: 'IP address',
    domain: 'domain',
    account: 'publisher account',
    package: 'package',
    sha256: 'file',
  }[type];
}

function describe(i: Indicator): string {
  return `known-bad ${kindName(i.type)} (${i.campaign}; ${i.source}, ${i.published})`;
}

/** Reported on the first line: a file's hash belongs to the whole file. */
function hashHit(file: SkillFile, i: Indicator): Hit {
  return {
    rule: KNOWN_INDICATOR_RULE.id,
    line: 1,
    endLine: 1,
    evidence: `${file.path}: sha256 ${i.value.toLowerCase()}`,
    confidence: 0.99,
    rationale: describe(i),
    message: `${file.path} is a file a public report ties to a malicious-skill campaign: ${i.campaign}.`,
  };
}

/** A detector over every text file of a skill (markdown read whole, so not again per fenced block). */
export function indicatorDetector(name: string, list: readonly Indicator[]): Detector {
  const matchers = compile(list);
  return {
    name,
    rules: [KNOWN_INDICATOR_RULE],
    appliesTo: (file: SkillFile) => !(file.kind === 'script' && MARKDOWN.test(file.path)),
    detect: (ctx) => detectIn(ctx, matchers),
  };
}

/** The built-in list (rules/_data/indicators.yaml). */
export const knownIndicatorsDetector = indicatorDetector(
  'known-indicators',
  ruleData('indicators', indicatorListSchema).indicators,
);
