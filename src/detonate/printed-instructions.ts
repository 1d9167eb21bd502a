import { isImperative } from '../core/markdown/framing.js';
import type { Finding, Skill, Verdict } from '../core/types.js';
import { reachableScripts, scanPrintedText } from '../scan/index.js';
import type { EntryPoint } from './entry-points.js';

// A command SKILL.md tells the agent (or the user) to run and follow prints what is followed next. When it builds
// that text at run time (a shifted char-code list, a XOR with a key, a decode chain no static decoder knows), no
// text scan sees it; the run does. Its output is read as instructions, and what the static scan of the skill
// did not already find is reported as suspected at runtime: the output was seen, its reading is the text rules'.

/** Commands whose output someone is told to follow: the agent's commands and the user's setup steps. */
const FOLLOWED: ReadonlySet<EntryPoint['runAs']> = new Set(['instruction', 'user-setup']);

/**
 * Whether the agent reads what the run printed: a command SKILL.md gives, or a plain run of a script its
 * instructions name (the command that names it may be written in prose, or framed so it is not run as such).
 */
function followed(entry: EntryPoint, named: ReadonlySet<string>): boolean {
  if (FOLLOWED.has(entry.runAs)) return true;
  return entry.runAs === 'script' && entry.id === entry.origin.file && named.has(entry.origin.file);
}
/** The agent reads the start of a long output; a run's capture is already cut at the sandbox's output limit. */
const MAX_PRINTED = 64 * 1024;

interface PrintedRun {
  entry: EntryPoint;
  evidence: { stdout: string; stderr: string };
  artifact: string;
}

/**
 * Whether the output tells its reader to do anything. A program's report ("Error: failed to create cron job",
 * git's "create mode 100644 …") describes what happened; steps to follow order something in some line.
 */
function ordersSomething(text: string): boolean {
  return text
    .split(/\n|(?<=[.!?])\s+/)
    .slice(0, 400)
    .some((line) => isImperative(line));
}

function overlaps(a: Finding, b: Finding): boolean {
  return a.rule === b.rule && a.file === b.file && a.line <= b.endLine && b.line <= a.endLine;
}

function sameText(a: Finding, b: Finding): boolean {
  return a.rule === b.rule && a.evidence === b.evidence;
}

/** Findings in what the followed runs printed that the static findings do not already hold, each suspected. */
export async function printedInstructions(
  skill: Skill,
  runs: readonly PrintedRun[],
  staticFindings: readonly Finding[],
  /** The skill's folder in the sandbox, as absolute and workspace-relative paths (under `.claude/skills/`). */
  skillDirs: readonly string[],
): Promise<{ finding: Finding; verdict: Verdict }[]> {
  const out: { finding: Finding; verdict: Verdict }[] = [];
  const named = reachableScripts(skill);
  for (const run of runs) {
    if (!followed(run.entry, named)) continue;
    // A path into the skill's own folder names its files, not an agent's configuration folder to be changed.
    let text = [run.evidence.stdout, run.evidence.stderr]
      .filter((t) => t.trim())
      .join('\n')
      .slice(0, MAX_PRINTED);
    for (const dir of skillDirs) text = text.replaceAll(`${dir}/`, '').replaceAll(dir, '.');
    if (!ordersSomething(text)) continue;
    const { file, line, endLine } = run.entry.origin;
    const found = await scanPrintedText(skill, {
      text,
      file,
      line,
      endLine,
      command: run.entry.id,
    });
    for (const finding of found) {
      if (staticFindings.some((f) => overlaps(f, finding))) continue;
      // The same text printed by two runs (a SKILL.md command and the plain run of the script it names).
      if (out.some(({ finding: f }) => overlaps(f, finding) || sameText(f, finding))) continue;
      out.push({
        finding,
        verdict: {
          finding: finding.id,
          kind: 'suspected',
          exploitConfidence: 0.7,
          evidence: [`${run.entry.id} printed this when it ran: ${finding.evidence}`, run.artifact],
        },
      });
    }
  }
  return out;
}
