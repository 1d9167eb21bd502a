import { createHash } from 'node:crypto';
import type { RuleInfo } from '../core/rule.js';
import { patternById } from '../core/taxonomy.js';
import type { Finding, PatternId, Verdict, VerdictKind } from '../core/types.js';
import type { FileLines } from './instrument-report.js';
import { riskyLines } from './line-trace.js';
import { RUNTIME_RULES } from './runtime-rules.js';
import type { RunSignals } from './signals.js';

// Maps detonation evidence onto static findings as dynamic verdicts (seed 000 Table A3), and turns runtime
// behaviour no static finding explains into findings of its own.

export interface DetonationRun {
  entry: { id: string; argv: readonly string[]; origin: { file: string; line: number; endLine: number } };
  signals: RunSignals;
  /** Relative path of the run's evidence bundle in the run folder. */
  artifact: string;
  /** Why the run stopped before its end (signals.ts stoppedEarly), null when it ran to a clean end. */
  stopped: string | null;
  /** Requests the sink answered with a placeholder: nothing the code meant to download arrived. */
  fetched: string[];
  /** Lines of the skill's code the run executed (line-trace.ts); null or absent when none reported. */
  linesRun?: Record<string, number[]> | null;
  /** Why the run's line report cannot be believed (instrument-report.ts), or null. */
  forged?: string | null;
}

type Judge = (s: RunSignals) => { kind: VerdictKind; exploit: number; why: string[] } | null;

const confirmed = (exploit: number, why: string[]) => ({ kind: 'confirmed' as const, exploit, why });
const suspected = (why: string[]) => ({ kind: 'suspected' as const, exploit: 0.7, why });

function exfilWhy(s: RunSignals): string[] {
  return s.canaryExfil.map((c) => `canary ${c.canary} seen in ${c.where}`);
}
function undeclaredWhy(s: RunSignals): string[] {
  return s.undeclared.map((d) => `${d.summary}${d.bytes ? ` (${d.bytes} bytes)` : ''}`);
}
function malicious(s: RunSignals): string[] {
  return [
    ...exfilWhy(s),
    ...undeclaredWhy(s),
    ...s.credentialReads.filter((r) => r.canary).map((r) => `opened ${r.path}`),
    ...s.persistence.map((p) => `wrote ${p.root}:${p.path}`),
    ...s.privilege,
    ...s.fetchThenExec,
    ...s.decodedExec,
  ];
}

// Per pattern: the runtime behaviour that settles it. Patterns absent here cannot be observed by running the
// skill's scripts (permissions in frontmatter, pinning, naming, input validation): they keep the no_probe prior.
const JUDGES: Partial<Record<PatternId, Judge>> = {
  E2: (s) =>
    s.canaryExfil.length
      ? confirmed(0.95, exfilWhy(s))
      : s.undeclared.length
        ? suspected(undeclaredWhy(s))
        : null,
  E1: (s) => {
    // A canary sent over the network, to a declared or vendor host too, is a transmission of a secret (a canary
    // copied into a file is not a transmission: E2 and P3 weigh that).
    if (s.canaryExfil.some((c) => /^(sink|network-payload|dns) /.test(c.where)))
      return confirmed(1, [...exfilWhy(s), ...undeclaredWhy(s)]);
    const sent = s.undeclared.filter((d) => d.bytes > 0);
    if (sent.length) return confirmed(s.canaryExfil.length ? 1 : 0.9, [...exfilWhy(s), ...undeclaredWhy(s)]);
    return s.undeclared.length ? suspected(undeclaredWhy(s)) : null;
  },
  P3: (s) =>
    s.canaryExfil.length
      ? confirmed(0.95, exfilWhy(s))
      : s.undeclared.length
        ? suspected(undeclaredWhy(s))
        : null,
  PE3: (s) => {
    const canaryReads = s.credentialReads.filter((r) => r.canary);
    if (canaryReads.length)
      return confirmed(
        s.canaryExfil.length ? 1 : 0.88,
        canaryReads.map((r) => `opened ${r.path}`),
      );
    return s.credentialReads.length ? suspected(s.credentialReads.map((r) => `opened ${r.path}`)) : null;
  },
  E4: (s) => {
    const agentReads = s.credentialReads.filter((r) => /\.(claude|codex)\/|opencode/.test(r.path));
    if (agentReads.length && (s.undeclared.length || s.canaryExfil.length))
      return confirmed(0.9, malicious(s));
    return agentReads.length ? suspected(agentReads.map((r) => `opened ${r.path}`)) : null;
  },
  E3: (s) => {
    const walks = s.processes.filter((p) =>
      /\b(find|tree|du|ls -R)\b.*(\s~|\s\/\s|\$HOME|\/home|\/root)/.test(p),
    );
    return walks.length ? suspected(walks) : null;
  },
  SC2: (s) =>
    s.fetchThenExec.length
      ? confirmed(0.92, s.fetchThenExec)
      : s.undeclared.length || s.vendorInstalls.length
        ? suspected([...s.vendorInstalls, ...undeclaredWhy(s)])
        : null,
  SC3: (s) => (malicious(s).length ? confirmed(0.9, malicious(s)) : null),
  SC5: (s) => (s.undeclared.length ? suspected(undeclaredWhy(s)) : null),
  // Root for an account, sudo or setuid target is escalation; an installer's `sudo apt-get install` is not.
  PE2: (s) =>
    s.privilege.length
      ? confirmed(0.9, s.privilege)
      : s.privilegeOther.length
        ? suspected(s.privilegeOther)
        : null,
  P4: (s) =>
    s.persistence.length
      ? confirmed(
          0.92,
          s.persistence.map((p) => `wrote ${p.root}:${p.path}`),
        )
      : null,
  R3: (s) => (s.timedOut ? suspected(['the run was stopped at its time limit']) : null),
  R5: (s) =>
    s.tmpLeftovers.length
      ? confirmed(
          0.9,
          s.tmpLeftovers.map((p) => `left /tmp/${p}`),
        )
      : null,
};

