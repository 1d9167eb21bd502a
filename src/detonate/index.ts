import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DetonationCoverage } from '../core/coverage-types.js';
import { isDeclared } from '../core/hosts.js';
import type { Finding, Skill, Verdict } from '../core/types.js';
import { findCanaryHits, STANDARD_ENV_CANARIES } from '../sandbox/canaries.js';
import type { EvidenceBundle } from '../sandbox/evidence.js';
import { createSandbox, SANDBOX_INNER_PATHS } from '../sandbox/index.js';
import type { SandboxLimits, SeedFile } from '../sandbox/types.js';
import { declaredHosts } from '../scan/index.js';
import { errorMessage } from '../util/errors.js';
import { laterClockEnv, laterEntry, libfaketime, readsClock } from './clock.js';
import { detonationCoverage } from './coverage.js';
import { apiAnswer, type DataShape, dataShape, stdinFor } from './data-shape.js';
import { type EntryPoint, findEntryPoints, SANDBOX_PATH } from './entry-points.js';
import { keyNamedFor } from './host-names.js';
import {
  channelKey,
  type FileLines,
  type InstrumentReport,
  placeInstruments,
  takeReport,
} from './instrument-report.js';
import { BASH_TRACE_FILE, lineTraceSeedFiles, NODE_TRACE_FILE } from './line-trace.js';
import { retryForMissingFile } from './missing-files.js';
import { NODE_STAND_IN_FILE, nodeStandInSeedFiles } from './module-stand-ins.js';
import { NODE_TIMERS_FILE, nodeTimerSeedFiles } from './node-timers.js';
import { printedInstructions } from './printed-instructions.js';
import { projectSeedFiles } from './project.js';
import { PY_SITE_DIR, pythonFallbackSeedFiles } from './python-fallbacks.js';
import { namedServices, referencedHosts } from './referenced-hosts.js';
import { sampleFileFor, sampleInputs } from './samples.js';
import { type ScriptEnv, scriptEnv } from './script-env.js';
import { keyNamedForService } from './service-hosts.js';
import { SHIM_HOME_DIR, shimOf, shimSeedFiles } from './shims.js';
import { fetchedNothing, readSignals, stoppedEarly } from './signals.js';
import { toolCredentialUse } from './tool-credentials.js';
import { typescriptLoader } from './typescript-loader.js';
import { type DetonationRun, runtimeFindings, verdictFor } from './verdicts.js';

// Detonation: the skill's own scripts and the commands SKILL.md tells the agent to run, each run in a fresh
// instrumented sandbox seeded with canary secrets and a network sink, with benign inputs; the evidence then
// settles the static findings (verdicts) and shows behaviour the static scan missed (runtime findings).

export interface DetonateOptions {
  /** Limits of each run; the defaults keep a whole detonation to about a minute. */
  limits?: Partial<SandboxLimits>;
  /** At most this many runs per skill (SKILL.md commands first, then scripts). */
  maxRuns?: number;
  /** Runs at once. */
  concurrency?: number;
  /**
   * The whole detonation's wall time in ms (default 30 s): runs start only while enough of it is left, each is
   * cut to what remains, and those left out are listed as over the limit.
   */
  timeBudgetMs?: number;
  /** Where each run's evidence bundle is written (`<dir>/<n>.json`); kept in memory only when absent. */
  writeEvidence?: (name: string, evidence: EvidenceBundle & { entry: EntryPoint }) => Promise<string>;
}

export interface RunOutcome {
  entry: EntryPoint;
  exitCode: number | null;
  timedOut: boolean;
  wallMs: number;
  evidence: EvidenceBundle;
  artifact: string;
  /** Canary tokens that left the sandbox in this run (proof of exfiltration), after expected key use is removed. */
  canaryHits: { canary: string; where: string }[];
  /** A tool's use of its own credential (npm's token to its registry): expected, shown, never a confirmation. */
  expectedCredentialUse: string[];
  /** Why the run stopped before a clean end (a missing module, a failed download, a guard, the clock), or null. */
  stopped: string | null;
  /** Platform shims the run called (`base64 -D`, `osascript`): what of it ran on a stand-in (shims.ts). */
  shimsUsed: string[];
  /** Lines of the skill's code the run executed, by file; null when none were reported (line-trace.ts). */
  linesRun: Record<string, number[]> | null;
  /** What the sandbox's instruments reported besides the lines (instrument-report.ts). */
  instruments: Omit<InstrumentReport, 'stderr' | 'linesRun'>;
}

