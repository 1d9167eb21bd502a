// Which lines of the skill's Python code a run executed. A run that ended cleanly says nothing about a line it
// never reached: code behind a guard the sandbox did not pass (`if not configured: print("bye"); exit(0)`) ends as
// cleanly as code that ran and did nothing risky. So a finding in a Python file is lowered only by a run that
// executed one of its lines (verdicts.ts). sitecustomize traces frames of files under the skill's folder and, at
// exit, writes the lines it saw to stderr, one file a line; the detonation takes those lines out of stderr.

/** Environment variable naming the skill's folder inside the sandbox: only files under it are traced. */
export const TRACE_ROOT_ENV = 'SKILLAUDIT_TRACE_ROOT';
const NOTE = 'skillaudit-lines: ';

/** Appended to the sandbox's sitecustomize. Tracing costs a prefix test per call outside the skill's files. */
export const PYTHON_LINE_TRACE = `

def _skillaudit_trace():
    import atexit
    import threading

    root = os.environ.get("${TRACE_ROOT_ENV}", "").rstrip("/")
    if not root:
        return
    root += "/"
    seen = {}

    def local(frame, event, arg):
        if event == "line":
            seen.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
        return local

    def start(frame, event, arg):
        name = frame.f_code.co_filename
        if not name.startswith(root):
            return None
        seen.setdefault(name, set()).add(frame.f_lineno)
        return local

    def report():
        lines = ["${NOTE}" + n + " " + ",".join(map(str, sorted(s))) for n, s in seen.items()]
        if lines:
            try:
                sys.stderr.write("\\n" + "\\n".join(lines) + "\\n")
                sys.stderr.flush()
            except Exception:
                pass

    atexit.register(report)
    sys.settrace(start)
    threading.settrace(start)


_skillaudit_trace()
`;

/**
 * The lines a run executed per file (relative to `root`, the skill's folder inside the sandbox), and its stderr
 * without the trace's report. Null lines: nothing was reported (no Python ran, or it never reached its exit).
 */
export function takeLinesRun(
  stderr: string,
  root: string,
): { stderr: string; lines: Record<string, number[]> | null } {
  if (!stderr.includes(NOTE)) return { stderr, lines: null };
  const lines: Record<string, number[]> = {};
  const kept: string[] = [];
  const prefix = `${root.replace(/\/+$/, '')}/`;
  for (const line of stderr.split('\n')) {
    const m = line.startsWith(NOTE) ? /^(.*) ([\d,]+)$/.exec(line.slice(NOTE.length)) : null;
    if (!m) {
      kept.push(line);
      continue;
    }
    if (!m[1]!.startsWith(prefix)) continue;
    const file = m[1]!.slice(prefix.length);
    const seen = new Set([...(lines[file] ?? []), ...m[2]!.split(',').map(Number)]);
    lines[file] = [...seen].sort((a, b) => a - b);
  }
  return { stderr: kept.join('\n').replace(/\n+$/, stderr.endsWith('\n') ? '\n' : ''), lines };
}

/** Whether a run that reported its lines executed any of `file`'s lines `from`..`to`. */
export function executed(lines: Record<string, number[]>, file: string, from: number, to: number): boolean {
  return (lines[file] ?? []).some((n) => n >= from && n <= Math.max(from, to));
}
