// Runs one headless harness CLI inside a fresh sandbox: seeds the task's files, the skill and the harness's
// config, starts the model bridge, runs the harness as the sandbox user with no network but the bridge, and
// hands the raw output to the adapter's parser.
import { dirname, join, posix } from 'node:path';
import {
  createSandbox,
  type RunResult,
  SANDBOX_INNER_PATHS,
  type SandboxLimits,
  type SeedFile,
} from '../sandbox/index.js';
import { errorMessage } from '../util/errors.js';
import { checkAgentProvider } from './compatibility.js';
import { ensureHarness, type HarnessPackage, installFolder, isHiddenInSandbox } from './install.js';
import { PLACEHOLDER_KEY, RELAY_PORT, RELAY_SCRIPT, startModelBridge } from './model-bridge.js';
import type {
  AgentModel,
  AgentName,
  AgentRunRequest,
  AgentRunResult,
  AgentTokens,
  TrajectoryStep,
} from './types.js';
import { collectOutputFiles, skillFolder, skillSeedFiles } from './workspace.js';

/** Harnesses are heavier than a skill's script: more time, memory, processes and open files. */
export const HARNESS_LIMITS: Partial<SandboxLimits> = {
  wallMs: 10 * 60_000,
  cpuSeconds: 600,
  memoryBytes: 4 * 1024 * 1024 * 1024,
  maxProcesses: 512,
  maxOpenFiles: 4096,
};

/** Where the relay lives and the bridge socket appears, under the sandbox HOME. */
const BRIDGE_DIR = '.skillaudit-bridge';

/**
 * The model channel as it shows in a harness run's evidence (connects to the relay port, to the socket):
 * the harness talking to its model, not a network finding.
 */
export const MODEL_CHANNEL = {
  relay: { address: '127.0.0.1', port: RELAY_PORT },
  socket: posix.join(SANDBOX_INNER_PATHS.home, BRIDGE_DIR, 'model.sock'),
} as const;

export interface ParsedRun {
  steps: TrajectoryStep[];
  finalMessage: string;
  tokens: AgentTokens;
  skillLoaded: boolean;
  /** The harness's own error report (an error result event), if any. */
  error?: string;
}

/** What an adapter tells the runner: how its harness is installed, configured, called and read. */
export interface HarnessSpec {
  name: Exclude<AgentName, 'builtin'>;
  pkg: HarnessPackage;
  /** Workspace-relative folder the harness discovers skills in, e.g. `.claude/skills`. */
  skillsDir: string;
  /** Workspace folders the harness keeps its own state in: not the agent's output (still in the evidence). */
  stateDirs: string[];
  /** Argument list after the executable, given the instruction. */
  args(instruction: string): string[];
  /** Environment and config files (paths relative to the workspace, or `~/` for HOME). */
  setup(ctx: {
    baseUrl: string;
    apiKey: string;
    model: string;
    provider: AgentModel['provider'];
    home: string;
  }): {
    env: Record<string, string>;
    files: SeedFile[];
  };
  parse(stdout: string, skillName: string | null): ParsedRun;
}

/**
 * The harness install and the node that runs it, when they lie in a folder the sandbox hides (a non-root user's
 * ~/.cache, a node under ~/.nvm): bound back in at the same path, read-only, so the agent cannot change them.
 */
function hostFoldersToShow(pkg: HarnessPackage): string[] {
  const nodePrefix = dirname(dirname(process.execPath));
  return [installFolder(pkg), nodePrefix].filter(isHiddenInSandbox);
}

/** The base URL the harness uses inside the sandbox: the relay, with the real endpoint's path. */
function innerBaseUrl(upstream: string): string {
  const path = new URL(upstream).pathname.replace(/\/+$/, '');
  return `http://127.0.0.1:${RELAY_PORT}${path}`;
}

export async function runHarness(spec: HarnessSpec, req: AgentRunRequest): Promise<AgentRunResult> {
  // The audit checks this before it starts (compatibility.ts); direct callers of an adapter get the same error.
  checkAgentProvider(spec.name, req.model.provider, req.model.model);
  const bin = await ensureHarness(spec.pkg);
  const skillDir = req.skill ? skillFolder(spec.skillsDir, req.skill) : null;
  const home = '/home/skill';
  const setup = spec.setup({
    baseUrl: innerBaseUrl(req.model.baseUrl),
    apiKey: PLACEHOLDER_KEY,
    model: req.model.model,
    provider: req.model.provider,
    home,
  });
  const files: SeedFile[] = [
    ...req.task.workspaceFiles,
    ...(req.skill && skillDir ? skillSeedFiles(req.skill, skillDir) : []),
    ...setup.files,
    { path: `~/${BRIDGE_DIR}/relay.mjs`, content: RELAY_SCRIPT },
  ];
  const sandbox = await createSandbox({ files, readOnlyPaths: hostFoldersToShow(spec.pkg) });
  try {
    const bridge = await startModelBridge({
      socketPath: join(sandbox.home, BRIDGE_DIR, 'model.sock'),
      upstream: req.model.baseUrl,
      apiKey: req.model.apiKey,
    });
    let run: RunResult;
    try {
      const innerBridge = posix.join(sandbox.inner.home, BRIDGE_DIR);
      run = await sandbox.run({
        argv: [
          process.execPath,
          posix.join(innerBridge, 'relay.mjs'),
          posix.join(innerBridge, 'model.sock'),
          String(RELAY_PORT),
          bin,
          ...spec.args(req.task.instruction),
        ],
        env: { ...setup.env, PATH: `${posix.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` },
        limits: { ...HARNESS_LIMITS, ...req.limits },
        network: 'none',
      });
    } finally {
      await bridge.close();
    }
    const outputFiles = collectOutputFiles(run.evidence, sandbox.workspace, spec.stateDirs);
    let parsed: ParsedRun;
    let parseError: string | undefined;
    try {
      parsed = spec.parse(run.stdout, req.skill?.name ?? null);
    } catch (error) {
      parsed = emptyParse();
      parseError = `could not read ${spec.name} output: ${errorMessage(error)}`;
    }
    const error =
      parseError ??
      parsed.error ??
      (run.timedOut
        ? `${spec.name} timed out after ${run.wallMs} ms`
        : run.exitCode !== 0
          ? `${spec.name} exited with ${run.exitCode ?? run.signal}: ${lastLines(run.stderr)}`
          : undefined);
    return {
      agent: spec.name,
      ...parsed,
      wallMs: run.wallMs,
      evidence: run.evidence,
      outputFiles,
      ...(error ? { error } : {}),
    };
  } finally {
    await sandbox.dispose();
  }
}

function emptyParse(): ParsedRun {
  return { steps: [], finalMessage: '', tokens: { input: 0, cached: 0, output: 0 }, skillLoaded: false };
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
}
