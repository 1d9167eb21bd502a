import { parse } from 'yaml';
import type { Skill, SkillFile } from '../../../../src/core/types.js';
import { proseDetectors } from '../../../../src/scan/detectors/prose-index.js';
import type { FileContext, Hit } from '../../../../src/scan/rule.js';

// In-memory skills for the prose rules' tests: no disk, no intake. SKILL.md frontmatter is read with `yaml`
// here so the tests pin name, description and key lines exactly as the rules see them.

const LANG: Record<string, { kind: SkillFile['kind']; language: string }> = {
  md: { kind: 'doc', language: 'markdown' },
  txt: { kind: 'doc', language: 'text' },
  rst: { kind: 'doc', language: 'text' },
  py: { kind: 'script', language: 'python' },
  sh: { kind: 'script', language: 'bash' },
  js: { kind: 'script', language: 'javascript' },
  ts: { kind: 'script', language: 'typescript' },
  json: { kind: 'data', language: 'json' },
  yaml: { kind: 'data', language: 'yaml' },
  yml: { kind: 'data', language: 'yaml' },
};

export interface SkillOptions {
  folderName?: string;
  owner?: string | null;
}

function frontmatterOf(text: string): { data: Record<string, unknown>; lines: Record<string, number> } {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---') return { data: {}, lines: {} };
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (close < 0) return { data: {}, lines: {} };
  const keyLines: Record<string, number> = {};
  for (let i = 1; i < close; i++) {
    const m = /^([^\s#:][^:]*):/.exec(lines[i]!);
    if (m) keyLines[m[1]!.trim()] = i + 1;
  }
  const data = (parse(lines.slice(1, close).join('\n')) ?? {}) as Record<string, unknown>;
  return { data, lines: keyLines };
}

export function makeSkill(files: Record<string, string>, options: SkillOptions = {}): Skill {
  const skillMd = files['SKILL.md'] ?? '';
  const fm = frontmatterOf(skillMd);
  const name = typeof fm.data.name === 'string' ? fm.data.name : 'demo-skill';
  const description = typeof fm.data.description === 'string' ? fm.data.description : '';
  const skillFiles: SkillFile[] = Object.entries(files).map(([path, text]) => {
    const ext = path.split('.').pop() ?? '';
    const cls = LANG[ext] ?? { kind: 'data' as const, language: 'text' };
    return { path, size: Buffer.byteLength(text), sha256: null, ...cls, text, truncated: false };
  });
  return {
    id: 'test',
    name,
    description,
    frontmatter: fm.data,
    frontmatterLines: fm.lines,
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
      owner: options.owner ?? null,
      category: null,
    },
    root: '/nonexistent',
    folderName: options.folderName ?? name,
  };
}

/** A SKILL.md with frontmatter around `body`. */
export function skillMd(body: string, name = 'demo-skill', description = 'Helps with demo tasks.'): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Every prose detector's hits for one file of the skill. */
export async function scanFile(skill: Skill, path = 'SKILL.md'): Promise<Hit[]> {
  const file = skill.files.find((f) => f.path === path);
  if (!file || file.text === null) throw new Error(`no text file ${path}`);
  const ctx: FileContext = {
    skill,
    file,
    text: file.text,
    reachable: path === 'SKILL.md',
    declaredHosts: new Set(),
  };
  const hits: Hit[] = [];
  for (const d of proseDetectors) if (d.appliesTo(file)) hits.push(...(await d.detect(ctx)));
  return hits;
}

/** Hits of the prose detectors for a SKILL.md body (frontmatter added). */
export async function scanBody(
  body: string,
  options: { name?: string; description?: string } = {},
): Promise<Hit[]> {
  return scanFile(makeSkill({ 'SKILL.md': skillMd(body, options.name, options.description) }));
}

/** The strongest hit of a rule, or undefined. */
export function strongest(hits: Hit[], rule: string): Hit | undefined {
  return hits.filter((h) => h.rule === rule).sort((a, b) => b.confidence - a.confidence)[0];
}
