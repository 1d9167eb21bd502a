import type { Skill } from '../core/types.js';
import { scoredDimension } from './dimensions.js';
import type { Outline } from './outline.js';
import { charLength, frontmatterString } from './skill-text.js';
import type { DimensionResult } from './types.js';

// Structural completeness, seed 001 Table 10: criteria and weights exactly as published; the score is the
// achieved weight over the total 10.5.

export interface StructuralFacts {
  frontmatterKeys: number;
  name: string | null;
  /** Description length in characters (code points), 0 when absent. */
  descriptionLength: number;
  /** Body length in characters after trimming. */
  bodyLength: number;
  /** Second-level (`##` or setext `---`) headings outside code. */
  level2Sections: number;
}

export interface StructuralCriterion {
  id: string;
  criterion: string;
  condition: string;
  weight: number;
  met(facts: StructuralFacts): boolean;
}

export const STRUCTURAL_CRITERIA: readonly StructuralCriterion[] = [
  {
    id: 'frontmatter',
    criterion: 'Frontmatter',
    condition: 'YAML frontmatter is present',
    weight: 2.0,
    // Intake leaves the frontmatter empty when it is missing or does not parse to a map.
    met: (f) => f.frontmatterKeys > 0,
  },
  {
    id: 'name',
    criterion: 'Name',
    condition: 'A Skill name is provided',
    weight: 1.5,
    met: (f) => f.name !== null && f.name.length > 0,
  },
  {
    id: 'description',
    criterion: 'Description',
    condition: 'A description longer than 10 characters is provided',
    weight: 2.5,
    met: (f) => f.descriptionLength > 10,
  },
  {
    id: 'description-length',
    criterion: 'Description length',
    condition: 'Description length is between 10 and 500 characters',
    weight: 1.0,
    met: (f) => f.descriptionLength >= 10 && f.descriptionLength <= 500,
  },
  {
    id: 'instructional-body',
    criterion: 'Instructional body',
    condition: 'The instructional body contains more than 50 characters',
    weight: 2.0,
    met: (f) => f.bodyLength > 50,
  },
  {
    id: 'section-structure',
    criterion: 'Section structure',
    condition: 'At least two second-level sections are present',
    weight: 1.5,
    met: (f) => f.level2Sections >= 2,
  },
];

export const STRUCTURAL_TOTAL_WEIGHT = STRUCTURAL_CRITERIA.reduce((sum, c) => sum + c.weight, 0);

export function structuralFacts(skill: Skill, outline: Outline): StructuralFacts {
  const description = frontmatterString(skill, 'description');
  return {
    frontmatterKeys: Object.keys(skill.frontmatter).length,
    name: frontmatterString(skill, 'name'),
    descriptionLength: description === null ? 0 : charLength(description),
    bodyLength: charLength(skill.body.trim()),
    level2Sections: outline.headings.filter((h) => h.depth === 2).length,
  };
}

export function structuralCompleteness(skill: Skill, outline: Outline): DimensionResult {
  const facts = structuralFacts(skill, outline);
  const criteria = STRUCTURAL_CRITERIA.map((c) => ({
    id: c.id,
    condition: c.condition,
    weight: c.weight,
    met: c.met(facts),
  }));
  const achieved = criteria.reduce((sum, c) => sum + (c.met ? c.weight : 0), 0);
  return scoredDimension('structural-completeness', achieved / STRUCTURAL_TOTAL_WEIGHT, {
    formula: 'achieved weight / 10.5 (seed 001 Table 10)',
    achievedWeight: achieved,
    totalWeight: STRUCTURAL_TOTAL_WEIGHT,
    criteria,
    facts,
  });
}
