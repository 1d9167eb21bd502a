// A skill folder on disk loaded through the real intake, as `skillaudit` loads a plain local folder.

import type { Skill } from '../../src/core/types.js';
import { loadSkillFolder } from '../../src/intake/index.js';

/** `uri` is what the provenance names (default: the path as given). */
export function loadLocalSkill(path: string, uri = path): Promise<Skill> {
  return loadSkillFolder(path, {
    source: 'folder',
    uri,
    ref: null,
    commit: null,
    subdir: '.',
    owner: null,
    category: null,
  });
}
