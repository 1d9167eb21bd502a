import type { Skill } from '../types.js';

// What the static dimensions read from a Skill: the frontmatter strings as written (not intake's fallbacks,
// e.g. a name taken from the folder) and the SKILL.md text.

/** The frontmatter value as a trimmed string, or null when absent or not a string. */
export function frontmatterString(skill: Skill, key: string): string | null {
  const value = skill.frontmatter[key];
  return typeof value === 'string' ? value.trim() : null;
}

/** The SKILL.md file as read, or the body alone when intake did not keep the file's text. */
export function skillMarkdown(skill: Skill): string {
  const file = skill.files.find((f) => f.path === 'SKILL.md');
  return file?.text ?? skill.body;
}

/** Length in Unicode code points, so that a description in Chinese is not counted double. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
