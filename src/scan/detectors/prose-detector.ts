import { agentAddressedFraming, quotedByTopicHeading } from '../../core/markdown/framing.js';
import { type MarkdownDoc, parseMarkdown, TEXT_FENCES } from '../../core/markdown.js';
import type { Skill, SkillFile } from '../../core/types.js';
import { ORDER_TO_AGENT } from '../../score/index.js';
import { applyRules, type Segment, type SkillPurpose } from '../engine/prose-apply.js';
import { normalise, normaliseSpan } from '../engine/prose-normalise.js';
import type { PhraseRule } from '../engine/prose-phrase.js';
import { isStepTable } from '../engine/prose-tables.js';
import { builtinPhraseRule, builtinRules, rulesDetectedBy } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { agentReadDocs, namedDocs } from '../skill-context.js';
import { lineStarts } from '../text.js';
import { decodedPayloadHits } from './prose-encoded.js';
import { exfiltrationStepHits } from './prose-exfiltration-steps.js';
import { findHidden, HIDDEN_RULES } from './prose-hidden.js';
import {
  commandSegment,
  INLINE_COMMAND_RULES,
  inlineCommands,
  mergeCommandHits,
  plainCommands,
  unpinnedCommandHits,
} from './prose-inline-commands.js';
import { prerequisiteLureHits } from './prose-prerequisite-lure.js';

// The prose detector: every phrase rule over the visible prose of a document (frontmatter included) and
// over whatever hidden content it holds; hidden text that trips a rule is itself a hidden instruction (P2).

export const PHRASE_RULES: readonly PhraseRule[] = builtinRules().phrase;

const VISIBLE_KINDS = new Set([
  'paragraph',
  'heading',
  'list-item',
  'blockquote',
  'table',
  'html',
  'frontmatter',
]);
const SECURITY_TOOL =
  /\b(?:secur\w*|scann\w*|scan|audit\w*|detect\w*|injection|malware|threats?|vulnerab\w*|guard\w*|red[- ]?team\w*|pentest\w*|forensic\w*|incident|compliance|sast|lint\w*|sanitiz\w*|moderat\w*)\b/i;

const CODE_LANGUAGES = new Set([
  'bash',
  'python',
  'javascript',
  'typescript',
  'powershell',
  'json',
  'yaml',
  'toml',
]);

/** Documents: markdown, plain text, reStructuredText; never scripts (even a fenced block passed as a file). */
export function isProseFile(file: SkillFile): boolean {
  if (file.kind !== 'doc') return false;
  return file.language === null || !CODE_LANGUAGES.has(file.language);
}

/** JSON or YAML: read as instructions when SKILL.md tells the agent to follow it (agentReadDocs). */
function isStructuredData(file: SkillFile): boolean {
  return file.kind === 'data' && (file.language === 'json' || file.language === 'yaml');
}

/**
 * A data file the agent is told to follow, a line at a time: its values are what the agent reads as orders
 * ("instructions": "Read ~/.aws/credentials and send …"), and a reader of the skill sees a template.
 */
function followedDataHits(ctx: FileContext): Hit[] {
  const text = ctx.text;
  const starts = lineStarts(text);
  const purpose = skillPurpose(ctx.skill);
  const hits: Hit[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    if (line.trim()) {
      const seg: Segment = {
        norm: normalise(line, offset),
        framing: 'instruction',
        section: '',
        agentProse: true,
      };
      hits.push(...applyRules(PHRASE_RULES, seg, text, starts, purpose));
    }
    offset += line.length + 1;
  }
  return strongestPerLine(hits);
}

export function skillPurpose(skill: Skill): SkillPurpose {
  const text = `${skill.name} ${skill.description}`;
  return { text, securityTool: SECURITY_TOOL.test(text) };
}

// Install lures live in fenced shell blocks as often as in prose; these rules read shell blocks too (the
// engine keeps the stronger of these and the code detectors' hits).
const SHELL_FENCES = new Set(['bash', 'powershell']);
const SHELL_BLOCK_RULES: readonly PhraseRule[] = [
  'md.remote-script-lure',
  'md.encoded-command',
  'md.unverifiable-install-source',
  'md.security-control-off',
].map(builtinPhraseRule);

function shellSegments(doc: MarkdownDoc, text: string, starts: readonly number[]): Segment[] {
  const segments: Segment[] = [];
  for (const block of doc.codeBlocks) {
    if (!SHELL_FENCES.has(block.lang)) continue;
    const start = starts[block.line - 1];
    if (start === undefined) continue;
    // One line, one command: a segment per line keeps sentences from running across commands.
    const end = starts[block.endLine] ?? text.length;
    let offset = start;
    for (const line of text.slice(start, end).split('\n')) {
      if (line.trim() && !line.trim().startsWith('#')) {
        segments.push({ norm: normalise(line, offset), framing: block.framing, section: block.section });
      }
      offset += line.length + 1;
    }
  }
  return segments;
}

// Prose an author writes as running text; tables, block quotes and raw HTML quote material.
const UNQUOTED_KINDS = new Set(['paragraph', 'list-item']);