/**
 * Runs whose code contains the finding: its script, its SKILL.md command block, a script that called it, or a run
 * whose line trace shows the finding's lines ran (a module the script imported).
 */
function runsFor(f: Finding, runs: readonly DetonationRun[], risky: readonly number[]): DetonationRun[] {
  return runs.filter((r) =>
    r.entry.origin.file === f.file
      ? f.line >= r.entry.origin.line && f.line <= r.entry.origin.endLine
      : ranFile(r, f.file) || ranLines(r, f.file, risky),
  );
}

function ranLines(r: DetonationRun, file: string, lines: readonly number[]): boolean {
  const ran = r.linesRun?.[file];
  return !!ran && lines.every((n) => ran.includes(n));
}

/** Whether the finding is in the command the run ran as it is written (a SKILL.md block, a package.json hook). */
function ownCommand(f: Finding, r: DetonationRun): boolean {
  return (
    r.entry.origin.file === f.file && !r.entry.argv.some((a) => a === f.file || a.endsWith(`/${f.file}`))
  );
}

/**
 * The verdict of several runs of the same code: each run is judged on its own, since a confirmation must be what
 * one run did (an agent file read in one run and a contact in another is not exfiltration); the strongest
 * outcome wins, with the reasons of every run that reached it.
 */
function judgeRuns(judge: Judge, runs: readonly DetonationRun[]): ReturnType<Judge> {
  const outcomes = runs.map((r) => judge(r.signals)).filter((o) => o !== null);
  const rank = (o: NonNullable<ReturnType<Judge>>) => (o.kind === 'confirmed' ? 1 : 0);
  const top = Math.max(-1, ...outcomes.map(rank));
  const best = outcomes.filter((o) => rank(o) === top);
  if (!best.length) return null;
  return {
    kind: best[0]!.kind,
    exploit: Math.max(...best.map((o) => o.exploit)),
    why: [...new Set(best.flatMap((o) => o.why))],
  };
}

// Patterns whose behaviour needs what a download returns (a second stage, an installer): offline, the sink's
// stand-in is all that arrives. A run that ran it is confirmed by the judge; one that fetched and did not run it
// (the code checked a digest, expected another format) cannot show whether the real download would have run.
const NEEDS_DOWNLOAD = new Set<PatternId>(['SC2', 'SC3', 'SC5']);
/** Patterns whose code hides what it does: only what it is seen doing counts, never what it did not do. */
const HIDES_INTENT = new Set<PatternId>(['SC3']);

