// Intake: every stage gets its skills from here (DESIGN section 2).
import type { Provenance, Skill } from '../core/types.js';
import type { IntakeLimits } from './limits.js';
import { loadSkill, resolveLimits } from './load-skill.js';

export type { GitAccess, GitMirror } from './git.js';
export { resolveRemoteRef } from './git.js';
export type { IntakeLimits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { IntakeHandle, IntakeOptions, SkillResult } from './open-source.js';
export { openSource, withSource } from './open-source.js';

/** Load one skill folder (its root holds SKILL.md). Throws UserError when SKILL.md is missing or unusable. */
export function loadSkillFolder(
  dir: string,
  provenance: Provenance,
  limits?: Partial<IntakeLimits>,
): Promise<Skill> {
  return loadSkill(dir, provenance, resolveLimits(limits));
}
export { changedPathsSince, rootSource, skillRootsOf } from './changed-skills.js';
export { discoverSkills } from './discover.js';
export { parseSkillMd, skillMdFields } from './frontmatter.js';
export { archiveFormat, archiveStem, normaliseSubdir, parseSource, validateRef } from './source-spec.js';
export { isInside } from './walk.js';
