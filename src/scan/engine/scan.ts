import { createHash } from 'node:crypto';
import type { Decision } from '../../core/decision.js';
import { unreadFrontmatter } from '../../core/frontmatter-notes.js';
import { quotedByTopicHeading } from '../../core/markdown/framing.js';
import { type Framing, parseMarkdown } from '../../core/markdown.js';
import type { Rule } from '../../core/rule.js';
import { patternById } from '../../core/taxonomy.js';
import type { Finding, SafetyStatus, Skill, SkillFile } from '../../core/types.js';
import { assessSafety, ORDER_TO_AGENT } from '../../score/index.js';
import { errorMessage } from '../../util/errors.js';
import { chargeUnit, enter, leave, timed, unitTimingOn } from '../../util/timing.js';
import { codeDetectors } from '../detectors/code-index.js';
import {
  type IndicatorList,
  indicatorDetector,
  knownIndicatorsDetector,
} from '../detectors/known-indicators.js';
import {
  BLOCK_MANIFEST_FRAMING,
  BLOCK_MANIFEST_SKIPPED,
  blockManifest,
} from '../detectors/manifest-blocks.js';
import { phraseDetector } from '../detectors/prose-detector.js';
import { decodedTexts, HIDDEN_RULES } from '../detectors/prose-hidden.js';
import { proseDetectors } from '../detectors/prose-index.js';
import { commandLinesOf, inlineShellCommands } from '../detectors/prose-inline-commands.js';
import { asRecipeShell } from '../makefile.js';
import { discountOwnVendor } from '../own-vendor.js';
import { type Detector, type FileContext, type Hit, RULE_SEVERITY_FROM } from '../rule.js';
import {
  agentReadDocs,
  declaredHosts,
  namedDocs,
  nestedSkillFiles,
  reachableScripts,
} from '../skill-context.js';
import { applySuppressions, type Baseline } from '../suppress.js';
import { lineAt, lineStarts } from '../text.js';
import { BUDGET_SPENT, SKILL_BUDGET_MS } from './budget.js';
import { codeMatchDetector } from './code-match.js';
import { AUTHOR_DISCOUNT_FLOOR } from './prose-apply.js';
import { loadUserRules } from './rule-pack.js';

// Known indicators first: at equal confidence a finding found earlier is the one dedupe keeps, and a use of known
// campaign infrastructure must not give way to another finding of its pattern on the same line.
export const ALL_DETECTORS: readonly Detector[] = [
  knownIndicatorsDetector,
  ...proseDetectors,
  ...codeDetectors,
];
const PROSE_DETECTORS: ReadonlySet<Detector> = new Set(proseDetectors);

// Below this confidence a hit is context noise (an attack string quoted in a section about attacks): not reported.
export const REPORT_FLOOR = 0.2;

const EMBEDDED_LANGUAGES = new Set(['bash', 'python', 'javascript', 'typescript', 'powershell']);
/** Blocks a shell (bash or PowerShell) already reads whole: their command lines need no second reading. */
const SHELL_LABELS = new Set(['bash', 'powershell']);

export interface ScanOptions {
  detectors?: readonly Detector[];
  /** Rule packs of the user's own (folders of rule folders, `--rules DIR`), applied with the built-in rules. */
  ruleDirs?: readonly string[];
  /** Known-bad indicator lists of the user's own (`--indicators FILE`), used with the built-in list. */
  indicatorLists?: readonly IndicatorList[];
  /** Report only these rule ids (a rule's fixtures are checked against its own findings alone). */
  onlyRules?: readonly string[];
  baseline?: Baseline;
  /** Honour the skill's own `skillaudit-ignore` comments (only for skills you own). */
  honourInline?: boolean;
  /** Wall-clock milliseconds for one skill's detectors (default SKILL_BUDGET_MS). */
  budgetMs?: number;
}

export interface SkillScan {
  findings: Finding[];
  safetyScore: number;
  status: SafetyStatus;
  /** Why the status: the learned decision over the findings (docs/verdicts.md). */
  decision: Decision;
  /** Problems that made the scan less than complete (a detector failure, a file over the read limit). */
  notes: string[];
}

interface Located {
  hit: Hit;
  file: string;
}

/** One skill's scan in progress: its notes, and the time budget with what it made the scan skip. */
interface ScanRun {
  notes: string[];
  /** The rules of the detectors run, by id. */
  rules: ReadonlyMap<string, Rule>;
  budgetMs: number;
  deadline: number;
  /** File path → names of the detectors skipped there once the budget was spent. */
  skipped: Map<string, Set<string>>;
}

