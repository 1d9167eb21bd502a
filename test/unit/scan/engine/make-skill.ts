import type { Skill, SkillFile } from '../../../../src/types.js';

const LANG: Record<string, string> = {
  md: 'markdown',
  py: 'python',
  sh: 'bash',
  js: 'javascript',
  ts: 'typescript',
};

/** A Skill built in memory from a map of path -> text, for engine tests that need no disk. */
export function makeSkill(files: Record<string, string>, name = 'demo-skill'): Skill {
  const skillFiles: SkillFile[] = Object.entries(files).map(([path, text]) => {
    const ext = path.split('.').pop() ?? '';
    const language = LANG[ext] ?? 'text';
    return {
      path,
      size: Buffer.byteLength(text),
      sha256: null,
      kind: language === 'markdown' ? 'doc' : language === 'text' ? 'data' : 'script',
      language,
      text,
      truncated: false,
    };
  });
  const skillMd = files['SKILL.md'] ?? '';
  return {
    id: 'test',
    name,
    description: 'demo',
    frontmatter: { name, description: 'demo' },
    frontmatterLines: {},
    body: skillMd,
    bodyStartLine: 1,
    files: skillFiles,
    links: [],
    diagnostics: [],
    provenance: {
      source: 'folder',
      uri: '/tmp/x',
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    },
    root: '/nonexistent',
    folderName: name,
  };
}
