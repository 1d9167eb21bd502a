import type { Skill } from '../core/types.js';
import { conciseness } from './conciseness.js';
import { descriptionContentConsistency } from './consistency.js';
import { DIMENSIONS, notRunDimension, roundScore } from './dimensions.js';
import { outlineMarkdown } from './outline.js';
import { ANALYSIS_CHAR_LIMIT, analysedBody } from './skill-text.js';
import { structuralCompleteness } from './structural.js';
import type { DimensionGroup, DimensionResult, GroupScores, QualityProfile } from './types.js';

const GROUPS: readonly DimensionGroup[] = ['static', 'dynamic', 'rubric'];

function mean(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : roundScore(xs.reduce((sum, x) => sum + x, 0) / xs.length);
}

/**
 * Group score = mean of the group's scored dimensions; overall = mean of all scored dimensions. Seed 001's
 * overall is the equal-weight mean of the nine dimensions (Table 3: the nine Original scores average 0.806,
 * the reported overall). A dimension that was not run is left out and named in the notes, never filled in.
 */
export function aggregateProfile(dimensions: readonly DimensionResult[]): QualityProfile {
  const scored = (d: DimensionResult): d is DimensionResult & { score: number } =>
    d.status === 'scored' && d.score !== null;
  const groupScore = (g: DimensionGroup) =>
    mean(dimensions.filter((d) => d.group === g && scored(d)).map((d) => d.score as number));
  const groups: GroupScores = {
    static: groupScore('static'),
    dynamic: groupScore('dynamic'),
    rubric: groupScore('rubric'),
  };
  const scoredDims = dimensions.filter(scored);
  const overall = mean(scoredDims.map((d) => d.score));

  const notes: string[] = [];
  const notRun = dimensions.filter((d) => !scored(d));
  if (scoredDims.length === 0) notes.push('No dimension was scored; there is no overall score.');
  else if (notRun.length > 0) {
    notes.push(
      `Overall is the mean of ${scoredDims.length} of ${dimensions.length} dimensions; not run: ${notRun.map((d) => d.name).join(', ')}.`,
    );
  }
  const missingGroups = GROUPS.filter((g) => groups[g] === null);
  if (missingGroups.length > 0 && scoredDims.length > 0) {
    notes.push(
      `Groups without a score: ${missingGroups.join(', ')} (they need agent runs or a judge, hence a model).`,
    );
  }
  return { dimensions: [...dimensions], groups, overall, notes };
}

/** The three static dimensions scored from the skill's files; the six that need a model reported as not run. */
export function staticQualityProfile(skill: Skill): QualityProfile {
  return qualityProfile(skill, []);
}

/**
 * The static dimensions plus the dynamic and rubric dimensions measured by a model-backed audit
 * (src/pipeline/quality-stage.ts). A dimension not in `measured` is not run, with `missingReason` or its
 * `needs` line.
 */
export function qualityProfile(
  skill: Skill,
  measured: readonly DimensionResult[],
  missingReason?: string,
): QualityProfile {
  const body = analysedBody(skill);
  const outline = outlineMarkdown(body.text);
  const dimensions = DIMENSIONS.map((spec): DimensionResult => {
    switch (spec.id) {
      case 'structural-completeness':
        return structuralCompleteness(skill, outline);
      case 'conciseness':
        return conciseness(skill, outline);
      case 'description-content-consistency':
        return descriptionContentConsistency(skill, outline);
      default:
        return measured.find((d) => d.id === spec.id) ?? notRunDimension(spec.id, missingReason);
    }
  });
  const profile = aggregateProfile(dimensions);
  if (body.truncated) {
    profile.notes.push(
      `The body is longer than ${ANALYSIS_CHAR_LIMIT.toLocaleString('en-US')} characters; only its start was analysed (token counts cover all of it).`,
    );
  }
  profile.notes.push(
    'Description-content consistency is lexical; a model refines it when one is configured.',
  );
  return profile;
}