// A user's rule pack is read once per process (scan workers each read it once), whatever the skill count.
const userPacks = new Map<string, Detector[]>();

function userDetectors(dir: string): Detector[] {
  let found = userPacks.get(dir);
  if (!found) {
    const pack = loadUserRules(dir);
    found = [phraseDetector(`rules:${dir}`, pack.phrase), codeMatchDetector(`rules:${dir}:code`, pack.code)];
    userPacks.set(dir, found);
  }
  return found;
}

const userLists = new WeakMap<IndicatorList, Detector>();

/** A user's indicator list as a detector, compiled once per list. */
function userIndicators(list: IndicatorList): Detector {
  let found = userLists.get(list);
  if (!found) {
    found = indicatorDetector(`indicators:${list.name}`, list.indicators);
    userLists.set(list, found);
  }
  return found;
}

function ruleIndex(detectors: readonly Detector[]): Map<string, Rule> {
  const index = new Map<string, Rule>();
  for (const d of detectors) for (const r of d.rules) index.set(r.id, r);
  return index;
}

async function runDetector(d: Detector, ctx: FileContext, run: ScanRun): Promise<Hit[]> {
  if (performance.now() > run.deadline) {
    const path = ctx.file.path;
    run.skipped.set(path, (run.skipped.get(path) ?? new Set()).add(d.name));
    return [];
  }
  const outer = enter(PROSE_DETECTORS.has(d) ? 'prose' : 'code');
  const started = unitTimingOn() ? performance.now() : 0;
  try {
    return await d.detect(ctx);
  } catch (error) {
    run.notes.push(`detector ${d.name} failed on ${ctx.file.path}: ${errorMessage(error)}`);
    return [];
  } finally {
    leave(outer);
    if (started) chargeUnit(`detector ${d.name}`, performance.now() - started, ctx.text.length);
  }
}

/** Runs the detectors that apply to a virtual file made of a snippet, mapped back to the snippet's line. */
async function scanSnippet(
  ctx: FileContext,
  snippet: {
    code: string;
    language: string;
    line: number;
    framing: Framing;
    what: string;
    /** Path the detectors see (a manifest block is read as the manifest it is); default the file's own. */
    path?: string;
    /** Maps a line of `code` to the line of the snippet it came from (a manifest re-encoded as JSON). */
    lineOf?: (line: number) => number;
    /** Rules whose hits are not reported for this snippet. */
    skip?: ReadonlySet<string>;
    /** Framing weights instead of each rule's own, for snippets whose risk framing does not lower. */
    framingFactor?: Readonly<Record<Framing, number>>;
    /** The least factor framing may apply (a block a topic heading alone frames in the agent's instructions). */
    framingFloor?: number;
    /** A command a sentence tells the agent to run, in a document SKILL.md names: run wherever it is written. */
    ordered?: boolean;
  },
  detectors: readonly Detector[],
  run: ScanRun,
  out: Located[],
): Promise<void> {
  const virtual: SkillFile = {
    ...ctx.file,
    path: snippet.path ?? ctx.file.path,
    kind: 'script',
    language: snippet.language,
    text: snippet.code,
  };
  const lineOf = snippet.lineOf ?? ((line: number) => line);
  const snippetCtx: FileContext = {
    ...ctx,
    file: virtual,
    text: snippet.code,
    // A block framed as an order in the agent's instructions (SKILL.md, a guide it follows) is run; so is one
    // there that only a topic heading frames as a quote.
    reachable:
      (ctx.reachable && snippet.framing === 'instruction') ||
      snippet.framingFloor !== undefined ||
      snippet.ordered === true,
  };
  for (const d of detectors) {
    if (!d.appliesTo(virtual)) continue;
    for (const hit of await runDetector(d, snippetCtx, run)) {
      if (snippet.skip?.has(hit.rule)) continue;
      // How much the block's framing in the prose around it says about whether the agent will run it.
      const factor = Math.max(
        (snippet.framingFactor ?? run.rules.get(hit.rule)?.framing)?.[snippet.framing] ?? 1,
        snippet.framingFloor ?? 0,
      );
      let framed = factor < 1 ? `; in ${snippet.what} framed as ${snippet.framing}` : '';
      if (snippet.ordered) framed += `; ${ORDER_TO_AGENT}`;
      out.push({
        file: ctx.file.path,
        hit: {
          ...hit,
          line: lineOf(hit.line) + snippet.line - 1,
          endLine: lineOf(hit.endLine) + snippet.line - 1,
          confidence: hit.confidence * factor,
          rationale: `${hit.rationale}${framed}`,
        },
      });
    }
  }
}