export interface DetonationResult {
  runs: RunOutcome[];
  verdicts: Verdict[];
  runtimeFindings: Finding[];
  skipped: { entry: string; reason: string }[];
  /** How much of the skill the runs reached, and what they died on (coverage.ts). */
  coverage: DetonationCoverage;
}

const DEFAULT_WALL_MS = 15_000;
const DEFAULT_LIMITS: Partial<SandboxLimits> = {
  wallMs: DEFAULT_WALL_MS,
  cpuSeconds: 10,
  maxOutputBytes: 256 * 1024,
};
const DEFAULT_TIME_BUDGET_MS = 30_000;
// A run needs its sandbox set up before and its evidence read after: no run starts with less than this left,
// and each keeps this margin of the budget for reading its evidence.
const MIN_RUN_MS = 3_000;
const READ_MARGIN_MS = 1_500;

/** Where the skill sits in the sandbox workspace: where agents install it. */
function skillRelDir(skill: Skill): string {
  return `.claude/skills/${skill.folderName.replace(/[^\w.-]/g, '_') || 'skill'}`;
}

/** Node's arguments that load tsx, for the sandbox's `npx tsx` and `tsx` shims; null when there is no loader. */
function tsxNodeArgs(): string[] | null {
  const loader = typescriptLoader();
  return typeof loader === 'string' ? null : loader.nodeArgs;
}

async function seedFiles(
  skill: Skill,
  samples: ReturnType<typeof sampleInputs>,
  key: string,
  skillDir: string,
): Promise<SeedFile[]> {
  const rel = skillRelDir(skill);
  const files: SeedFile[] = [];
  for (const f of skill.files) {
    // Text files come from intake's copy; binaries are read from the intake folder (still open).
    const content =
      f.text !== null && !f.truncated ? f.text : await readFile(join(skill.root, f.path)).catch(() => null);
    if (content === null) continue;
    files.push({ path: `${rel}/${f.path}`, content, mode: f.kind === 'script' ? 0o755 : 0o644 });
  }
  for (const s of samples) files.push({ path: `inputs/${s.name}`, content: s.content });
  files.push(
    ...projectSeedFiles(),
    ...placeInstruments(
      [
        ...shimSeedFiles(tsxNodeArgs()),
        ...pythonFallbackSeedFiles(),
        ...nodeStandInSeedFiles(),
        ...nodeTimerSeedFiles(),
        ...lineTraceSeedFiles(),
      ],
      key,
      skillDir,
    ),
  );
  return files;
}

/** What every run of one skill is given alike. */
interface RunContext {
  knownHosts: string[];
  /** libfaketime's path, for an entry to be run later (entry.later); null when the host has none. */
  faketime: string | null;
  env: ScriptEnv;
  /** The JSON the sink answers API calls with: the fields the skill's scripts read (data-shape.ts). */
  apiAnswer: string;
  /** This entry's standard input (data-shape.ts stdinFor). */
  stdin: string;
  /** The fields the skill's scripts read: the shape of a sample file a run is given (entry.given). */
  shape: DataShape;
  /** The skill's folder inside the sandbox: whose code's lines are traced (line-trace.ts). */
  skillDir: string;
  /** The instruments' report key for this detonation (instrument-report.ts). */
  key: string;
  fileLines: FileLines;
}

