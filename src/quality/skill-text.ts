import type { Skill } from '../core/types.js';

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

/**
 * Bodies are analysed on their first 200,000 characters (about 50,000 tokens, ten times the spec's 5,000-token
 * ceiling): enough for any hand-written skill, and it bounds the time a hostile multi-megabyte body costs.
 * Token counts and lengths always cover the whole text.
 */
export const ANALYSIS_CHAR_LIMIT = 200_000;

export function analysedBody(skill: Skill): { text: string; truncated: boolean } {
  const truncated = skill.body.length > ANALYSIS_CHAR_LIMIT;
  return { text: truncated ? skill.body.slice(0, ANALYSIS_CHAR_LIMIT) : skill.body, truncated };
}

/** Length in Unicode code points, so that a description in Chinese is not counted double. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