/**
 * Runs code detectors over the fenced code blocks of a markdown file (the manifest detector over blocks that
 * are a package.json or pyproject.toml) and over inline code spans that are a
 * command line (`bash -i >& /dev/tcp/… 0>&1` in a sentence is as much an instruction as the same line in a
 * ```bash block), mapped back to the file's lines and scaled by their framing.
 */
async function scanCodeBlocks(
  ctx: FileContext,
  detectors: readonly Detector[],
  run: ScanRun,
  out: Located[],
): Promise<void> {
  const doc = parseMarkdown(ctx.text);
  const folder = ctx.file.path.includes('/') ? ctx.file.path.replace(/[^/]*$/, '') : '';
  const agentRead = agentReadDocs(ctx.skill).has(ctx.file.path);
  for (const block of doc.codeBlocks) {
    const floored = agentRead && quotedByTopicHeading(block.framing, block.byHeading, block.section);
    if (EMBEDDED_LANGUAGES.has(block.lang)) {
      const snippet = {
        ...block,
        language: block.lang,
        what: 'a fenced block',
        ...(floored ? { framingFloor: AUTHOR_DISCOUNT_FLOOR } : {}),
      };
      await scanSnippet(ctx, snippet, detectors, run, out);
    }
    // Unlabelled blocks are read by the phrase rules as text already, with the stance of the prose around them.
    const commands = block.lang === '' || SHELL_LABELS.has(block.lang) ? null : commandLinesOf(block.code);
    if (commands) {
      const snippet = {
        ...block,
        code: commands,
        language: 'bash',
        what: `command lines of a block labelled ${block.rawLang}`,
        ...(floored ? { framingFloor: AUTHOR_DISCOUNT_FLOOR } : {}),
      };
      await scanSnippet(ctx, snippet, detectors, run, out);
    }
    if (EMBEDDED_LANGUAGES.has(block.lang)) continue;
    // A block that is a package.json or pyproject.toml is read by the manifest detector as that file.
    const manifest = blockManifest(block);
    if (!manifest) continue;
    const snippet = {
      code: manifest.text,
      language: manifest.name === 'package.json' ? 'json' : 'toml',
      line: block.line,
      framing: block.framing,
      what: `a fenced ${manifest.name}`,
      path: `${folder}${manifest.name}`,
      lineOf: manifest.lineOf,
      skip: BLOCK_MANIFEST_SKIPPED,
      framingFactor: BLOCK_MANIFEST_FRAMING,
      ...(floored ? { framingFloor: AUTHOR_DISCOUNT_FLOOR } : {}),
    };
    await scanSnippet(ctx, snippet, detectors, run, out);
  }
  const starts = lineStarts(ctx.text);
  // The agent reads what SKILL.md names when it follows the pointer: a command one of its sentences orders is run.
  const named = agentRead || namedDocs(ctx.skill).has(ctx.file.path);
  for (const cmd of inlineShellCommands(doc, ctx.text)) {
    const line = lineAt(starts, cmd.start);
    const snippet = {
      code: cmd.text,
      language: cmd.language,
      line,
      framing: cmd.framing,
      what: 'inline code',
      ...(agentRead && cmd.topicFramed ? { framingFloor: AUTHOR_DISCOUNT_FLOOR } : {}),
      ...(cmd.ordered && named ? { ordered: true } : {}),
    };
    await scanSnippet(ctx, snippet, detectors, run, out);
  }
}

/** Decoded text shorter than this is a command or a name, which the hidden-text rules read already. */
const MIN_DECODED_DOCUMENT = 80;

/**
 * Hits in `text` read as a markdown document the agent follows, in place of ctx's file: by every detector that
 * reads a markdown document whatever its name, and in its code blocks. Each hit is placed at `at` (the lines of
 * the text that produced it) with `where` added to its reasons. The skill's frontmatter stays the real file's.
 */
