// What SIGINT, SIGTERM and SIGHUP do, in one place. Layers register synchronous work here: `onInterrupt`
// steps stop what the process started (sandboxed runs), `atExit` cleanups remove what it made (temp
// folders, mounts). On a signal the steps run, then the cleanups (last registered first: a mount goes
// before the folder that holds it), and then the process ends. Everything is synchronous on purpose: while
// it runs the event loop is held, so no other code (a pipeline writing a report, a second Ctrl-C) can
// interleave with a half-done stop. On a normal exit the same steps and cleanups run.

/** A step returns a short note for the interrupt message, e.g. "stopped 2 sandboxed runs". */
type InterruptStep = () => string | undefined;

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type HandledSignal = keyof typeof SIGNALS;

const steps = new Set<InterruptStep>();
const cleanups: (() => void)[] = [];
/** Set by a command-line program: after a signal, print one line and exit with 128 + the signal number. */
let exitProgram: string | null = null;
let installed = false;
let handling = false;
/** Signals left to the host alone (see `finishBeforeInterrupt`). */
let deferred = 0;

function runAll(): string[] {
  const notes: string[] = [];
  for (const step of steps) {
    try {
      const note = step();
      if (note) notes.push(note);
    } catch {
      // A failing step must not keep the others (or the cleanups) from running.
    }
  }
  for (let i = cleanups.length - 1; i >= 0; i--) {
    try {
      cleanups[i]!();
    } catch {
      // Best effort on the way out: nothing else can be done.
    }
  }
  return notes;
}

function onSignal(signal: HandledSignal): void {
  // Signals arrive through the event loop, which runAll holds: a second one can only come after the first
  // was fully handled, and then there is nothing left to do.
  if (handling) return;
  if (deferred > 0) {
    deferred--;
    return;
  }
  handling = true;
  const notes = runAll();
  if (exitProgram !== null) {
    process.stderr.write(`${exitProgram}: ${['interrupted', ...notes].join('; ')}\n`);
    process.exit(128 + SIGNALS[signal]);
  }
  // Library use: a host with its own handler (the web service) decides what happens next; otherwise die
  // by the signal, as the default handler would have.
  handling = false;
  if (process.listenerCount(signal) > 1) return;
  for (const name of Object.keys(SIGNALS) as HandledSignal[]) process.removeListener(name, onSignal);
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    if (!handling) runAll();
  });
  for (const signal of Object.keys(SIGNALS) as HandledSignal[]) process.on(signal, onSignal);
}

/** Runs `step` first on a signal or at exit (it must be synchronous and idempotent); returns its remover. */
export function onInterrupt(step: InterruptStep): () => void {
  install();
  steps.add(step);
  return () => steps.delete(step);
}

/** Runs `cleanup` on a signal or at exit, after the steps (it must be synchronous and idempotent). */
export function atExit(cleanup: () => void): () => void {
  install();
  cleanups.push(cleanup);
  return () => {
    const at = cleanups.indexOf(cleanup);
    if (at >= 0) cleanups.splice(at, 1);
  };
}

/**
 * For a host that finishes its work on the first signal (a queue worker letting its running audits end): that
 * signal is the host's alone and the sandboxed runs go on; a second one stops them as usual. The steps and
 * cleanups still run when the process exits.
 */
export function finishBeforeInterrupt(): void {
  install();
  deferred = 1;
}

/** For a command-line program: a signal ends the process with 128 + its number and one line on stderr. */
export function exitOnInterrupt(program: string): void {
  install();
  exitProgram = program;
}
