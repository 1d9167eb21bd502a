import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, relative } from 'node:path';
import type { Rule } from '../../core/rule.js';
import type { Finding } from '../../core/types.js';
import { loadSkillFolder } from '../../intake/index.js';
import { backtrackingExpressions } from './regex-budget.js';
import { ruleExpressions } from './rule-pack.js';
import { type ScanOptions, scanSkill } from './scan.js';

// A rule's fixtures say, line by line, where it must and must not fire (Semgrep-style annotations):
//
//   # skillaudit-test: ruleid code.env-harvest     (the next line must be reported by this rule)
//   # skillaudit-test: ok code.env-harvest         (a look-alike the rule must leave alone)
//
// in any comment form (`#`, `//`, `<!-- … -->`, a JSON "//" key): the marker is found anywhere on its line,
// and the whole line is blanked before the scan so that the annotation itself is never read as content. It
// applies to the next line that is not an annotation. Each fixture is scanned as a skill, with the rule's
// findings alone: every annotated line must be reported by it and nothing else may be (at or above the
// report floor, which the scan applies).
//
// A fixture is `fixtures/<name>.md` (the skill's SKILL.md, in a folder named <name>), a script
// `fixtures/<name>.<py|sh|js|ts|ps1|…>` (in scripts/, which a generated SKILL.md tells the agent to run), or
// a folder `fixtures/<name>/` holding a whole skill (for manifests, several files, folder-name checks).

const MARKER = /skillaudit-test:\s*(ruleid|ok)\s*:?\s+([a-z0-9][a-z0-9.,\s-]*[a-z0-9])/i;
const RUNNERS: Record<string, string> = {
  '.py': 'python3',
  '.sh': 'bash',
  '.bash': 'bash',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'npx tsx',
  '.ps1': 'pwsh -File',
  '.rb': 'ruby',
  '.pl': 'perl',
  '.php': 'php',
  '.lua': 'lua',
};

export interface Annotation {
  file: string;
  /** The annotated line (1-based), the one after the marker. */
  line: number;
  kind: 'ruleid' | 'ok';
  ids: string[];
}

export interface FixtureCheck {
  fixture: string;
  /** Lines annotated `ruleid` that the rule did not report there. */
  missing: { file: string; line: number; rule: string }[];
  /** Findings of the rule on lines not annotated `ruleid` for it. */
  unexpected: { file: string; line: number; rule: string; confidence: number; evidence: string }[];
  positive: boolean;
  negative: boolean;
}

export interface RuleFolderCheck {
  rule: string;
  folder: string;
  fixtures: FixtureCheck[];
  /** What makes the folder fail besides mismatches: no positive or negative fixture, unknown ids. */
  problems: string[];
  passed: boolean;
}

/** Annotations of one file, and its text with the annotation lines blanked. */
export function readAnnotations(file: string, text: string): { annotations: Annotation[]; text: string } {
  const lines = text.split('\n');
  const annotations: Annotation[] = [];
  let pending: { kind: 'ruleid' | 'ok'; ids: string[] }[] = [];
  for (const [i, line] of lines.entries()) {
    const m = MARKER.exec(line);
    if (m) {
      pending.push({
        kind: m[1]!.toLowerCase() as 'ruleid' | 'ok',
        ids: m[2]!.split(/[\s,]+/).filter(Boolean),
      });
      // Keep a line ending (CRLF files stay CRLF) but nothing the detectors could read.
      lines[i] = line.endsWith('\r') ? '\r' : '';
      continue;
    }
    for (const p of pending) annotations.push({ file, line: i + 1, ...p });
    pending = [];
  }
  return { annotations, text: lines.join('\n') };
}

/** Blanks annotations in every file of a skill folder in place; returns them with skill-relative paths. */
function stripTree(root: string, dir = root): Annotation[] {
  const found: Annotation[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) found.push(...stripTree(root, path));
    else if (stat.isFile() && stat.size < 4_000_000) {
      const text = readFileSync(path, 'utf8');
      if (!text.includes('skillaudit-test:')) continue;
      const read = readAnnotations(relative(root, path).split('\\').join('/'), text);
      writeFileSync(path, read.text);
      found.push(...read.annotations);
    }
  }
  return found;
}

