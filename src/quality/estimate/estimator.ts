import type { ReferenceRecord } from '../../store/reference.js';
import { DIMENSIONS } from '../dimensions.js';
import type { DimensionGroup, DimensionId } from '../types.js';
import { DEFAULT_CATEGORY } from './category.js';
import type { RetrievalMethod, RetrievalText } from './features.js';
import { TfIdfIndex } from './tfidf.js';

// The execution-free estimate (seed 001): retrieve the reference skills most similar to the new one and
// predict each dimension as the similarity-weighted mean of their scores. Category-aware: a neighbour of the
// same category (other than the default, `general`) has its weight multiplied by the category boost, which
// both ranks it ahead of an equally similar skill of another category and gives it more say in the mean. A
// dimension no neighbour has a score for falls back to the category mean, then the global mean, and says so;
// one no reference skill has is not estimated.

export const ESTIMATE_DEFAULTS = { k: 5, categoryBoost: 1.5 } as const;

/** Confidence labels from the mean similarity of the neighbours (a heuristic reading aid, not calibrated). */
export const CONFIDENCE_LEVELS: readonly { min: number; label: 'high' | 'medium' | 'low' }[] = [
  { min: 0.5, label: 'high' },
  { min: 0.2, label: 'medium' },
  { min: 0, label: 'low' },
];

export interface ReferenceSkill extends RetrievalText {
  skillId: string;
  path: string;
  category: string;
  scores: Partial<Record<DimensionId, number>>;
}

export interface Neighbour {
  skill: ReferenceSkill;
  /** Cosine similarity of the two skills' vectors, in [0, 1]. */
  similarity: number;
  /** similarity × the category boost when the categories match (and are not `general`), else similarity. */
  weight: number;
}

export type EstimateSource = 'neighbours' | 'category-mean' | 'global-mean';

export interface DimensionEstimate {
  id: DimensionId;
  name: string;
  group: DimensionGroup;
  status: 'estimated' | 'not_estimated';
  score: number | null;
  source: EstimateSource | null;
  /** Paths of the neighbours whose scores were averaged (source `neighbours`). */
  neighbours: string[];
  reason?: string;
}

export interface SkillEstimate {
  category: string;
  neighbours: Neighbour[];
  /** Mean similarity of the listed neighbours (0 when there are none). */
  confidence: number;
  confidenceLabel: 'high' | 'medium' | 'low';
  dimensions: DimensionEstimate[];
}

export interface EstimateOptions {
  k?: number;
  categoryBoost?: number;
}

/** The scored dimensions of a stored profile. */
export function referenceSkill(record: ReferenceRecord): ReferenceSkill {
  const scores: Partial<Record<DimensionId, number>> = {};
  for (const d of record.profile) {
    if (d.status === 'scored' && d.score !== null && DIMENSIONS.some((spec) => spec.id === d.id)) {
      scores[d.id as DimensionId] = d.score;
    }
  }
  const { skillId, path, name, description, body, category } = record;
  return { skillId, path, name, description, body, category, scores };
}

function mean(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Per dimension: the mean score over the whole set and per category (the fallbacks and the Table 6 baseline). */
export class CategoryMeans {
  private readonly global = new Map<DimensionId, number | null>();
  private readonly byCategory = new Map<string, number | null>();

  constructor(skills: readonly ReferenceSkill[]) {
    for (const { id } of DIMENSIONS) {
      const scored = skills.filter((s) => s.scores[id] !== undefined);
      this.global.set(id, mean(scored.map((s) => s.scores[id]!)));
      for (const category of new Set(scored.map((s) => s.category))) {
        const inCategory = scored.filter((s) => s.category === category).map((s) => s.scores[id]!);
        this.byCategory.set(`${category}\u0000${id}`, mean(inCategory));
      }
    }
  }

  /** The category's mean, else the global mean, with which one it was; null when no skill has the dimension. */
  predict(id: DimensionId, category: string): { score: number; source: EstimateSource } | null {
    const inCategory = this.byCategory.get(`${category}\u0000${id}`);
    if (inCategory !== undefined && inCategory !== null)
      return { score: inCategory, source: 'category-mean' };
    const global = this.global.get(id);
    return global === undefined || global === null ? null : { score: global, source: 'global-mean' };
  }
}

export class Estimator {
  readonly k: number;
  readonly categoryBoost: number;
  private readonly index: TfIdfIndex;
  private readonly means: CategoryMeans;

  constructor(
    readonly skills: readonly ReferenceSkill[],
    readonly method: RetrievalMethod,
    options: EstimateOptions = {},
  ) {
    this.k = options.k ?? ESTIMATE_DEFAULTS.k;
    this.categoryBoost = options.categoryBoost ?? ESTIMATE_DEFAULTS.categoryBoost;
    this.index = new TfIdfIndex(skills.map((s) => method.features(s)));
    this.means = new CategoryMeans(skills);
  }

  /**
   * Every reference skill with a similarity above 0, best first (weight, then similarity, then path, so ties
   * are deterministic). `excludeSkillId` leaves out the skill itself when it is part of the reference set.
   */
  rank(text: RetrievalText, category: string, excludeSkillId?: string): Neighbour[] {
    const sims = this.index.similarities(this.method.features(text));
    const out: Neighbour[] = [];
    sims.forEach((raw, i) => {
      const skill = this.skills[i]!;
      if (raw <= 0 || skill.skillId === excludeSkillId) return;
      const similarity = Math.min(1, raw);
      // Two skills with no known category are not alike for that: `general` gets no boost.
      const boosted = category !== DEFAULT_CATEGORY && skill.category === category;
      out.push({ skill, similarity, weight: boosted ? similarity * this.categoryBoost : similarity });
    });
    return out.sort(
      (a, b) => b.weight - a.weight || b.similarity - a.similarity || (a.skill.path < b.skill.path ? -1 : 1),
    );
  }

  estimate(text: RetrievalText, category: string, excludeSkillId?: string): SkillEstimate {
    const ranked = this.rank(text, category, excludeSkillId);
    const neighbours = ranked.slice(0, this.k);
    const confidence = mean(neighbours.map((n) => n.similarity)) ?? 0;
    const dimensions = DIMENSIONS.map((spec): DimensionEstimate => {
      const base = { id: spec.id, name: spec.name, group: spec.group };
      // The k nearest that have this dimension: with imported profiles, not every reference skill has every score.
      const used = ranked.filter((n) => n.skill.scores[spec.id] !== undefined).slice(0, this.k);
      if (used.length > 0) {
        const total = used.reduce((s, n) => s + n.weight, 0);
        const score = used.reduce((s, n) => s + n.weight * n.skill.scores[spec.id]!, 0) / total;
        return {
          ...base,
          status: 'estimated',
          score,
          source: 'neighbours',
          neighbours: used.map((n) => n.skill.path),
        };
      }
      const fallback = this.means.predict(spec.id, category);
      if (fallback) {
        return {
          ...base,
          status: 'estimated',
          score: fallback.score,
          source: fallback.source,
          neighbours: [],
          reason: 'no similar reference skill has a score for this dimension',
        };
      }
      return {
        ...base,
        status: 'not_estimated',
        score: null,
        source: null,
        neighbours: [],
        reason: 'no reference skill has a score for this dimension',
      };
    });
    const confidenceLabel = CONFIDENCE_LEVELS.find((l) => confidence >= l.min)?.label ?? 'low';
    return { category, neighbours, confidence, confidenceLabel, dimensions };
  }
}
