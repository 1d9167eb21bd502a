import { followsOutput, isImperative } from '../core/markdown/framing.js';
import type { Finding, Skill, Verdict } from '../core/types.js';
import { reachableScripts, scanPrintedText } from '../scan/index.js';
import type { EntryPoint } from './entry-points.js';

// A command SKILL.md tells the agent to run and follow ("run this and do what it says") prints what the agent
// does next. When it builds that text at run time (a shifted char-code list, a XOR with a key it hashes, a decode
// chain no static decoder knows), no text scan sees it; the run does. Its output is read as instructions, and
// what the static scan of the skill did not already find is reported as suspected at runtime: the output was
// seen, its reading is the text rules'. Output the skill does not tell anyone to follow is a tool's result (a
// scanner quoting attacks, a linter's advice): not read.

/** Commands that SKILL.md gives: the agent's commands and the user's setup steps. */
const COMMANDS: ReadonlySet<EntryPoint['runAs']> = new Set(['instruction', 'user-setup']);
/** The agent reads the start of a long output; a run's capture is already cut at the sandbox's output limit. */
const MAX_PRINTED = 64 * 1024;

/** The lines of SKILL.md around a command, or around each mention of a script: where it is told what to do. */
function contextOf(entry: EntryPoint, skillMd: readonly string[]): string {
  if (entry.origin.file === 'SKILL.md')
    return skillMd.slice(Math.max(0, entry.origin.line - 5), entry.origin.endLine + 3).join(' ');
  const base = entry.origin.file.split('/').pop()!;
  return skillMd
    .flatMap((line, i) => (line.includes(base) ? skillMd.slice(Math.max(0, i - 4), i + 4) : []))
    .join(' ');
}

/**
 * Whether SKILL.md tells its reader to follow what the run printed: a command it gives, or the plain run of a
 * script its instructions name, with "follow what it prints", "do what it says", "follow them" around it.
 */
function followed(entry: EntryPoint, named: ReadonlySet<string>, skillMd: readonly string[]): boolean {
  const plainScript =
    entry.runAs === 'script' && entry.id === entry.origin.file && named.has(entry.origin.file);
  return (COMMANDS.has(entry.runAs) || plainScript) && followsOutput(contextOf(entry, skillMd));
}

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
  const skillMd = (skill.files.find((f) => f.path === 'SKILL.md')?.text ?? '').split('\n');
  for (const run of runs) {
    if (!followed(run.entry, named, skillMd)) continue;
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
