// A small in-memory skill and rule findings for model-stage tests (the review pass), built without intake so
// these tests depend only on the model layer and the review code.
import { createHash } from 'node:crypto';
import { patternById } from '../../../src/core/taxonomy.js';
import type { Finding, PatternId, Skill, SkillFile } from '../../../src/core/types.js';

export function makeSkill(name: string, files: Record<string, string>): Skill {
  const list: SkillFile[] = Object.entries(files).map(([path, text]) => ({
    path,
    size: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
    kind: path.endsWith('.md') ? 'doc' : 'script',
    language: path.endsWith('.md') ? 'markdown' : path.endsWith('.py') ? 'python' : 'bash',
    text,
    truncated: false,
  }));
  list.push({
    path: 'assets/logo.png',
    size: 10,
    sha256: null,
    kind: 'binary',
    language: null,
    text: null,
    truncated: false,
  });
  return {
    id: createHash('sha256').update(JSON.stringify(files)).digest('hex'),
    name,
    description: `${name} test skill`,
    frontmatter: { name },
    frontmatterLines: { name: 2 },
    body: files['SKILL.md'] ?? '',
    bodyStartLine: 1,
    files: list,
    links: [],
    diagnostics: [],
    provenance: {
      source: 'folder',
      uri: name,
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    },
    root: `/nonexistent/${name}`,
    folderName: name,
  };
}

export function ruleFinding(
  id: string,
  pattern: PatternId,
  rule: string,
  file: string,
  line: number,
  evidence: string,
  confidence: number,
): Finding {
  const p = patternById(pattern);
  return {
    id,
    pattern,
    family: p.family,
    severity: p.severity,
    confidence,
    file,
    line,
    endLine: line,
    evidence,
    rule,
    message: p.name,
    rationale: 'rule fixture',
  };
}