async function scanAsDocument(
  ctx: FileContext,
  text: string,
  at: { line: number; endLine: number; where: string },
  detectors: readonly Detector[],
  run: ScanRun,
  out: Located[],
): Promise<void> {
  const file: SkillFile = { ...ctx.file, text, truncated: false };
  const anyName: SkillFile = { ...file, path: 'decoded.md' };
  const inner: FileContext = { ...ctx, file, text };
  const hits: Located[] = [];
  for (const d of detectors) {
    if (!d.appliesTo(anyName)) continue;
    for (const hit of await runDetector(d, inner, run)) hits.push({ hit, file: ctx.file.path });
  }
  await scanCodeBlocks(inner, detectors, run, hits);
  for (const { hit } of hits) {
    if (hit.rule === HIDDEN_RULES.encoded.id) continue;
    const rationale = `${hit.rationale}; ${at.where}`;
    out.push({ file: ctx.file.path, hit: { ...hit, line: at.line, endLine: at.endLine, rationale } });
  }
}

/**
 * Instructions hidden in an encoding in a document the agent follows (a `python3 -c` that decodes a constant
 * and prints the "installation steps" the agent is told to follow) are read as the document they decode to,
 * each hit at the line of the encoded text.
 */
async function scanDecodedDocuments(
  ctx: FileContext,
  detectors: readonly Detector[],
  run: ScanRun,
  out: Located[],
): Promise<void> {
  const starts = lineStarts(ctx.text);
  for (const found of decodedTexts(parseMarkdown(ctx.text), ctx.text, starts, true)) {
    if (found.decoded.length < MIN_DECODED_DOCUMENT) continue;
    const line = lineAt(starts, found.start);
    const where = `in text decoded from ${found.encoding}`;
    await scanAsDocument(ctx, found.decoded, { line, endLine: line, where }, detectors, run, out);
  }
}

function toFinding(located: Located, rules: ReadonlyMap<string, Rule>): Finding | null {
  const { hit, file } = located;
  const rule = rules.get(hit.rule);
  if (!rule) return null;
  const pattern = patternById(rule.pattern);
  const confidence = Math.round(Math.min(1, Math.max(0, hit.confidence)) * 100) / 100;
  const id = createHash('sha256')
    .update(`${hit.rule}\0${file}\0${hit.line}\0${hit.evidence}`)
    .digest('hex')
    .slice(0, 16);
  return {
    id,
    pattern: pattern.id,
    family: pattern.family,
    severity: rule.severity && confidence >= RULE_SEVERITY_FROM ? rule.severity : pattern.severity,
    confidence,
    file,
    line: hit.line,
    endLine: Math.max(hit.line, hit.endLine),
    evidence: hit.evidence,
    rule: hit.rule,
    message: hit.message ?? rule.message,
    rationale: hit.rationale,
  };
}

/**
 * Index of the first of `kept` that ends at or after `line`. `kept` holds line ranges that never overlap each
 * other, sorted by line (so their ends are sorted too): only that one can overlap a range starting at `line`.
 */
function firstEndingFrom(kept: readonly Finding[], line: number): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (kept[mid]!.endLine < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One finding per pattern and place: overlapping hits of the same pattern in a file keep the most confident. */
function dedupe(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => b.confidence - a.confidence || a.line - b.line);
  const kept: Finding[] = [];
  // Kept ranges per pattern and file, in line order: a hostile file with thousands of hits stays fast.
  const places = new Map<string, Finding[]>();
  for (const f of sorted) {
    if (f.confidence < REPORT_FLOOR) continue;
    const key = `${f.pattern}\0${f.file}`;
    const place = places.get(key) ?? [];
    const at = firstEndingFrom(place, f.line);
    if (at < place.length && place[at]!.line <= f.endLine) continue;
    place.splice(at, 0, f);
    places.set(key, place);
    kept.push(f);
  }
  return kept.sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.pattern.localeCompare(b.pattern),
  );
}

/** The built-in detectors with the user's rule packs and indicator lists, and the run they share. */
function startRun(options: ScanOptions): { detectors: Detector[]; run: ScanRun } {
  const detectors = [
    ...(options.detectors ?? ALL_DETECTORS),
    ...(options.ruleDirs ?? []).flatMap(userDetectors),
    ...(options.indicatorLists ?? []).map(userIndicators),
  ];
  const budgetMs = options.budgetMs ?? SKILL_BUDGET_MS;
  const run: ScanRun = {
    notes: [],
    rules: ruleIndex(detectors),
    budgetMs,
    deadline: performance.now() + budgetMs,
    skipped: new Map(),
  };
  return { detectors, run };
}

