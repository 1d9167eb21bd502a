import type { Skill } from '../types.js';
import { scoredDimension } from './dimensions.js';
import type { Outline } from './outline.js';
import { frontmatterString } from './skill-text.js';
import { contentTerms } from './terms.js';
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

/**
 * The body's action surface: headings, list items (steps), table rows, and the names of bundled scripts,
 * where a skill says what it does. Prose and code around them only show that a term is mentioned.
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

/** `fill_pdf-form.py` and `fillPdfForm.ts` both read as "fill pdf form". */
function splitIdentifier(name: string): string {
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ');
}

/** Terms by descending frequency, ties kept in order of first appearance. */
function topTerms(terms: readonly string[], k: number): string[] {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([t]) => t);
}

export function descriptionContentConsistency(skill: Skill, outline: Outline): DimensionResult {
  const description = frontmatterString(skill, 'description') ?? '';
  const descriptionTerms = [...new Set(contentTerms(description))];
  const actionTerms = contentTerms(actionSurfaceText(skill, outline));
  const bodyTerms = new Set([...contentTerms(skill.body), ...actionTerms]);
  const actionSet = new Set(actionTerms);

  if (descriptionTerms.length === 0 || bodyTerms.size === 0) {
    return scoredDimension('description-content-consistency', 0, {
      method: 'lexical',
      reason:
        descriptionTerms.length === 0
          ? 'the description has no content words'
          : 'the body has no content words',
      descriptionTerms,
    });
  }

  const { credit, weights, focusTerms } = CONSISTENCY;
  const matched = descriptionTerms.filter((t) => actionSet.has(t));
  const mentionedOnly = descriptionTerms.filter((t) => !actionSet.has(t) && bodyTerms.has(t));
  const unmatched = descriptionTerms.filter((t) => !bodyTerms.has(t));
  const coverage =
    (matched.length * credit.actionSurface + mentionedOnly.length * credit.bodyOnly) /
    descriptionTerms.length;

  // A body without headings, steps, tables or scripts: its salient terms come from its prose.
  const salient = topTerms(actionTerms.length > 0 ? actionTerms : contentTerms(skill.body), focusTerms);
  const descriptionSet = new Set(descriptionTerms);
  const named = salient.filter((t) => descriptionSet.has(t));
  const focus = named.length / salient.length;

  return scoredDimension(
    'description-content-consistency',
    weights.coverage * coverage + weights.focus * focus,
    {
      method: 'lexical',
      formula: '0.6·coverage + 0.4·focus',
      coverage,
      focus,
      descriptionTerms: descriptionTerms.length,
      inActionSurface: matched,
      inBodyOnly: mentionedOnly,
      notInBody: unmatched,
      salientBodyTerms: salient,
      salientNamedInDescription: named,
    },
  );
}
