// Where a call writes: shared by the detectors that judge a write by its target (start-up and job files,
// authorized keys).
import type { Call } from './model.js';
import { WRITE_CALL_RE } from './names.js';
import { candidates } from './values.js';

/** Files a call writes, copies or links to. */
export function writeTargets(c: Call): string[] {
  const out: string[] = [];
  if (c.kind === 'command') {
    if (c.redirectTo) out.push(c.redirectTo);
    if (/^(tee|cp|mv|ln|install|add-content|set-content|out-file|copy-item|move-item)$/.test(c.callee)) {
      const files = c.args.filter((a) => !(a.str ?? '-').startsWith('-'));
      out.push(...(/^(cp|mv|ln|install)$/.test(c.callee) ? files.slice(-1) : files).flatMap(candidates));
    }
    return out;
  }
  // `Path(...).open("a")`: the path is the receiver and the mode the first argument.
  if (/(^|\.)open$/.test(c.callee) && c.receiver?.str && /^[wax]b?\+?$/.test(c.args[0]?.str ?? '')) {
    out.push(...candidates(c.receiver), c.receiver.text);
    return out;
  }
  const mode = c.args[1]?.str ?? c.named.get('mode')?.str ?? '';
  if (
    (/(^|\.)open$/.test(c.callee) && /[wa]/.test(mode)) ||
    WRITE_CALL_RE.test(c.callee) ||
    /(^|\.)(appendFile(Sync)?|copy(file)?|copy2|move)$/.test(c.callee)
  ) {
    const target =
      c.receiver && /write_text|write_bytes/.test(c.callee)
        ? c.receiver
        : /copy|move/.test(c.callee)
          ? c.args[1]
          : c.args[0];
    if (target) out.push(...candidates(target), target.text);
  }
  return out;
}
