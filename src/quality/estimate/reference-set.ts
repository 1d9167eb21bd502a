import type { Skill } from '../../core/types.js';
import type { ReferenceRecord, StoredScore } from '../../store/reference.js';
import { staticQualityProfile } from '../profile.js';
import { analysedBody } from '../skill-text.js';
import type { DimensionId } from '../types.js';
import { skillCategory } from './category.js';
import type { RetrievalText } from './features.js';
import type { ImportedProfile } from './import-profiles.js';

// From loaded skills to the records of a reference set: the retrieval text, the category and the profile
// (static dimensions computed now, dynamic and rubric ones imported when a profile for the skill was given).

/** What retrieval reads of a skill; the body bounded like every other analysis of it. */
export function retrievalText(skill: Skill): RetrievalText {
  return { name: skill.name, description: skill.description, body: analysedBody(skill).text };
}

export function referenceRecord(
  skill: Skill,
  imported: Partial<Record<DimensionId, number>> = {},
): ReferenceRecord {
  const category = skillCategory(skill);
  const profile = staticQualityProfile(skill).dimensions.map((d): StoredScore => {
    const score = imported[d.id as DimensionId];
    if (d.status !== 'scored' && score !== undefined) {
      return { id: d.id, group: d.group, status: 'scored', score, origin: 'imported' };
    }
    return { id: d.id, group: d.group, status: d.status, score: d.score, origin: 'static' };
  });
  return {
    skillId: skill.id,
    path: skill.provenance.subdir,
    ...retrievalText(skill),
    category: category.name,
    categorySource: category.source,
    profile,
  };
}

export interface ReferenceSetBuild {
  records: ReferenceRecord[];
  /** Skills left out because an identical skill (same content hash) was already in the set. */
  duplicates: string[];
  /** Skills that received imported scores. */
  importedSkills: number;
  warnings: string[];
}

/**
 * One record per distinct skill (a copy would leak between the two sides of a holdout split). Profiles match a
 * skill by content hash, else by a name exactly one skill has; the first profile found for a skill is used.
 */
export function buildReferenceSet(
  skills: readonly Skill[],
  profiles: readonly ImportedProfile[] = [],
): ReferenceSetBuild {
  const byId = new Map<string, Skill>();
  const duplicates: string[] = [];
  for (const skill of skills) {
    if (byId.has(skill.id)) duplicates.push(skill.provenance.subdir);
    else byId.set(skill.id, skill);
  }
  const byName = new Map<string, Skill[]>();
  for (const skill of byId.values()) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);

  const importedFor = new Map<string, Partial<Record<DimensionId, number>>>();
  const warnings: string[] = [];
  for (const p of profiles) {
    const sameName = p.name === null ? [] : (byName.get(p.name) ?? []);
    const target =
      (p.skillId !== null ? byId.get(p.skillId) : undefined) ??
      (sameName.length === 1 ? sameName[0] : undefined);
    if (!target) {
      warnings.push(
        `${p.file}: no skill of the corpus matches ${p.name ?? p.skillId} (by content hash or unique name); not imported`,
      );
    } else if (importedFor.has(target.id)) {
      warnings.push(
        `${p.file}: ${target.provenance.subdir} already has imported scores; this profile is not used`,
      );
    } else if (Object.keys(p.scores).length > 0) {
      importedFor.set(target.id, p.scores);
    }
  }
  const records = [...byId.values()].map((s) => referenceRecord(s, importedFor.get(s.id)));
  return { records, duplicates, importedSkills: importedFor.size, warnings };
}
