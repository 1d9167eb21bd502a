import { Command, CommanderError } from 'commander';
import { errorMessage, UserError } from '../util/errors.js';
import { exitOnInterrupt } from '../util/interrupt.js';
import { VERSION } from '../version.js';
import { registerAudit } from './audit.js';
import { registerBatch } from './batch.js';
import { registerEstimate } from './estimate.js';
import { registerEvalScanner } from './eval-scanner.js';
import { registerEvalVerdicts } from './eval-verdicts.js';
import { registerInspect } from './inspect.js';
import { registerOptimize } from './optimize.js';
import { registerQuality } from './quality.js';
import { registerReference } from './reference.js';
import { registerRules } from './rules.js';
import { registerScan } from './scan.js';
import { registerServe } from './serve.js';
import { registerTasks } from './tasks.js';
import { registerWorker } from './worker.js';

/** Commands with their own SIGINT/SIGTERM handling. */
const OWN_SHUTDOWN = new Set(['serve', 'worker']);

/** Builds the program; each command lives in its own file and registers itself. */
export function buildProgram(): Command {
  const program = new Command('skillaudit')
    .description('Audit agent skills before you install them: safety, utility and quality, with evidence.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError()
    .exitOverride();
  registerAudit(program);
  registerScan(program);
  registerQuality(program);
  registerInspect(program);
  registerEvalScanner(program);
  registerEvalVerdicts(program);
  registerTasks(program);
  registerEstimate(program);
  registerReference(program);
  registerRules(program);
  registerOptimize(program);
  registerBatch(program);
  registerServe(program);
  registerWorker(program);
  // Ctrl-C or SIGTERM stops every sandboxed run, removes temp folders and exits 130/143; commands that
  // shut down on their own (serve requeues its audits) keep their handling.
  program.hook('preAction', (_program, command) => {
    if (!OWN_SHUTDOWN.has(command.name())) exitOnInterrupt('skillaudit');
  });
  return program;
}

/** Runs the CLI and returns the exit code: 0 clean, 1 findings at or above --fail-on, 2 usage or input error. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other commander error is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    // A usable sandbox is the user's environment to fix (install bubblewrap), not a bug.
    if (error instanceof UserError || (error instanceof Error && error.name === 'SandboxUnavailableError')) {
      process.stderr.write(`skillaudit: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`skillaudit: internal error: ${errorMessage(error)}\n`);
    if (process.env.SKILLAUDIT_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 2;
  }
}
