import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/core/types.js';
import type { SkillResult } from '../../../src/intake/index.js';
import { MAX_PARTS, pickSkill } from '../../../src/server/audit-job.js';

// Which skill of a source an audit means: a part's by folder, a named one by name, the only one; a source of
// more skills than one submission fans out into is refused with what to do instead.

const loaded = (subdir: string, name: string): SkillResult => ({
  ok: true,
  skill: { name, folderName: subdir.split('/').pop()!, provenance: { subdir } } as unknown as Skill,
});
const broken = (path: string): SkillResult => ({
  ok: false,
  path,
  error: { code: 'UNREADABLE', message: `${path}: unreadable` },
});
const audit = (over: { skill?: string; subdir?: string; parentId?: string }) => ({
  skill: over.skill ?? null,
  subdir: over.subdir ?? null,
  parentId: over.parentId ?? null,
});
const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).constructor.name;
  }
  return undefined;
};

describe('pickSkill', () => {
  const skills = [loaded('skills/a', 'alpha'), broken('skills/b'), loaded('skills/c', 'gamma')];

  it('a part picks its folder, a broken skill included (its audit then fails with intake’s reason)', () => {
    expect(pickSkill(audit({ parentId: 'p', subdir: 'skills/c' }))(skills)).toEqual([skills[2]]);
    expect(pickSkill(audit({ parentId: 'p', subdir: 'skills/b' }))(skills)).toEqual([skills[1]]);
    expect(code(() => pickSkill(audit({ parentId: 'p', subdir: 'skills/gone' }))(skills))).toBe(
      'SKILL_NOT_FOUND',
    );
  });

  it('a named skill by name; the only skill of a source; several and none named split', () => {
    expect(pickSkill(audit({ skill: 'gamma' }))(skills)).toEqual([skills[2]]);
    expect(pickSkill(audit({}))([skills[0]!])).toEqual([skills[0]]);
    expect(code(() => pickSkill(audit({}))(skills))).toBe('SeveralSkills');
  });

  it(`refuses a source of more than ${MAX_PARTS} skills when none is named`, () => {
    const many = Array.from({ length: MAX_PARTS + 1 }, (_, i) => loaded(`s/${i}`, `skill-${i}`));
    expect(code(() => pickSkill(audit({}))(many))).toBe('TOO_MANY_SKILLS');
    expect(code(() => pickSkill(audit({}))(many.slice(0, MAX_PARTS)))).toBe('SeveralSkills');
    expect(pickSkill(audit({ skill: 'skill-7' }))(many)).toEqual([many[7]]);
  });
});