async function runEntry(
  entry: EntryPoint,
  files: SeedFile[],
  limits: Partial<SandboxLimits>,
  { knownHosts, faketime, env, apiAnswer, stdin, shape, skillDir, key, fileLines }: RunContext,
): Promise<{
  exitCode: number | null;
  timedOut: boolean;
  wallMs: number;
  evidence: EvidenceBundle;
  linesRun: Record<string, number[]> | null;
  instruments: RunOutcome['instruments'];
}> {
  const given = entry.given
    ? [{ path: entry.given, content: sampleFileFor(entry.given.split('/').pop()!, shape) }]
    : [];
  const sandbox = await createSandbox({
    seedCanaries: true,
    envCanaries: env.secrets,
    apiAnswer,
    files: [...files, ...given],
    knownHosts,
    readOnlyPaths: entry.readOnlyPaths ?? [],
  });
  try {
    const run = (clock: Record<string, string>, runLimits: Partial<SandboxLimits>) =>
      sandbox.run({
        argv: entry.argv,
        env: {
          // The platform shims first, so a macOS spelling reaches the payload instead of failing (shims.ts).
          PATH: `${sandbox.inner.home}/${SHIM_HOME_DIR}:${SANDBOX_PATH}`,
          HOME: sandbox.inner.home,
          // Only sitecustomize lives there: it appends the fallback modules after everything installed.
          PYTHONPATH: `${sandbox.inner.home}/${PY_SITE_DIR}`,
          // Stand-ins for Node modules the sandbox lacks (module-stand-ins.ts) and shortened long waits
          // (node-timers.ts) and the lines of the skill's JavaScript that ran (line-trace.ts); Python's come with sitecustomize.
          NODE_OPTIONS: [NODE_STAND_IN_FILE, NODE_TIMERS_FILE, NODE_TRACE_FILE]
            .map((f) => `--require ${sandbox.inner.home}/${f}`)
            .join(' '),
          // No __pycache__ folders: sitecustomize and the scripts' own bytecode are not files the skill wrote.
          PYTHONDONTWRITEBYTECODE: '1',
          // sitecustomize, Node's preload and bash's BASH_ENV report the lines of the skill's code the run
          // executed (line-trace.ts).
          BASH_ENV: `${sandbox.inner.home}/${BASH_TRACE_FILE}`,
          // tsx's transform cache would be a file the skill seemed to leave in /tmp.
          TSX_DISABLE_CACHE: '1',
          LANG: 'C.UTF-8',
          TERM: 'dumb',
          ...env.values,
          ...clock,
        },
        cwd: entry.cwd,
        stdin,
        limits: runLimits,
        network: 'sink',
      });
    const lib = entry.later ? faketime : null;
    // A later run follows a first one in the same sandbox (its markers and files stay); the later one is
    // recorded. The two share the run's time.
    const each = lib ? { ...limits, wallMs: Math.floor((limits.wallMs ?? DEFAULT_WALL_MS) / 2) } : limits;
    if (lib) await run({}, each);
    const result = await run(lib ? laterClockEnv(lib) : {}, each);
    const { stderr, linesRun, ...instruments } = takeReport(result.evidence.stderr, key, skillDir, fileLines);
    return {
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      wallMs: result.wallMs,
      evidence: { ...result.evidence, stderr },
      linesRun,
      instruments,
    };
  } finally {
    await sandbox.dispose();
  }
}

/**
 * Entry points whose code carries a medium or high finding first, each group in its own order: when a skill
 * has more entry points than the run budget (a repository of 80 scripts), the budget goes to the code the
 * static scan flagged instead of the first scripts in file order.
 */
function byFindings(entries: EntryPoint[], findings: readonly Finding[]): EntryPoint[] {
  const flagged = (e: EntryPoint) =>
    findings.some(
      (f) =>
        f.severity !== 'low' &&
        f.file === e.origin.file &&
        (e.origin.file !== 'SKILL.md' || (f.line >= e.origin.line && f.line <= e.origin.endLine)),
    );
  return [...entries.filter(flagged), ...entries.filter((e) => !flagged(e))];
}

/** Each platform shim call of a run, once, as `name args`. */
function shimsUsed(evidence: EvidenceBundle): string[] {
  const calls = new Set<string>();
  for (const p of evidence.processes) {
    const shim = shimOf(p.executable, SANDBOX_INNER_PATHS.home);
    if (shim) calls.add([shim, ...p.argv.slice(1)].join(' ').slice(0, 160));
  }
  return [...calls];
}

/** Top-level Python modules a skill ships: `x` for x.py or x/__init__.py anywhere in it. */
function pythonModules(skill: Skill): Set<string> {
  const out = new Set<string>();
  for (const f of skill.files) {
    const m = /(?:^|\/)([\w-]+)(?:\.py|\/__init__\.py|\/__main__\.py)$/.exec(f.path);
    if (m) out.add(m[1]!);
  }
  return out;
}

/** Bounded parallel map that keeps order. */
async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

