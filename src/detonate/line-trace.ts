import { posix } from 'node:path';
import type { SeedFile } from '../sandbox/types.js';

// Which lines of the skill's Python and JavaScript code a run executed. A run that ended cleanly says nothing about
// a line it never reached: code behind a guard the sandbox did not pass (`if not configured: print("bye");
// exit(0)`) ends as cleanly as code that ran and did nothing risky. So a finding in such a file is lowered only by
// a run that executed one of its lines (verdicts.ts). Python's sitecustomize traces frames of files under the
// skill's folder; Node's preload takes V8's precise coverage of them; bash's BASH_ENV file keeps a DEBUG trap on
// the skill's own script. At exit each writes the lines it saw to stderr, one file a line; the detonation takes
// those lines out of stderr. A run whose code replaced the exit hook (its own `trap … EXIT`) reports nothing, and a
// run that reports nothing lowers nothing.

/** Environment variable naming the skill's folder inside the sandbox: only files under it are traced. */
export const TRACE_ROOT_ENV = 'SKILLAUDIT_TRACE_ROOT';
const NOTE = 'skillaudit-lines: ';

/** Appended to the sandbox's sitecustomize. Tracing costs a prefix test per call outside the skill's files. */
export const PYTHON_LINE_TRACE = `

def _skillaudit_trace():
    import atexit
    import threading

    root = os.environ.get("${TRACE_ROOT_ENV}", "").rstrip("/")
    main = sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c", "-m") else ""
    # Only a program of the skill's own is traced: pip and other tools run at full speed.
    if not root or not os.path.abspath(main).startswith(root + "/"):
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
    const m = line.startsWith(NOTE) ? /^(.*) ([\d,]*)$/.exec(line.slice(NOTE.length)) : null;
    if (!m) {
      kept.push(line);
      continue;
    }
    if (!m[1]!.startsWith(prefix)) continue;
    const file = posix.normalize(m[1]!.slice(prefix.length));
    const seen = new Set([...(lines[file] ?? []), ...m[2]!.split(',').filter(Boolean).map(Number)]);
    lines[file] = [...seen].sort((a, b) => a - b);
  }
  return { stderr: kept.join('\n').replace(/\n+$/, stderr.endsWith('\n') ? '\n' : ''), lines };
}

// Node: V8's block coverage (started before the main module loads), read at exit. A line ran when the innermost
// covered range holding its first character ran. Offsets are into the file as written, so TypeScript, which runs
// transformed, is not traced.
export const NODE_TRACE_FILE = '.local/lib/node-fallback/line-trace.cjs';

const NODE_PRELOAD = String.raw`'use strict';
const root = (process.env.${TRACE_ROOT_ENV} || '').replace(/\/+$/, '');
const { isMainThread } = require('node:worker_threads');
// Only a program of the skill's own is traced: npm and other tools run at full speed.
if (root && isMainThread && (process.argv[1] || '').startsWith(root + '/')) {
  const inspector = require('node:inspector');
  const { readFileSync } = require('node:fs');
  const { fileURLToPath } = require('node:url');
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  process.on('exit', () => {
    session.post('Profiler.takePreciseCoverage', (error, taken) => {
      if (error || !taken) return;
      const lines = [];
      for (const script of taken.result) {
        let file = script.url;
        try {
          if (file.startsWith('file:')) file = fileURLToPath(file);
        } catch (e) {
          continue;
        }
        if (!file.startsWith(root + '/') || !/\.(?:c|m)?js$/.test(file)) continue;
        let text;
        try {
          text = readFileSync(file, 'utf8');
        } catch (e) {
          continue;
        }
        const ranges = script.functions.flatMap((f) => f.ranges);
        const ran = [];
        let start = 0;
        text.split('\n').forEach((line, i) => {
          const lead = line.search(/\S/);
          if (lead >= 0) {
            const at = start + lead;
            let best = null;
            for (const r of ranges)
              if (r.startOffset <= at && at < r.endOffset && (!best || r.endOffset - r.startOffset <= best.endOffset - best.startOffset)) best = r;
            if (best && best.count > 0) ran.push(i + 1);
          }
          start += line.length + 1;
        });
        lines.push('${NOTE}' + file + ' ' + ran.join(','));
      }
      if (lines.length) process.stderr.write('\n' + lines.join('\n') + '\n');
    });
  });
}
`;

// bash: a DEBUG trap (inherited by functions: functrace) marks each line of the main script about to run, and the
// EXIT trap reports them; nothing forks or runs a program, so the evidence shows only what the script did. Only a
// script under the skill's folder is traced; sh (dash) reads no BASH_ENV.
export const BASH_TRACE_FILE = '.local/lib/bash-line-trace.sh';

const BASH_PRELOAD = `# SkillAudit sandbox: which lines of the skill's own shell script ran (src/detonate/line-trace.ts).
if [ -n "\${${TRACE_ROOT_ENV}:-}" ] && [ -n "\${BASH_VERSION:-}" ]; then
  case "$0" in /*) __skillaudit_main=$0 ;; *) __skillaudit_main=$PWD/$0 ;; esac
  # A script file (bash -c has none: its $0 is a name).
  [ -f "$__skillaudit_main" ] || __skillaudit_main=
  case "$__skillaudit_main" in
    "\${${TRACE_ROOT_ENV}%/}"/*)
      __skillaudit_lines=()
      set -o functrace
      trap '[[ \${BASH_SOURCE[0]:-} == "$0" ]] && __skillaudit_lines[$LINENO]=1; :' DEBUG
      trap 'IFS=,; printf "\\n${NOTE}%s %s\\n" "$__skillaudit_main" "\${!__skillaudit_lines[*]}" >&2' EXIT
      ;;
  esac
fi
`;

export function lineTraceSeedFiles(): SeedFile[] {
  return [
    { path: `~/${NODE_TRACE_FILE}`, content: NODE_PRELOAD },
    { path: `~/${BASH_TRACE_FILE}`, content: BASH_PRELOAD },
  ];
}

/** Files whose runs report the lines they executed. */
export function traced(file: string): boolean {
  return /\.(?:py|js|mjs|cjs|sh|bash)$/.test(file);
}

/** Whether a run that reported its lines executed any of `file`'s lines `from`..`to`. */
export function executed(lines: Record<string, number[]>, file: string, from: number, to: number): boolean {
  return (lines[file] ?? []).some((n) => n >= from && n <= Math.max(from, to));
}