/** The static scan of one skill: every detector over every text file, findings, suppressions, eq. 8 score. */
export async function scanSkill(skill: Skill, options: ScanOptions = {}): Promise<SkillScan> {
  const { detectors, run } = startRun(options);
  const { rules, notes, budgetMs } = run;
  const only = options.onlyRules ? new Set(options.onlyRules) : null;
  const hosts = declaredHosts(skill);
  const reachable = reachableScripts(skill);
  const located: Located[] = [];
  const instructions = agentReadDocs(skill);

  for (const read of skill.files) {
    if (read.text === null) continue;
    if (read.truncated)
      notes.push(`${read.path}: only the first ${read.text.length} characters were analysed`);
    const file = asRecipeShell(read);
    const ctx: FileContext = {
      skill,
      file,
      text: file.text!,
      reachable: reachable.has(file.path) || instructions.has(file.path),
      declaredHosts: hosts,
    };
    for (const d of detectors) {
      if (!d.appliesTo(file)) continue;
      for (const hit of await runDetector(d, ctx, run)) located.push({ hit, file: file.path });
    }
    if (file.language === 'markdown') {
      try {
        // Detectors that apply to a block's language (the code detectors) also read fenced blocks.
        await scanCodeBlocks(ctx, detectors, run, located);
        if (instructions.has(file.path)) await scanDecodedDocuments(ctx, detectors, run, located);
      } catch (error) {
        notes.push(`code blocks of ${file.path} not analysed: ${errorMessage(error)}`);
      }
    }
  }
  for (const [path, names] of run.skipped) {
    notes.push(
      `incomplete analysis: ${BUDGET_SPENT} (${budgetMs / 1000} s) was spent; ${path} was not read by ${[...names].join(', ')}`,
    );
  }
  for (const path of nestedSkillFiles(skill))
    notes.push(
      `nested skill: ${path} is a skill of its own inside this one; its text was scanned as instructions to the agent`,
    );
  for (const d of skill.diagnostics) {
    if (d.code.startsWith('limit-')) notes.push(`incomplete analysis: ${d.message}`);
  }
  notes.push(...unreadFrontmatter(skill));

  return timed('scoring', () => {
    const raw = located
      .filter((l) => !only || only.has(l.hit.rule))
      .map((l) => toFinding(l, rules))
      .filter((f): f is Finding => f !== null);
    discountOwnVendor(skill, raw);
    for (const f of raw) if (f.file !== 'SKILL.md' && instructions.has(f.file)) f.inInstructions = true;
    const findings = dedupe(raw);
    applySuppressions(skill, findings, {
      ...(options.baseline ? { baseline: options.baseline } : {}),
      honourInline: options.honourInline ?? false,
    });
    const { score, status, decision } = assessSafety(findings.filter((f) => !f.suppressed));
    return { findings, safetyScore: score, status, decision, notes };
  });
}

/** Text a command of the skill printed when it ran, and where in the skill that command is written. */
export interface PrintedText {
  text: string;
  file: string;
  line: number;
  endLine: number;
  /** How the reasons name the command: its run's id (`SKILL.md:12`, `scripts/setup.py`). */
  command: string;
}

/**
 * Findings in what a command SKILL.md tells the agent to run printed (detonation runs it): the agent reads that
 * output and follows it, so it is read as a document of its instructions, each hit at the command's lines. A
 * command that decodes its steps at run time (a shifted char-code list, a XOR, a chain no static decoder knows)
 * hides them from every text scan but this one.
 */
export async function scanPrintedText(
  skill: Skill,
  printed: PrintedText,
  options: ScanOptions = {},
): Promise<Finding[]> {
  const file = skill.files.find((f) => f.path === printed.file);
  if (!file || !printed.text.trim()) return [];
  const { detectors, run } = startRun(options);
  const ctx: FileContext = {
    skill,
    // Output is read as prose (markdown) whatever wrote it: a script's output is no Python.
    file: { ...file, kind: 'doc', language: 'markdown' },
    text: printed.text,
    reachable: true,
    declaredHosts: declaredHosts(skill),
  };
  const located: Located[] = [];
  const where = `in what ${printed.command} printed when it ran in the sandbox`;
  await scanAsDocument(ctx, printed.text, { ...printed, where }, detectors, run, located);
  return dedupe(located.map((l) => toFinding(l, run.rules)).filter((f): f is Finding => f !== null));
}