export async function detonateSkill(
  skill: Skill,
  findings: readonly Finding[],
  options: DetonateOptions = {},
): Promise<DetonationResult> {
  const samples = sampleInputs(skill);
  const rel = skillRelDir(skill);
  const byPath = new Map(skill.files.map((f) => [f.path, f]));
  const split = new Map<string, string[] | null>();
  const fileLines: FileLines = (path) => {
    if (!split.has(path)) {
      const f = byPath.get(path);
      split.set(path, f?.text != null && !f.truncated ? f.text.split('\n') : null);
    }
    return split.get(path)!;
  };
  const inner = SANDBOX_INNER_PATHS;
  const layout = {
    skillDir: `${inner.workspace}/${rel}`,
    inputsDir: `${inner.workspace}/inputs`,
    home: inner.home,
  };
  const found = findEntryPoints(skill, layout, samples);
  const maxRuns = options.maxRuns ?? 24;
  // Flagged code first, always: the run budget and the time budget both cut from the end.
  const ranked = byFindings(found.entries, findings);
  const entries = ranked.slice(0, maxRuns);
  const skipped = [
    ...found.skipped.map((s) => ({ entry: s.file, reason: s.reason })),
    ...ranked.slice(maxRuns).map((e) => ({ entry: e.id, reason: `over the limit of ${maxRuns} runs` })),
  ];
  // Each detonation's instruments report under a key of their own (instrument-report.ts).
  const key = channelKey();
  const files = await seedFiles(skill, samples, key, layout.skillDir);
  // Input files SKILL.md's commands name, where the commands run (the skill's folder), and the
  // ES module twins of TypeScript scripts with top-level await (esModuleTwin), beside their scripts.
  for (const f of [...found.inputs, ...found.twins])
    files.push({ path: `${rel}/${f.path}`, content: f.content });
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const hosts = declaredHosts(skill);
  const knownHosts = referencedHosts(skill);
  const services = namedServices(skill);
  const modules = pythonModules(skill);
  const lib = libfaketime();
  const env = scriptEnv(skill, layout.inputsDir, STANDARD_ENV_CANARIES);
  const context: Omit<RunContext, 'stdin'> = {
    knownHosts,
    faketime: lib,
    env,
    apiAnswer: apiAnswer(dataShape(skill), [...hosts][0]),
    shape: dataShape(skill),
    skillDir: layout.skillDir,
    key,
    fileLines,
  };

  const budgetMs = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const deadline = performance.now() + budgetMs;
  const runBatch = (batch: EntryPoint[], first: number) =>
    mapLimit(batch, options.concurrency ?? 2, async (entry, i) => {
      const left = deadline - performance.now() - READ_MARGIN_MS;
      if (left < MIN_RUN_MS) {
        skipped.push({
          entry: entry.id,
          reason: `over the limit of ${budgetMs / 1000} s for the whole detonation`,
        });
        return null;
      }
      try {
        const runLimits = { ...limits, wallMs: Math.min(limits.wallMs ?? DEFAULT_WALL_MS, Math.floor(left)) };
        const run = await runEntry(entry, files, runLimits, { ...context, stdin: stdinFor(skill, entry) });
        const name = `run-${String(first + i + 1).padStart(2, '0')}`;
        const artifact = options.writeEvidence
          ? await options.writeEvidence(name, { ...run.evidence, entry })
          : `run-${first + i + 1}`;
        const outcome: RunOutcome = {
          entry,
          ...run,
          artifact,
          canaryHits: [],
          expectedCredentialUse: [],
          stopped: stoppedEarly(run.evidence, run.exitCode, run.timedOut, entry.runAs, run.instruments),
          shimsUsed: shimsUsed(run.evidence),
        };
        return outcome;
      } catch (error) {
        skipped.push({ entry: entry.id, reason: `sandbox run failed: ${errorMessage(error)}` });
        return null;
      }
    });
  const firstRuns = (await runBatch(entries, 0)).filter((o): o is RunOutcome => o !== null);
  // Code that stopped on a file it could not open runs again from the project's root, or given a sample of
  // it (missing-files.ts), within the run budget.
  const retries = firstRuns.flatMap((r) => retryForMissingFile(r, inner) ?? []);
  // A script that reads the clock runs again later (clock.ts), once, from its plain run. Both kinds of second
  // run share what is left of the budget, project-root runs first.
  const clockScripts = new Set(
    skill.files.filter((f) => f.kind === 'script' && readsClock(f.text ?? '')).map((f) => f.path),
  );
  const later = firstRuns
    .filter((r) => r.entry.runAs === 'script' && r.entry.id === r.entry.origin.file)
    .filter((r) => clockScripts.has(r.entry.origin.file))
    .map((r) => laterEntry(r.entry));
  if (!lib) {
    for (const e of later)
      skipped.push({
        entry: e.id,
        reason: 'libfaketime is not installed: code that waits for a date was not run later',
      });
  }
  const second = [...retries, ...(lib ? later : [])];
  const again = second.slice(0, Math.max(0, maxRuns - entries.length));
  for (const e of second.slice(again.length))
    skipped.push({ entry: e.id, reason: `over the limit of ${maxRuns} runs` });
  const runs = [
    ...firstRuns,
    ...(await runBatch(again, entries.length)).filter((o): o is RunOutcome => o !== null),
  ];

  const toolUse = new Map<RunOutcome, ReturnType<typeof toolCredentialUse>>();
  for (const r of runs) {
    const allProofs = findCanaryHits(r.evidence).filter((h) => h.proof);
    const own = toolCredentialUse(r.evidence, allProofs, modules);
    r.expectedCredentialUse = [...own.notes];
    toolUse.set(r, { ...own, notes: r.expectedCredentialUse });
    const proofs = allProofs.filter((h) => !own.hits.has(h));
    // One environment key sent to a host the skill declares, or to the vendor it is named for (NOTION_TOKEN to
    // api.notion.com, FIREBASE_WEB_KEY to a Firebase API host: service-hosts.ts), is the skill using its own key,
    // not exfiltration: shown, never a confirmation. Several different keys sent to one host is harvesting,
    // wherever it goes.
    const keysPerDestination = new Map<string, Set<string>>();
    for (const h of proofs) {
      if (h.kind === 'sink' && h.location.startsWith('env:')) {
        keysPerDestination.set(h.where, (keysPerDestination.get(h.where) ?? new Set()).add(h.canary));
      }
    }
    const ownKeyUse = (h: (typeof proofs)[number]) => {
      if (h.kind !== 'sink' || !h.location.startsWith('env:') || keysPerDestination.get(h.where)!.size !== 1)
        return false;
      const host = /^\S+ ([^\s:/]+)/.exec(h.where)?.[1] ?? '';
      return isDeclared(host, hosts) || keyNamedFor(h.canary, host) || keyNamedForService(h.canary, host);
    };
    const ownKeys = proofs.filter(ownKeyUse);
    r.expectedCredentialUse.push(
      ...new Set(
        ownKeys.map((h) => `${h.canary} sent to ${h.where}: the skill's own key, to its own service`),
      ),
    );
    r.canaryHits = proofs
      .filter((h) => !ownKeys.includes(h))
      .map((h) => ({ canary: h.canary, where: `${h.kind} ${h.where}` }));
  }
  const detonations: DetonationRun[] = runs.map((r) => ({
    entry: r.entry,
    artifact: r.artifact,
    signals: readSignals(r.evidence, hosts, r.canaryHits, r.timedOut, rel, toolUse.get(r)!, services),
    stopped: r.stopped,
    fetched: fetchedNothing(r.evidence),
    linesRun: r.linesRun,
    forged: r.instruments.forged,
  }));
  const verdicts = findings.map((f) => verdictFor(f, detonations, skipped, fileLines));
  const scripts = skill.files.filter((f) => f.kind === 'script').map((f) => f.path);
  const extra = [
    ...runtimeFindings(findings, detonations, scripts),
    ...(await printedInstructions(skill, runs, findings, [layout.skillDir, rel])),
  ];
  return {
    runs,
    verdicts: [...verdicts, ...extra.map((e) => e.verdict)],
    runtimeFindings: extra.map((e) => e.finding),
    skipped,
    coverage: detonationCoverage(runs, skipped, scripts, [
      ...env.secrets.map((n) => `environment ${n} (a canary key)`),
      ...Object.keys(env.values).map((n) => `environment ${n}`),
      ...found.inputs.map((i) => `input file ${i.path}`),
      ...new Set(
        runs.flatMap((r) =>
          r.entry.given ? [`sample file ${r.entry.given} (a run stopped on it missing)`] : [],
        ),
      ),
    ]),
  };
}
export { RUNTIME_RULE_LIST } from './runtime-rules.js';
