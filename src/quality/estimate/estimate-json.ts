import type { Skill } from '../../core/types.js';
import { roundScore } from '../dimensions.js';
import { staticQualityProfile } from '../profile.js';
import type { DimensionGroup, DimensionId } from '../types.js';
import { type CategorySource, skillCategory } from './category.js';
import type { DimensionEstimate, Estimator } from './estimator.js';
import { round4 } from './metrics.js';
import { retrievalText } from './reference-set.js';

// The estimate of one skill as `estimate --format json` prints it. Static dimensions are measured from the
// skill itself (as seed 001 does: its execution-free static scores equal the full ones) and also estimated, so
// the two can be compared; `score` is the measured value when there is one, else the estimate.

export interface EstimatedDimension {
  id: DimensionId;
  name: string;
  group: DimensionGroup;
  score: number | null;
  scoreFrom: 'measured' | 'estimate' | null;
  measured: number | null;
  estimate: Pick<DimensionEstimate, 'status' | 'score' | 'source' | 'neighbours' | 'reason'>;
}

export interface EstimatedNeighbour {
  path: string;
  name: string;
  category: string;
  sameCategory: boolean;
  similarity: number;
  weight: number;
  scores: Partial<Record<DimensionId, number>>;
}

export interface EstimatedSkill {
  path: string;
  name: string;
  category: { name: string; source: CategorySource };
  confidence: number;
  confidenceLabel: 'high' | 'medium' | 'low';
  dimensions: EstimatedDimension[];
  neighbours: EstimatedNeighbour[];
  notes: string[];
}

export type EstimateResult = EstimatedSkill | { path: string; error: { code: string; message: string } };

export function estimateSkill(skill: Skill, estimator: Estimator): EstimatedSkill {
  const category = skillCategory(skill);
  const measured = new Map(
    staticQualityProfile(skill)
      .dimensions.filter((d) => d.status === 'scored')
      .map((d) => [d.id, d.score]),
  );
  const est = estimator.estimate(retrievalText(skill), category.name, skill.id);
  const dimensions = est.dimensions.map((d): EstimatedDimension => {
    const m = measured.get(d.id) ?? null;
    const estimate = {
      status: d.status,
      score: d.score === null ? null : roundScore(d.score),
      source: d.source,
      neighbours: d.neighbours,
      ...(d.reason ? { reason: d.reason } : {}),
    };
    const scoreFrom = m !== null ? 'measured' : estimate.score !== null ? 'estimate' : null;
    return {
      id: d.id,
      name: d.name,
      group: d.group,
      score: m ?? estimate.score,
      scoreFrom,
      measured: m,
      estimate,
    };
  });
  const notes: string[] = [];
  if (estimator.skills.some((s) => s.skillId === skill.id)) {
    notes.push('This skill is itself in the reference set; it is left out of its own neighbours.');
  }
  if (est.neighbours.length === 0) {
    notes.push('No reference skill shares a term with this one; estimates are category or global means.');
  }
  return {
    path: skill.provenance.subdir,
    name: skill.name,
    category,
    confidence: round4(est.confidence),
    confidenceLabel: est.confidenceLabel,
    dimensions,
    neighbours: est.neighbours.map((n) => ({
      path: n.skill.path,
      name: n.skill.name,
      category: n.skill.category,
      sameCategory: n.skill.category === category.name,
      similarity: round4(n.similarity),
      weight: round4(n.weight),
      scores: n.skill.scores,
    })),
    notes,
  };
}
