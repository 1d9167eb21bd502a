// Builds FileContext objects for detector tests without going through intake.
import { createHash } from 'node:crypto';
import type { Skill, SkillFile } from '../../../../src/core/types.js';
import type { Detector, FileContext, Hit } from '../../../../src/scan/rule.js';

const LANGUAGE_BY_EXT: Record<string, string> = {
  sh: 'bash',
  bash: 'bash',
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  ps1: 'powershell',
  json: 'json',
  toml: 'toml',
  yaml: 'yaml',
  yml: 'yaml',
  txt: 'text',
  md: 'markdown',
};

export interface ContextOptions {
  /** Hosts the skill declares (its documented APIs). */
  hosts?: string[];
  reachable?: boolean;
  language?: string;
}

export function makeContext(path: string, text: string, options: ContextOptions = {}): FileContext {
  const ext = path.split('.').pop() ?? '';
  const file: SkillFile = {
    path,
    size: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
    kind: ext === 'md' ? 'doc' : ['json', 'toml', 'txt', 'yaml', 'yml'].includes(ext) ? 'data' : 'script',
    language: options.language ?? LANGUAGE_BY_EXT[ext] ?? null,
    text,
    truncated: false,
  };
  const skill: Skill = {
    id: 'test-skill',
    name: 'test-skill',
    description: 'A skill under test.',
    frontmatter: { name: 'test-skill', description: 'A skill under test.' },
    frontmatterLines: { name: 2, description: 3 },
    body: '',
    bodyStartLine: 5,
    files: [file],
    links: [],
    diagnostics: [],
    provenance: {
      source: 'folder',
      uri: '/tmp/test-skill',
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    },
    root: '/tmp/test-skill',
    folderName: 'test-skill',
  };
  return {
    skill,
    file,
    text,
    reachable: options.reachable ?? true,
    declaredHosts: new Set(options.hosts ?? []),
  };
}

/** Runs a detector over one file; returns its hits. */
export async function run(
  detector: Detector,
  path: string,
  text: string,
  options?: ContextOptions,
): Promise<Hit[]> {
  const ctx = makeContext(path, text, options);
  if (!detector.appliesTo(ctx.file)) return [];
  return detector.detect(ctx);
}

/** Runs every detector of a list and returns hits tagged with their pattern. */
export async function runAll(
  detectors: readonly Detector[],
  path: string,
  text: string,
  options?: ContextOptions,
): Promise<(Hit & { pattern: string })[]> {
  const out: (Hit & { pattern: string })[] = [];
  for (const d of detectors) {
    const ctx = makeContext(path, text, options);
    if (!d.appliesTo(ctx.file)) continue;
    for (const h of await d.detect(ctx)) {
      const rule = d.rules.find((r) => r.id === h.rule);
      if (!rule) throw new Error(`hit with unknown rule ${h.rule} from ${d.name}`);
      out.push({ ...h, pattern: rule.pattern });
    }
  }
  return out;
}
