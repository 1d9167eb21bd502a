import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { FileKind, Skill, SkillFile } from '../../../src/core/types.js';

// Builds Skill objects the way intake would, without touching the disk, so quality tests control every input.

export interface SkillSpec {
  /** Frontmatter to serialise; omit (or pass null) for a SKILL.md without frontmatter. */
  frontmatter?: Record<string, unknown> | null;
  body?: string;
  /** Bundled files besides SKILL.md: path, and optionally kind and text. */
  files?: { path: string; kind?: FileKind; text?: string }[];
  folderName?: string;
}

function fileOf(path: string, kind: FileKind, text: string | null): SkillFile {
  const size = text === null ? 0 : Buffer.byteLength(text);
  return {
    path,
    size,
    sha256: text === null ? null : createHash('sha256').update(text).digest('hex'),
    kind,
    language: path.endsWith('.md') ? 'markdown' : path.endsWith('.py') ? 'python' : null,
    text,
    truncated: false,
  };
}

export function makeSkill(spec: SkillSpec = {}): Skill {
  const frontmatter = spec.frontmatter ?? {};
  const body = spec.body ?? '';
  const header = Object.keys(frontmatter).length > 0 ? `---\n${stringify(frontmatter)}---\n` : '';
  const skillMd = header + body;
  const bodyStartLine = header === '' ? 1 : header.split('\n').length;
  const folderName = spec.folderName ?? 'example-skill';
  const frontmatterLines: Record<string, number> = {};
  Object.keys(frontmatter).forEach((key, i) => {
    frontmatterLines[key] = i + 2;
  });
  const files = [
    fileOf('SKILL.md', 'doc', skillMd),
    ...(spec.files ?? []).map((f) =>
      fileOf(f.path, f.kind ?? (f.path.endsWith('.md') ? 'doc' : 'script'), f.text ?? ''),
    ),
  ];
  return {
    id: createHash('sha256').update(skillMd).digest('hex'),
    name: typeof frontmatter.name === 'string' ? frontmatter.name : folderName,
    description: typeof frontmatter.description === 'string' ? frontmatter.description : '',
    frontmatter,
    frontmatterLines,
    body,
    bodyStartLine,
    files,
    links: [],
    diagnostics: [],
    provenance: {
      source: 'folder',
      uri: `/skills/${folderName}`,
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    },
    root: `/skills/${folderName}`,
    folderName,
  };
}
