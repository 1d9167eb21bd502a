import type { DetonationCoverage, MissingDependency } from '../core/coverage-types.js';
import type { EvidenceBundle } from '../sandbox/evidence.js';
import type { EntryPoint } from './entry-points.js';

// What the detonation covered, said outright: how many runs reached the skill's code, which died on a missing
// module, program or interpreter (and which), which scripts or commands the run budget or a missing
// interpreter left out, and a headline that never reads "no network attempts, no canary hits" over runs that
// all crashed.

// The name of what was missing, from the error text interpreters and shells print.
const MISSING: { kind: MissingDependency['kind']; re: RegExp }[] = [
  { kind: 'module', re: /No module named '?([\w.-]+)'?/ },
  { kind: 'module', re: /Cannot find (?:module|package) '([^']+)'/ },
  { kind: 'module', re: /Can't locate (\S+) in @INC/ },
  { kind: 'module', re: /cannot load such file -- (\S+)/ },
  { kind: 'interpreter', re: /^(\w+): ([^;\n]+) is not installed in the sandbox/m },
  { kind: 'program', re: /(?:^|\s)(?:\S+: )?(?:line \d+: )?([\w.+-]+): (?:command )?not found/m },
];

/** How shells say a command is missing. */
export const NOT_FOUND = /command not found|: not found/;

/**
 * Whether a program missing from the sandbox ended the run. A shell reports a missing command and goes on to
 * the next line, so a script that named one Windows or macOS tool in passing still ran the rest: the run died on
 * it only when the shell's status says so (127) or the complaint is the last thing it printed.
 */
export function diedOnMissingProgram(stderr: string, exitCode: number | null): boolean {
  if (exitCode === 127) return true;
  const last = stderr.trimEnd().split('\n').pop() ?? '';
  return NOT_FOUND.test(last);
}

/** The dependency a run died on, read from its output, or null. */
export function missingDependency(
  output: string,
  /** The run's stderr and exit status: a missing program it went on past is not what it died on. */
  run?: { stderr: string; exitCode: number | null },
): { kind: MissingDependency['kind']; name: string } | null {
  for (const { kind, re } of MISSING) {
    const m = re.exec(output);
    if (!m) continue;
    if (kind === 'program' && run && !diedOnMissingProgram(run.stderr, run.exitCode)) continue;
    return { kind, name: (kind === 'interpreter' ? m[2] : m[1])!.trim() };
  }
  return null;
}

interface CoverageRun {
  entry: EntryPoint;
  evidence: EvidenceBundle;
  exitCode: number | null;
  stopped: string | null;
  shimsUsed: string[];
  instruments: { standIns: readonly string[]; installsCut: readonly string[] };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function detonationCoverage(
  runs: readonly CoverageRun[],
  skipped: readonly { entry: string; reason: string }[],
  scripts: readonly string[],
  /** What the sandbox provided because the skill asked for it (environment names, named input files). */
  provided: readonly string[] = [],
): DetonationCoverage {
  const missing = new Map<string, MissingDependency>();
  let reachedCode = 0;
  for (const r of runs) {
    const dep =
      r.exitCode !== 0
        ? missingDependency(`${r.evidence.stderr}\n${r.evidence.stdout}`, {
            stderr: r.evidence.stderr,
            exitCode: r.exitCode,
          })
        : null;
    if (!dep) {
      reachedCode++;
      continue;
    }
    const key = `${dep.kind}:${dep.name}`;
    const entry = missing.get(key) ?? { ...dep, runs: [] };
    entry.runs.push(r.entry.id);
    missing.set(key, entry);
  }
  const completed = runs.filter((r) => r.stopped === null).length;
  const overBudget = skipped.filter((s) => /^over the limit of/.test(s.reason)).map((s) => s.entry);
  const ran = new Set(runs.map((r) => r.entry.origin.file));
  const scriptsNotRun = scripts
    .filter(
      (f) =>
        !ran.has(f) &&
        !runs.some((r) => r.evidence.processes.some((p) => p.argv.some((a) => a.endsWith(`/${f}`)))),
    )
    .map((file) => ({
      file,
      reason:
        skipped.find((s) => s.entry === file || s.entry.startsWith(`${file} `))?.reason ??
        'no entry point ran it',
    }));
  const shims = [...new Set(runs.flatMap((r) => r.shimsUsed.map((s) => s.split(' ')[0]!)))];
  const standIns = [...new Set(runs.flatMap((r) => r.instruments.standIns))];
  const installs = [...new Set(runs.flatMap((r) => r.instruments.installsCut))];
  const deps = [...missing.values()];
  const cov = {
    runs: runs.length,
    reachedCode,
    completed,
    missing: deps,
    overBudget,
    scriptsNotRun,
    shims,
    standIns,
    installsCut: installs,
    provided: [...provided],
  };
  // Runs the list shows with exit code 0 that still did not end cleanly: the headline counts them in words.
  const shortOfEnd = runs.filter((r) => r.exitCode === 0 && r.stopped !== null).length;
  return { ...cov, headline: headline(cov, shortOfEnd) };
}

function headline(c: Omit<DetonationCoverage, 'headline'>, shortOfEnd: number): string {
  const zero = shortOfEnd
    ? ` ${plural(shortOfEnd, 'run')} exited 0 but stopped short of a clean end (a guard, a stand-in module or an install that could not complete offline; each run says which).`
    : '';
  return runsHeadline(c) + zero;
}

function runsHeadline(c: Omit<DetonationCoverage, 'headline'>): string {
  const died = c.missing.map((m) => `${m.kind} ${m.name}`).join(', ');
  const left = [
    c.overBudget.length ? `${plural(c.overBudget.length, 'entry point')} left out by the run budget` : '',
    c.scriptsNotRun.length ? `${plural(c.scriptsNotRun.length, 'script')} not run` : '',
  ].filter(Boolean);
  const tail = left.length ? `; ${left.join(', ')}` : '';
  const every = c.runs === 1 ? 'the only run' : `all ${c.runs} runs`;
  const stoodIn =
    (c.standIns?.length ? `; inert stand-ins for missing modules or tools: ${c.standIns.join(', ')}` : '') +
    (c.installsCut?.length ? `; ${plural(c.installsCut.length, 'install')} could not complete offline` : '');
  if (c.runs === 0) return `Nothing ran${tail}: there is no runtime evidence either way.`;
  if (c.reachedCode === 0)
    return `No run reached the skill's code: ${every} died on a missing dependency (${died})${tail}. The evidence below is no sign of safety.`;
  if (c.completed === 0)
    return `${every[0]!.toUpperCase()}${every.slice(1)} stopped before a clean end (${c.reachedCode} reached the skill's code${died ? `; missing: ${died}` : ''}${stoodIn})${tail}. What is absent below may simply not have been reached.`;
  return `${plural(c.runs, 'run')}: ${c.reachedCode} reached the skill's code, ${c.completed} ran to a clean end${died ? `; missing: ${died}` : ''}${stoodIn}${tail}.`;
}
