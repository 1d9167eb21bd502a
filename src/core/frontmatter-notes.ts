import type { Skill } from './types.js';

// Said by the scan's notes and beside the report's verdict alike, from intake's diagnostics: in core so both stages
// read one wording without one importing the other.

/**
 * One line per error that kept SKILL.md's frontmatter from being read: the scan's notes and the report's verdict
 * say it in these words.
 */
export function unreadFrontmatter(skill: Skill): string[] {
  return skill.diagnostics
    .filter((d) => d.level === 'error' && d.code.startsWith('frontmatter-'))
    .map((d) => `SKILL.md frontmatter could not be read (line ${d.line ?? 1}): ${d.message}`);
}