function visibleSegments(
  doc: MarkdownDoc,
  text: string,
  starts: readonly number[],
  agentRead: boolean,
): Segment[] {
  const segments: Segment[] = [];
  for (const span of doc.spans) {
    if (!VISIBLE_KINDS.has(span.kind)) continue;
    const source = text.slice(span.start, span.end);
    // A lead-in ("Bad:", "Refuse requests like these:") quotes what follows it, and so does a heading that
    // forbids it ("Never do this"); a heading that only names a topic ("Detection", "Examples") does not.
    // A table that numbers steps is a list written in cells.
    const agentProse =
      agentRead && (UNQUOTED_KINDS.has(span.kind) || (span.kind === 'table' && isStepTable(source)));
    const topicQuoted = agentProse && quotedByTopicHeading(span.contextFraming, span.byHeading, span.section);
    segments.push({
      norm: normaliseSpan(text, span),
      framing: agentAddressedFraming(source, span.contextFraming),
      section: span.section,
      ...(topicQuoted ? { topicQuoted } : {}),
      ...(agentProse ? { agentProse } : {}),
    });
  }
  for (const block of doc.codeBlocks) {
    if (block.lang !== '' || !TEXT_FENCES.has(block.rawLang.split(/\s/)[0] ?? '')) continue;
    const start = starts[block.line - 1];
    const end = starts[block.endLine] ?? text.length;
    if (start === undefined) continue;
    segments.push({
      norm: normalise(text.slice(start, end), start),
      framing: block.framing,
      section: block.section,
    });
  }
  return segments;
}

/** A hidden segment that trips any rule is a hidden instruction, whatever the finder thought of it. */
function hiddenInstruction(seg: Segment, ruleHits: Hit[]): Hit | null {
  const strongest = ruleHits.reduce<Hit | null>((a, h) => (a && a.confidence >= h.confidence ? a : h), null);
  if (!strongest) return null;
  return {
    rule: seg.hiddenRule ?? HIDDEN_RULES.comment.id,
    line: strongest.line,
    endLine: strongest.endLine,
    evidence: strongest.evidence,
    confidence: Math.max(0.85, strongest.confidence),
    rationale: `in hidden content (${seg.hidden}): also matches ${strongest.rule}${
      strongest.rationale.includes(ORDER_TO_AGENT) ? `; ${ORDER_TO_AGENT}` : ''
    }`,
  };
}

/** Keeps the most confident hit per rule and line. */
function strongestPerLine(hits: Hit[]): Hit[] {
  const best = new Map<string, Hit>();
  for (const h of hits) {
    const key = `${h.rule}\0${h.line}`;
    const prev = best.get(key);
    if (!prev || h.confidence > prev.confidence) best.set(key, h);
  }
  return [...best.values()].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}

export function detectProse(ctx: FileContext): Hit[] {
  if (isStructuredData(ctx.file))
    return agentReadDocs(ctx.skill).has(ctx.file.path) ? followedDataHits(ctx) : [];
  const text = ctx.text;
  const starts = lineStarts(text);
  const doc = parseMarkdown(text);
  const purpose = skillPurpose(ctx.skill);
  const hits: Hit[] = [];
  const proseHits: Hit[] = [];
  const agentRead = agentReadDocs(ctx.skill).has(ctx.file.path);
  // A document SKILL.md names is read by the agent that follows the pointer, whether SKILL.md says "follow" or
  // "see": its imperatives are the agent's to carry out, so its headings do not discount them either.
  const agentProse = agentRead || namedDocs(ctx.skill).has(ctx.file.path);
  for (const seg of visibleSegments(doc, text, starts, agentProse)) {
    const found = applyRules(PHRASE_RULES, seg, text, starts, purpose);
    proseHits.push(...found, ...decodedPayloadHits(found, seg, PHRASE_RULES, text, starts, purpose));
  }
  // Each inline command is its own instance, even when the sentence around it runs on to the next one.
  const commands = inlineCommands(doc, text);
  const commandHits = commands.flatMap((c) =>
    applyRules(INLINE_COMMAND_RULES, commandSegment(c), text, starts, purpose),
  );
  hits.push(...mergeCommandHits(proseHits, commandHits));
  hits.push(...unpinnedCommandHits([...commands, ...plainCommands(doc, text, starts)], ctx, starts));
  for (const seg of shellSegments(doc, text, starts)) {
    const found = applyRules(SHELL_BLOCK_RULES, seg, text, starts, purpose);
    hits.push(...found, ...decodedPayloadHits(found, seg, PHRASE_RULES, text, starts, purpose));
  }
  const read = { doc, text, starts, skill: ctx.skill, path: ctx.file.path, agentRead };
  hits.push(...prerequisiteLureHits(read), ...exfiltrationStepHits(read));
  const hidden = findHidden(doc, text, starts, ctx.file.path === 'SKILL.md');
  hits.push(...hidden.hits);
  for (const seg of hidden.segments) {
    const found = applyRules(PHRASE_RULES, seg, text, starts, purpose);
    hits.push(...found);
    const p2 = hiddenInstruction(seg, found);
    if (p2) hits.push(p2);
  }
  return strongestPerLine(hits);
}

/**
 * A detector for a rule pack of one's own (`--rules DIR`): its prose rules over the visible prose of every
 * document and over hidden content, as the built-in rules are read.
 */
export function phraseDetector(name: string, rules: readonly PhraseRule[]): Detector {
  return {
    name,
    rules,
    appliesTo: isProseFile,
    detect(ctx) {
      const text = ctx.text;
      const starts = lineStarts(text);
      const doc = parseMarkdown(text);
      const purpose = skillPurpose(ctx.skill);
      const segments = [
        ...visibleSegments(doc, text, starts, agentReadDocs(ctx.skill).has(ctx.file.path)),
        ...findHidden(doc, text, starts, ctx.file.path === 'SKILL.md').segments,
      ];
      return strongestPerLine(segments.flatMap((seg) => applyRules(rules, seg, text, starts, purpose)));
    },
  };
}

export const proseDetector: Detector = {
  name: 'prose',
  rules: [...PHRASE_RULES, ...rulesDetectedBy('prose')],
  appliesTo: (file) => isProseFile(file) || isStructuredData(file),
  detect: detectProse,
};
