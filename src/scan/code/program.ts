// A skill's scripts as programs. A script and the skill's own modules it imports (Python `import`/`from`,
// JavaScript/TypeScript `require`/`import` of a relative path) run as one program, so they are analysed as one
// text: data a collector module reads, an encoder module packs and a reporter module posts is one flow, as it
// would be in one file. A program is a connected group of the import graph (either direction: the module that
// sends is linked to the collector through the script that imports both). Each file keeps its lines in a
// segment of the text so findings map back to it.
import type { Skill, SkillFile } from '../../core/types.js';
import { codeLanguage, MAX_PARSE_CHARS } from '../treesitter.js';
import type { ProgramScope } from './script.js';

export interface Segment {
  path: string;
  /** Lines of the program text before this file's first line. */
  offset: number;
  lines: number;
}

export interface Program {
  language: 'python' | 'javascript' | 'typescript';
  text: string;
  segments: Segment[];
  /** Python module names of its files (`reporter` for scripts/reporter.py) and the row each file starts on. */
  scope: ProgramScope;
}

/** Beyond this many files a program is a library bundle, not a skill's scripts: each file stands alone. */
const MAX_FILES = 40;

const PY_FROM = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w., \t*]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.][\w., \t]*)/gm;
const JS_SPEC =
  /(?:\brequire\s*\(\s*|\bfrom\s*|\bimport\s*\(\s*|^[ \t]*import\s*)(['"`])(\.{1,2}\/[^'"`\n]+)\1/gm;
const JS_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.ts'];

type Family = 'python' | 'js';

function familyOf(file: SkillFile): Family | null {
  const lang = codeLanguage(file.language);
  if (lang === 'python') return 'python';
  return lang === 'javascript' || lang === 'typescript' ? 'js' : null;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Module stem of a Python file: `a/b/reporter.py` → reporter; `a/pkg/__init__.py` → pkg. */
function pythonStem(path: string): string {
  const base = path.split('/').pop()!.replace(/\.py$/, '');
  return base === '__init__' ? (dirOf(path).split('/').pop() ?? '') : base;
}

/** Names a Python file imports that could be the skill's own modules. */
function pythonImports(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PY_FROM)) {
    const module = m[2]!;
    if (module) names.push(module.split('.').pop()!);
    // `from . import reporter`, `from pkg import reporter`: an imported name may be a module.
    for (const part of m[3]!.split(',')) {
      const name = part.trim().split(/\s+/)[0];
      if (name && name !== '*') names.push(name);
    }
  }
  for (const m of text.matchAll(PY_IMPORT))
    for (const part of m[1]!.split(',')) {
      const dotted = part.trim().split(/\s+/)[0] ?? '';
      if (dotted) names.push(...new Set([dotted.split('.')[0]!, dotted.split('.').pop()!]));
    }
  return names;
}

function normalise(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** Relative module specifiers a JavaScript/TypeScript file loads, resolved against its folder. */
function jsImports(path: string, text: string, exists: (p: string) => boolean): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(JS_SPEC)) {
    const base = normalise(`${dirOf(path)}/${m[2]!}`);
    if (base === null) continue;
    // A `.js` specifier names the compiled file; the skill may ship its TypeScript source.
    const tries = [...JS_EXTENSIONS.map((e) => base + e), base.replace(/\.js$/, '.ts')];
    const hit = tries.find(exists);
    if (hit) found.push(hit);
  }
  return found;
}

/** Import edges among the skill's code files of one family. */
function importGraph(files: readonly SkillFile[], family: Family): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>(files.map((f) => [f.path, new Set<string>()]));
  const link = (a: string, b: string) => {
    if (a === b) return;
    graph.get(a)!.add(b);
    graph.get(b)!.add(a);
  };
  if (family === 'js') {
    for (const f of files)
      for (const target of jsImports(f.path, f.text!, (p) => graph.has(p))) link(f.path, target);
    return graph;
  }
  const byStem = new Map<string, SkillFile[]>();
  for (const f of files) {
    const stem = pythonStem(f.path);
    byStem.set(stem, [...(byStem.get(stem) ?? []), f]);
  }
  for (const f of files)
    for (const name of pythonImports(f.text!)) {
      const candidates = byStem.get(name) ?? [];
      // The module beside the importer when there is one; otherwise a name the skill ships once or twice.
      const near = candidates.filter((c) => dirOf(c.path) === dirOf(f.path));
      for (const c of near.length > 0 ? near : candidates.length <= 2 ? candidates : []) link(f.path, c.path);
    }
  return graph;
}

function buildProgram(members: readonly SkillFile[], family: Family): Program {
  const segments: Segment[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const f of members) {
    let text = f.text!;
    // A shebang is valid only on a program's first line; as a comment it keeps the file's line count.
    if (family === 'js' && text.startsWith('#!')) text = `//${text.slice(2)}`;
    const lines = text.split('\n').length;
    segments.push({ path: f.path, offset, lines });
    parts.push(text);
    offset += lines;
  }
  const typescript = members.some((f) => codeLanguage(f.language) === 'typescript');
  return {
    language: family === 'python' ? 'python' : typescript ? 'typescript' : 'javascript',
    text: parts.join('\n'),
    segments,
    scope: {
      modules: new Set(family === 'python' ? members.map((f) => pythonStem(f.path)) : []),
      rows: segments.map((s) => s.offset),
    },
  };
}

/** Every program of the skill, by member path: groups of two or more files that import one another. */
function programsOf(skill: Skill): Map<string, Program> {
  const byPath = new Map<string, Program>();
  for (const family of ['python', 'js'] as const) {
    const files = skill.files.filter((f) => f.text !== null && familyOf(f) === family);
    if (files.length < 2) continue;
    const graph = importGraph(files, family);
    const file = new Map(files.map((f) => [f.path, f]));
    const seen = new Set<string>();
    for (const start of files) {
      if (seen.has(start.path)) continue;
      const group: string[] = [];
      const queue = [start.path];
      seen.add(start.path);
      while (queue.length > 0) {
        const p = queue.shift()!;
        group.push(p);
        for (const q of graph.get(p) ?? [])
          if (!seen.has(q)) {
            seen.add(q);
            queue.push(q);
          }
      }
      if (group.length < 2 || group.length > MAX_FILES) continue;
      const members = group.sort().map((p) => file.get(p)!);
      if (members.reduce((n, f) => n + f.text!.length, 0) > MAX_PARSE_CHARS) continue;
      const program = buildProgram(members, family);
      for (const p of group) byPath.set(p, program);
    }
  }
  return byPath;
}

const cache = new WeakMap<Skill, Map<string, Program>>();

/** The program `path` belongs to with other files of the skill; null when it stands alone. */
export function programOf(skill: Skill, path: string): Program | null {
  let programs = cache.get(skill);
  if (!programs) {
    programs = programsOf(skill);
    cache.set(skill, programs);
  }
  return programs.get(path) ?? null;
}

/** Maps a line of the program text to the file and line it came from. */
export function sourceLine(program: Program, line: number): { path: string; line: number } | null {
  for (const s of program.segments)
    if (line > s.offset && line <= s.offset + s.lines) return { path: s.path, line: line - s.offset };
  return null;
}
