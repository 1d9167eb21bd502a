import { createHash } from 'node:crypto';
import { Document, parseDocument } from 'yaml';
import type { Skill } from '../../core/types.js';
import { parseSkillMd, skillMdFields } from '../../intake/index.js';
import { frontmatterString, skillMarkdown } from '../skill-text.js';

// A candidate is the original skill with only SKILL.md replaced: the other files, links and provenance stay
// as intake read them, so the same profile and scanner functions score it as they scored the original.

/** What the model returns for SKILL.md (the rest of the frontmatter is never the model's to change). */
export interface Rewrite {
  name: string;
  description: string;
  body: string;
}

/** The name the rewrite must keep: the frontmatter's, or the folder's when the original has none (the spec). */
export function expectedName(skill: Skill): string {
  return frontmatterString(skill, 'name') || skill.folderName;
}

/** The original frontmatter's YAML source, when it parsed to a map with keys (null otherwise). */
function frontmatterSource(skill: Skill): string | null {
  if (Object.keys(skill.frontmatter).length === 0) return null;
  const lines = skillMarkdown(skill).split('\n');
  // The frontmatter sits between the opening `---` (line 1) and the closing line before the body.
  return lines
    .slice(1, skill.bodyStartLine - 2)
    .map((l) => l.replace(/\r$/, ''))
    .join('\n');
}

/**
 * The new SKILL.md: the original frontmatter edited in place (comments, key order and every other key such as
 * allowed-tools kept) with the new description and the expected name, then the new body.
 */
export function renderSkillMd(original: Skill, rewrite: Rewrite): string {
  const source = frontmatterSource(original);
  const doc = source === null ? new Document({}) : parseDocument(source, { version: '1.2' });
  doc.set('name', expectedName(original));
  doc.set('description', rewrite.description.trim());
  const yaml = doc.toString({ lineWidth: 0 });
  const body = rewrite.body.replace(/\r\n/g, '\n').replace(/^\n+/, '');
  return `---\n${yaml}---\n\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** The skill as intake would have read it with `text` as SKILL.md. */
export function candidateSkill(original: Skill, text: string): Skill {
  const parsed = parseSkillMd(text);
  const size = Buffer.byteLength(text);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const files = original.files.map((f) =>
    f.path === 'SKILL.md' ? { ...f, text, size, sha256, truncated: false } : f,
  );
  return {
    ...original,
    id: createHash('sha256').update(`${original.id}\0${sha256}`).digest('hex'),
    ...skillMdFields(parsed, original.folderName),
    files,
    diagnostics: parsed.diagnostics,
  };
}