/** Shell that runs a command in the background: a lone `&` ending it, or nohup, setsid, disown, `start /b`. */
const BACKGROUND =
  /(?<![&>|])&\s*(?:#.*)?$|\b(?:nohup|setsid|disown)\b|\bstart\s+\/b\b|\bdaemon\s*=\s*True\b|\bdetached\s*:\s*true\b/;

/** The first of the finding's risky lines that starts a command in the background, or null. */
function backgroundLine(lines: readonly string[] | null, risky: readonly number[]): number | null {
  if (!lines) return null;
  return risky.find((n) => BACKGROUND.test(lines[n - 1] ?? '')) ?? null;
}

/** Why a run does not show that the finding's behaviour is absent, or null when it ran it to the end. */
function incomplete(f: Finding, r: DetonationRun, risky: readonly number[]): string | null {
  if (r.stopped) return r.stopped;
  if (r.forged) return r.forged;
  if (NEEDS_DOWNLOAD.has(f.pattern) && r.fetched.length > 0)
    return `the run fetched ${r.fetched.slice(0, 3).join(', ')} and did not run the sandbox's stand-in second stage: what the real download would do cannot be observed offline`;
  // Code in a file is lowered only by a run whose line trace shows the finding's risky lines ran, whatever the
  // file's name: a clean end says nothing of a line never reached, and a payload in `assets/rules.dat` run by
  // python3 is code like any other. A command run as it is written ran whole when it ended cleanly.
  if (!ownCommand(f, r)) {
    if (!r.linesRun?.[f.file])
      return `no line trace covered ${f.file} in this run (TypeScript, sh, an interpreter the sandbox does not trace, or code that replaced the trace's exit hook): its end says nothing of the finding's lines`;
    const missed = risky.filter((n) => !r.linesRun![f.file]!.includes(n));
    if (missed.length)
      return `the run ended without executing ${missed.map((n) => `${f.file}:${n}`).join(' and ')} (a guard or a branch the sandbox did not take)`;
  }
  return null;
}

export function verdictFor(
  f: Finding,
  runs: readonly DetonationRun[],
  /** Entry points not run, with why (no interpreter, over the run limit, a forbidden command). */
  skipped: readonly { entry: string; reason: string }[] = [],
  /** The skill's files as lines, to find the statement a finding ends in. */
  fileLines: FileLines = () => null,
): Verdict {
  const judge = JUDGES[f.pattern];
  const risky = riskyLines(fileLines(f.file), f.line, f.endLine ?? f.line);
  const relevant = runsFor(f, runs, risky);
  if (!judge || relevant.length === 0) {
    // Say why the finding's code was not run, when it was an entry point that could not be.
    const notRun = judge
      ? skipped
          .filter((s) =>
            [f.file, `${f.file}:${f.line}`].some((e) => s.entry === e || s.entry.startsWith(`${e} `)),
          )
          .map((s) => `\`${s.entry}\` was not run: ${s.reason}`)
      : [];
    return { finding: f.id, kind: 'no_probe', exploitConfidence: 0.6, evidence: notRun.slice(0, 5) };
  }
  const outcome = judgeRuns(judge, relevant);
  const artifacts = relevant.map((r) => r.artifact);
  if (outcome) {
    return {
      finding: f.id,
      kind: outcome.kind,
      exploitConfidence: outcome.exploit,
      evidence: [...outcome.why.slice(0, 20), ...artifacts],
    };
  }
  const expected = [...new Set(relevant.flatMap((r) => r.signals.expectedCredentialUse))].map(
    (u) => `expected: ${u}`,
  );
  // Only a run that completed lowers the finding: the code ran to its end (with benign inputs) and did none of
  // what the finding predicts. A run that died on a missing module, a failed download, a guard or the clock
  // says nothing about the code it never reached, so the finding keeps the no_probe prior, with the reason.
  // A risky line that starts its command in the background (`curl … &`, nohup, setsid) may still be running, or
  // be killed, when the run ends: the run's clean end says nothing of what the command would have sent.
  const background = backgroundLine(fileLines(f.file), risky);
  const why = (r: DetonationRun) =>
    incomplete(f, r, risky) ??
    (background
      ? `${f.file}:${background} starts its command in the background; the run ended without showing what it did`
      : null);
  const completed = relevant.filter((r) => why(r) === null);
  // Hidden code that did nothing in the sandbox may have recognised it: its quiet run is no evidence.
  if (completed.length > 0 && HIDES_INTENT.has(f.pattern)) {
    return {
      finding: f.id,
      kind: 'no_probe',
      exploitConfidence: 0.6,
      evidence: [
        'the hidden code ran and did nothing observable; evasive code stays quiet where it suspects analysis, so a quiet run does not lower this finding',
        ...expected,
        ...artifacts,
      ],
    };
  }
  if (completed.length === 0) {
    return {
      finding: f.id,
      kind: 'no_probe',
      exploitConfidence: 0.6,
      evidence: [
        ...relevant.map((r) => `\`${r.entry.id}\`: ${why(r)}`).slice(0, 10),
        ...expected,
        ...artifacts,
      ],
    };
  }
  return {
    finding: f.id,
    kind: 'path_exists_not_triggered',
    exploitConfidence: 0.3,
    evidence: [...expected, ...completed.map((r) => r.artifact)],
  };
}

function runtimeFinding(
  rule: RuleInfo,
  run: DetonationRun,
  file: string,
  evidence: string[],
  confidence: number,
): Finding {
  const pattern = patternById(rule.pattern);
  const quoted = evidence.slice(0, 6).join('\n');
  return {
    id: createHash('sha256').update(`${rule.id}\0${run.entry.id}\0${quoted}`).digest('hex').slice(0, 16),
    pattern: pattern.id,
    family: pattern.family,
    severity: pattern.severity,
    confidence,
    file,
    line: file === run.entry.origin.file ? run.entry.origin.line : 1,
    endLine: file === run.entry.origin.file ? run.entry.origin.endLine : 1,
    evidence: quoted,
    rule: rule.id,
    message: rule.message,
    rationale: `runtime evidence from detonating \`${run.entry.id}\` (${run.artifact})`,
  };
}

// Static patterns that already account for each kind of runtime behaviour.
const EXPLAINED_BY: Record<keyof typeof RUNTIME_RULES, PatternId[]> = {
  canaryExfil: ['E2', 'E1', 'P3'],
  credentialRead: ['PE3', 'E4'],
  undeclaredDestination: ['E1', 'E2', 'P3', 'SC2', 'SC3', 'SC5'],
  persistence: ['P4'],
  privilege: ['PE2'],
  fetchExec: ['SC2', 'SC3'],
  decodedExec: ['SC3', 'SC2'],
};

function namesFile(process: string, file: string): boolean {
  const name = file.split('/').pop()!;
  return process.split(/\s+/).some((t) => t.endsWith(`/${file}`) || t === name || t.endsWith(`/${name}`));
}

/** Whether a run executed `file`: it is the run's origin, or a process named it (by path or file name). */
function ranFile(run: DetonationRun, file: string): boolean {
  return run.entry.origin.file === file || run.signals.processes.some((p) => namesFile(p, file));
}

/** The skill file a run's behaviour belongs to: the last script its processes started, else its origin. */
function attributedFile(run: DetonationRun, scripts: readonly string[]): string {
  for (const p of [...run.signals.processes].reverse()) {
    const file = scripts.find((f) => namesFile(p, f));
    if (file) return file;
  }
  return run.entry.origin.file;
}

/** Runtime behaviour that no static finding of an explaining pattern, in code the run executed, accounts for. */
export function runtimeFindings(
  staticFindings: readonly Finding[],
  runs: readonly DetonationRun[],
  scripts: readonly string[],
): { finding: Finding; verdict: Verdict }[] {
  const out: { finding: Finding; verdict: Verdict }[] = [];
  const add = (kind: keyof typeof RUNTIME_RULES, run: DetonationRun, evidence: string[], exploit: number) => {
    if (evidence.length === 0) return;
    const patterns = EXPLAINED_BY[kind];
    const file = attributedFile(run, scripts);
    const explained = [...staticFindings, ...out.map((o) => o.finding)].some(
      (f) => patterns.includes(f.pattern) && (f.file === file || ranFile(run, f.file)),
    );
    if (explained) return;
    const finding = runtimeFinding(RUNTIME_RULES[kind], run, file, evidence, 1);
    out.push({
      finding,
      verdict: {
        finding: finding.id,
        kind: 'confirmed',
        exploitConfidence: exploit,
        evidence: [run.artifact],
      },
    });
  };
  for (const run of runs) {
    const s = run.signals;
    add('canaryExfil', run, exfilWhy(s), 1);
    add(
      'credentialRead',
      run,
      s.credentialReads.filter((r) => r.canary).map((r) => `opened ${r.path}`),
      0.88,
    );
    add(
      'undeclaredDestination',
      run,
      s.undeclared.filter((d) => d.bytes > 0).map((d) => d.summary),
      0.9,
    );
    add(
      'persistence',
      run,
      s.persistence.map((p) => `wrote ${p.root}:${p.path}`),
      0.92,
    );
    add('privilege', run, s.privilege, 0.9);
    add('fetchExec', run, s.fetchThenExec, 0.92);
    add('decodedExec', run, s.decodedExec, 0.9);
  }
  return out;
}
