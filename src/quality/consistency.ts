import type { Skill } from '../core/types.js';
import { scoredDimension } from './dimensions.js';
import type { Outline } from './outline.js';
import { frontmatterString } from './skill-text.js';
import { TermIndex, topTerms } from './term-index.js';
import { contentTerms, surfaceWords } from './terms.js';
import type { DimensionResult } from './types.js';

// Description-content consistency, lexical: does the description promise what the body does, and does it name
// what the body is mostly about? A model-based judgement refines this when a model is configured; without one
// this is the score, and the evidence says it is lexical.
export const CONSISTENCY = {
  weights: { coverage: 0.6, focus: 0.4 },
  /** Credit for a description term found in the body's action surface, or only elsewhere in the body. */
  credit: { actionSurface: 1, bodyOnly: 0.5 },
  /** How many of the body's most frequent action terms the description should name. */
  focusTerms: 10,
} as const;

/** Fenced blocks in these languages are commands the agent runs: each line is a step it takes. */
const SHELL_LANGS = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'console',
  'shell-session',
  'powershell',
  'ps1',
  'pwsh',
  'cmd',
  'bat',
]);

/**
 * The body's action surface: headings, list items (steps), table rows and the names of bundled scripts, where a
 * skill says what it does. Prose and code only show that a term is mentioned.
 */
export function actionSurfaceText(skill: Skill, outline: Outline): string {
  const scriptNames = skill.files
    .filter((f) => f.kind === 'script')
    .map((f) => splitIdentifier(f.path.split('/').pop() ?? ''));
  return [
    ...outline.headings.map((h) => h.text),
    ...outline.listItems.map((i) => i.text),
    ...outline.tableRows.map((r) => r.text),
    ...scriptNames,
  ].join('\n');
}

/**
 * Shell command blocks: what the agent runs is what the skill does, so a description term found there counts
 * as fully covered. Their arguments are placeholders (`report.pdf`), so they do not feed the salient terms.
 */
export function commandText(outline: Outline): string {
  return outline.codeBlocks
    .filter((b) => SHELL_LANGS.has(b.lang.toLowerCase()))
    .map((b) => b.text)
    .join('\n');
}

/** `fill_pdf-form.py` and `fillPdfForm.ts` both read as "fill pdf form". */
function splitIdentifier(name: string): string {
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ');
}

export function descriptionContentConsistency(skill: Skill, outline: Outline): DimensionResult {
  const description = frontmatterString(skill, 'description') ?? '';
  const descriptionTerms = [...new Set(contentTerms(description))];
  const actionText = actionSurfaceText(skill, outline);
  const actionTerms = contentTerms(actionText);
  const proseTerms = contentTerms(outline.text);
  const actionIndex = new TermIndex([...actionTerms, ...contentTerms(commandText(outline))]);
  const bodyIndex = new TermIndex([...proseTerms, ...actionTerms]);

  if (descriptionTerms.length === 0 || (actionTerms.length === 0 && proseTerms.length === 0)) {
    return scoredDimension('description-content-consistency', 0, {
      method: 'lexical',
      reason:
        descriptionTerms.length === 0
          ? 'the description has no content words'
          : 'the body has no content words',
      descriptionTerms: [...surfaceWords(description).values()],
    });
  }

  const { credit, weights, focusTerms } = CONSISTENCY;
  const matched = descriptionTerms.filter((t) => actionIndex.has(t));
  const mentionedOnly = descriptionTerms.filter((t) => !actionIndex.has(t) && bodyIndex.has(t));
  const unmatched = descriptionTerms.filter((t) => !bodyIndex.has(t));
  const coverage =
    (matched.length * credit.actionSurface + mentionedOnly.length * credit.bodyOnly) /
    descriptionTerms.length;

  // A body without headings, steps, tables or scripts: its salient terms come from its prose.
  const salientFrom = actionTerms.length > 0 ? actionText : outline.text;
  const salient = topTerms(actionTerms.length > 0 ? actionTerms : proseTerms, focusTerms);
  const descriptionIndex = new TermIndex(descriptionTerms);
  const named = salient.filter((t) => descriptionIndex.has(t));
  const focus = named.length / salient.length;

  // Evidence shows words as written (lowercased), not stems.
  const inDescription = surfaceWords(description);
  const inBody = surfaceWords(salientFrom);
  const asWritten = (terms: string[], surface: Map<string, string>) => terms.map((t) => surface.get(t) ?? t);

  return scoredDimension(
    'description-content-consistency',
    weights.coverage * coverage + weights.focus * focus,
    {
      method: 'lexical',
      formula: '0.6·coverage + 0.4·focus',
      coverage,
      focus,
      descriptionTerms: asWritten(descriptionTerms, inDescription),
      inActionSurface: asWritten(matched, inDescription),
      inBodyOnly: asWritten(mentionedOnly, inDescription),
      notInBody: asWritten(unmatched, inDescription),
      salientBodyTerms: asWritten(salient, inBody),
      salientNamedInDescription: asWritten(named, inBody),
    },
  );
}
