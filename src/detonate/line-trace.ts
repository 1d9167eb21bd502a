import type { SeedFile } from '../sandbox/types.js';
import { reportPrefix, SKILL_ROOT } from './instrument-report.js';

// Which lines of the skill's Python, JavaScript and shell code a run executed. A run that ended cleanly says
// nothing about a line it never reached: code behind a guard the sandbox did not pass (`if not configured:
// print("bye"); exit(0)`) ends as cleanly as code that ran and did nothing risky. So a finding in such a file is
// lowered only by a run that executed its lines (verdicts.ts). Python's sitecustomize traces frames of files under
// the skill's folder; Node's preload takes V8's precise coverage of them; bash's BASH_ENV file keeps a DEBUG trap
// on the skill's own script. At exit each reports the lines it saw on the instruments' channel
// (instrument-report.ts), one file a line. A run whose code replaced the exit hook (its own `trap … EXIT`)
// reports nothing, and a run that reports nothing lowers nothing.

const NOTE = reportPrefix('lines');

/** Appended to the sandbox's sitecustomize. Tracing costs a prefix test per call outside the skill's files. */
export const PYTHON_LINE_TRACE = `

def _site_trace():
    import atexit
    import threading

    root = "${SKILL_ROOT}".rstrip("/")
    main = sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c", "-m") else ""
    # Only a program of the skill's own is traced: pip and other tools run at full speed. A module or a one-liner
    # run from the skill's folder (\`python3 -m pytest\`, which loads its conftest.py) is the skill's own too.
    here = os.path.abspath(main) if main else os.getcwd() + "/"
    if not root or not here.startswith(root + "/"):
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


_site_trace()
`;

// Node: V8's block coverage (started before the main module loads), read at exit. A line ran when the innermost
// covered range holding its first character ran. Offsets are into the file as written, so TypeScript, which runs
// transformed, is not traced.
export const NODE_TRACE_FILE = '.local/lib/node-fallback/line-trace.cjs';

const NODE_PRELOAD = String.raw`'use strict';
const root = '${SKILL_ROOT}'.replace(/\/+$/, '');
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

const BASH_PRELOAD = `if [ -n "\${BASH_VERSION:-}" ]; then
  case "$0" in /*) __trace_main=$0 ;; *) __trace_main=$PWD/$0 ;; esac
  # A script file (bash -c has none: its $0 is a name).
  [ -f "$__trace_main" ] || __trace_main=
  case "$__trace_main" in
    "${SKILL_ROOT}"/*)
      __trace_lines=()
      set -o functrace
      trap '[[ \${BASH_SOURCE[0]:-} == "$0" ]] && __trace_lines[$LINENO]=1; :' DEBUG
      trap 'IFS=,; printf "\\n${NOTE}%s %s\\n" "$__trace_main" "\${!__trace_lines[*]}" >&2' EXIT
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

// A line that only closes what an earlier one opened, or ends a block, never runs on its own.
const CLOSING_ONLY = /^\s*(?:[)\]}]+[;,]?|fi|done|esac|;;|end|else:?)\s*$/;
const COMMENT = /^\s*(?:#|\/\/)/;
// A statement goes on to the next line after an open bracket, a comma, a backslash or a binary operator; a block's
// opener (`:` in Python, `{`, `then`) does not continue it: the block is a statement of its own.
const CONTINUES = /(?:[([,\\]|&&|\|\||[|+=])\s*$/;
const CONTINUATION = /^\s*(?:[.)\]]|&&|\|\||\+)/;

/**
 * The lines of a finding a run must have executed for its quiet end to lower the finding: the finding's first
 * line (the source: a read, a decode) and the start of the statement its last line belongs to (the sink: a send,
 * an exec). A line in between is not enough: a guard placed there (`if sandboxed(): return`) runs while the send
 * does not. `text`: the file's lines, when known.
 */
export function riskyLines(text: readonly string[] | null, from: number, to: number): number[] {
  let end = Math.max(from, to);
  if (text) {
    const at = (n: number) => text[n - 1] ?? '';
    while (end > from && (!at(end).trim() || COMMENT.test(at(end)) || CLOSING_ONLY.test(at(end)))) end--;
    while (end > from && (CONTINUES.test(at(end - 1)) || CONTINUATION.test(at(end)))) end--;
  }
  return end === from ? [from] : [from, end];
}
