// The language-neutral facts that code detectors read. Extractors (python.ts, javascript.ts, shell.ts,
// powershell.ts) turn one syntax tree into a CodeModel; rules never touch trees, so one parse serves all.

/** What a value may carry, as bits: where its data came from. */
export const T = {
  /** The whole environment (os.environ, process.env, `env`). */
  ENV_ALL: 1,
  /** A secret-named environment variable (…KEY, …TOKEN, …SECRET, …PASSWORD, …CREDENTIAL). */
  ENV_SECRET: 2,
  /** Path naming a credential store (~/.ssh/id_*, ~/.aws/credentials, …). */
  CRED_PATH: 4,
  /** Content read from a credential store. */
  CRED_DATA: 8,
  /** Path naming another agent's config, memory, transcripts or other skills. */
  CTX_PATH: 16,
  /** Content read from those. */
  CTX_DATA: 32,
  /** Content fetched from the network. */
  FETCHED: 64,
  /** Output of base64/hex/zlib/marshal/rot13 decoding. */
  DECODED: 128,
  /** Command-line arguments or stdin of the script. */
  INPUT: 256,
  /** A listing of the home or root directory. */
  LISTING: 512,
  /** Who and where the machine is: the user's login name, the host's name, its public address (not its system). */
  HOST_ID: 1024,
} as const;

export const TAINT_BITS = 11;

/** Taint bits with the first line each bit came from (for flow evidence). */
export class Taint {
  static readonly NONE = new Taint(0, []);
  constructor(
    readonly bits: number,
    private readonly lines: readonly number[],
  ) {}

  static of(bit: number, line: number): Taint {
    const lines: number[] = [];
    for (let i = 0; i < TAINT_BITS; i++) if (bit & (1 << i)) lines[i] = line;
    return new Taint(bit, lines);
  }

  has(bit: number): boolean {
    return (this.bits & bit) !== 0;
  }

  /** Line where `bit` entered this value (the latest of several sources). */
  lineOf(bit: number): number | undefined {
    for (let i = 0; i < TAINT_BITS; i++)
      if (bit & (1 << i) && this.lines[i] !== undefined) return this.lines[i];
    return undefined;
  }

  /** Same bits, all dated to `line` (code relocated from an embedded string to the line that runs it). */
  at(line: number): Taint {
    return this.bits === 0 ? this : Taint.of(this.bits, line);
  }

  /** These bits cleared, the others keeping their lines. */
  without(bits: number): Taint {
    const kept = this.bits & ~bits;
    return kept === this.bits ? this : new Taint(kept, this.lines);
  }

  union(other: Taint): Taint {
    if (other.bits === 0 || other === this) return this;
    if (this.bits === 0) return other;
    const lines: number[] = [];
    for (let i = 0; i < TAINT_BITS; i++) {
      const a = this.lines[i];
      const b = other.lines[i];
      // Keep the latest source: in flow-insensitive code it is usually the one nearest the sink.
      if (a !== undefined || b !== undefined) lines[i] = Math.max(a ?? -1, b ?? -1);
    }
    return new Taint(this.bits | other.bits, lines);
  }
}

/** Marks the parts of a resolved string that depend on runtime data. */
export const UNKNOWN = '\u2026';

export interface Value {
  /** Source text of the expression. */
  text: string;
  /** Constant string value where known; unknown parts are UNKNOWN; null when nothing is known. */
  str: string | null;
  /** Possible constant values when the expression takes one of several (a loop over a literal list). */
  alts: readonly string[];
  taint: Taint;
}

/** Which part of a network request an argument fills. */
export type Channel = 'url' | 'payload' | 'auth' | 'other';

export type CallKind = 'call' | 'command';

/** A function call (python/JS) or a command (shell/powershell), after alias resolution. */
export interface Call {
  kind: CallKind;
  /**
   * Canonical name: dotted path for calls (`os.system`, `requests.post`, `child_process.exec`, `eval`),
   * lower-case command name for commands (`curl`, `invoke-webrequest`).
   */
  callee: string;
  /** Positional arguments; for commands every word after the name, flags included. */
  args: Value[];
  /** Keyword arguments (python) and properties of object-literal arguments (JS). */
  named: ReadonlyMap<string, Value>;
  /** The object a method is called on (`Path.home()` in `Path.home().rglob("*")`), else null. */
  receiver: Value | null;
  /** What the call yields (return value, or a command's stdout), as taint. */
  output: Taint;
  /** Data arriving on stdin (shell pipelines, here-strings). */
  stdin: Taint;
  /** For commands: the commands that consume this one's stdout (later pipeline stages). */
  pipedTo: readonly string[];
  /** Output redirected to this file (`> file`), when constant. */
  redirectTo: string | null;
  line: number;
  endLine: number;
  text: string;
  /** Inside a function or branch that may not run, vs. statements that run when the script starts. */
  topLevel: boolean;
  /** Inside a try block or followed by an error check (`|| exit`). */
  guarded: boolean;
  /** Opened by a context manager (`with open(p) as f:`), which closes it. */
  managed?: boolean;
  /** Run in the background (`cmd &`). */
  background: boolean;
  /** Set when this call was found inside a decoded blob or an inline shell string; says where from. */
  origin: string | null;
}

/** An infinite loop (`while True`, `while true`, `for(;;)`) or a retry loop with no bound. */
export interface LoopFact {
  line: number;
  endLine: number;
  text: string;
  /** The body can leave the loop: break, return, exit, raise, a counter compared in the condition. */
  exits: boolean;
  /** The body (or condition) makes a network call. */
  network: boolean;
  /** The body sleeps or retries. */
  retries: boolean;
  /** The loop has a condition (`while not ok:`) rather than being literally infinite. */
  conditional: boolean;
}

/** An exception handler that swallows everything, or a shell error silenced after a destructive command. */
export interface SwallowFact {
  line: number;
  endLine: number;
  text: string;
  kind: 'bare-except' | 'broad-except' | 'empty-catch' | 'or-true' | 'or-true-before-delete';
}

export interface CodeModel {
  language: 'bash' | 'python' | 'javascript' | 'powershell';
  calls: Call[];
  loops: LoopFact[];
  swallows: SwallowFact[];
  /** Identifiers, attribute names and command names used anywhere (cleanup and validation checks). */
  names: ReadonlySet<string>;
  /** Shell: `set -u`/`set -o nounset` present. */
  nounset: boolean;
  /** True when the text was cut before parsing (MAX_PARSE_CHARS). */
  truncated: boolean;
  /** The tree had syntax errors (minified, packed or not really this language). */
  hasErrors: boolean;
}