/** Lays a fixture out as a skill folder under `work`; returns the folder. */
function layOut(fixture: string, work: string): string {
  const name = basename(fixture).replace(/\.[^.]+$/, '') || 'fixture';
  const skill = join(work, name);
  if (lstatSync(fixture).isDirectory()) {
    cpSync(fixture, skill, { recursive: true, verbatimSymlinks: true });
    return skill;
  }
  mkdirSync(skill, { recursive: true });
  const ext = extname(fixture).toLowerCase();
  if (ext === '.md') {
    writeFileSync(join(skill, 'SKILL.md'), readFileSync(fixture));
    return skill;
  }
  const script = `scripts/${basename(fixture)}`;
  mkdirSync(join(skill, 'scripts'));
  writeFileSync(join(skill, script), readFileSync(fixture));
  const run = RUNNERS[ext] ?? 'sh';
  writeFileSync(
    join(skill, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Runs the bundled helper for the user's request.\n---\n\n# ${name}\n\nRun \`${run} ${script}\` and report its output.\n`,
  );
  return skill;
}

/** The fixtures of a rule folder: everything under fixtures/ (files and skill folders). */
export function fixturesOf(folder: string): string[] {
  const dir = join(folder, 'fixtures');
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function scanOptionsOf({ timeExpressions: _, ...scan }: RuleCheckOptions): ScanOptions {
  return scan;
}

async function checkFixture(
  fixture: string,
  owned: readonly string[],
  known: ReadonlySet<string>,
  options: ScanOptions,
  problems: string[],
): Promise<FixtureCheck> {
  const work = mkdtempSync(join(tmpdir(), 'skillaudit-fixture-'));
  try {
    const skillDir = layOut(fixture, work);
    const annotations = stripTree(skillDir);
    for (const a of annotations)
      for (const id of a.ids)
        if (!known.has(id))
          problems.push(`${basename(fixture)}: ${a.file}:${a.line} names unknown rule ${id}`);
    const skill = await loadSkillFolder(skillDir, {
      source: 'folder',
      uri: fixture,
      ref: null,
      commit: null,
      subdir: '.',
      owner: null,
      category: null,
    });
    const scan = await scanSkill(skill, { ...options, onlyRules: owned });
    const expected = annotations.filter((a) => a.kind === 'ruleid');
    const at = (f: Finding) => `${f.file}\0${f.line}\0${f.rule}`;
    const reported = new Set(scan.findings.map(at));
    const wanted = new Set(
      expected.flatMap((a) =>
        a.ids.filter((id) => owned.includes(id)).map((id) => `${a.file}\0${a.line}\0${id}`),
      ),
    );
    const ownedIn = (a: Annotation) => a.ids.some((id) => owned.includes(id));
    return {
      fixture: basename(fixture),
      missing: [...wanted]
        .filter((k) => !reported.has(k))
        .map((k) => {
          const [file, line, rule] = k.split('\0');
          return { file: file!, line: Number(line), rule: rule! };
        }),
      unexpected: scan.findings
        .filter((f) => !wanted.has(at(f)))
        .map((f) => ({
          file: f.file,
          line: f.line,
          rule: f.rule,
          confidence: f.confidence,
          evidence: f.evidence,
        })),
      positive: expected.some(ownedIn),
      negative: annotations.some((a) => a.kind === 'ok' && ownedIn(a)),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface RuleCheckOptions extends ScanOptions {
  /**
   * Time the rule's expressions on 1 MB adversarial lines (default on). The suite leaves it to
   * test/unit/scan/regex-backtracking.test.ts, which does it once for every built-in expression.
   */
  timeExpressions?: boolean;
}

/**
 * Checks a rule folder's fixtures against the rule (and its embedded twin), and its expressions against long
 * adversarial lines. Fails a folder with no positive or no negative fixture: a rule that nothing shows firing,
 * or nothing shows staying quiet, is untested.
 */
export async function checkRuleFolder(
  folder: string,
  rule: Rule,
  known: ReadonlySet<string>,
  options: RuleCheckOptions = {},
): Promise<RuleFolderCheck> {
  const owned = [rule.id, ...(rule.embedded ? [rule.embedded] : [])];
  const problems: string[] = [];
  const fixtures: FixtureCheck[] = [];
  for (const fixture of fixturesOf(folder)) {
    try {
      fixtures.push(await checkFixture(fixture, owned, known, scanOptionsOf(options), problems));
    } catch (error) {
      problems.push(`${basename(fixture)}: ${(error as Error).message}`);
    }
  }
  if (options.timeExpressions ?? true)
    for (const [name, why] of backtrackingExpressions(ruleExpressions(rule)))
      problems.push(`${name} back-tracks on a long line (${why}); rewrite it to run in linear time`);
  if (!fixtures.some((f) => f.positive))
    problems.push(`no positive fixture (a line annotated ruleid ${rule.id})`);
  if (!fixtures.some((f) => f.negative))
    problems.push(`no negative fixture (a line annotated ok ${rule.id})`);
  const passed =
    problems.length === 0 && fixtures.every((f) => f.missing.length === 0 && f.unexpected.length === 0);
  return { rule: rule.id, folder, fixtures, problems, passed };
}
