// The rename-identifiers transformation of the evasion suite: every name a skill's own scripts define (a
// top-level function or class, a variable, a shell function or variable that is not exported) renamed to a
// meaningless one across all of its scripts, so a rule that read `steal_credentials` or `EXFIL_URL` learns
// nothing from the names. What the code does stays: strings, comments, attributes (`obj.name`), keyword
// arguments (`f(name=…)`), methods and exported environment variables keep their names, because a library or a
// child process may depend on them.

import { editShell, outsideHeredocs } from './shell-lines.js';

type Language = 'python' | 'js' | 'shell';

const LANGUAGE: [RegExp, Language][] = [
  [/\.py$/i, 'python'],
  [/\.(?:js|mjs|cjs|ts|mts|cts)$/i, 'js'],
  [/\.(?:sh|bash|zsh)$/i, 'shell'],
];

export const languageOf = (path: string): Language | null =>
  LANGUAGE.find(([re]) => re.test(path))?.[1] ?? null;

// Names a rename would break or that carry no meaning to hide.
const KEEP = new Set([
  'self',
  'cls',
  'main',
  'args',
  'kwargs',
  'module',
  'exports',
  'require',
  'process',
  'console',
  'HOME',
  'PATH',
  'USER',
  'PWD',
  'IFS',
]);

const DEFINED: Record<Language, RegExp[]> = {
  python: [
    /^(?:async\s+)?def\s+([A-Za-z_]\w*)/gm,
    /^class\s+([A-Za-z_]\w*)/gm,
    /^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]+)?=(?!=)/gm,
    /^[ \t]*for\s+([A-Za-z_]\w*)\s+in\b/gm,
    /\bas\s+([A-Za-z_]\w*)\s*:/gm,
  ],
  js: [
    /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/g,
    /\bclass\s+([A-Za-z_$][\w$]*)/g,
    /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/g,
  ],
  shell: [
    /^[ \t]*(?:local\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?([A-Za-z_]\w*)=/gm,
    /^[ \t]*(?:function\s+)?([A-Za-z_]\w*)\s*\(\)\s*\{?/gm,
    /\bfor\s+([A-Za-z_]\w*)\s+in\b/g,
  ],
};

const EXPORTED = /^[ \t]*export\s+([A-Za-z_]\w*)/gm;

/** The names a script defines (see DEFINED), less the ones it exports to child processes. */
export function definedNames(code: string, language: Language): Set<string> {
  const names = new Set<string>();
  const source = language === 'shell' ? outsideHeredocs(code).join('\n') : code;
  for (const re of DEFINED[language]) for (const m of source.matchAll(re)) names.add(m[1]!);
  if (language === 'shell') for (const m of code.matchAll(EXPORTED)) names.delete(m[1]!);
  for (const n of names) if (KEEP.has(n) || /^__\w+__$/.test(n) || n.length < 2) names.delete(n);
  return names;
}

// Spans of Python and JavaScript where a name is not an identifier of the code: strings and comments. An
// f-string's or a template literal's `{…}` holds code, so it is rewritten (by the caller) too.
const PY_SPANS = /("""|''')[\s\S]*?\1|([rRbBuU]?[fF][rRbB]?)?("|')(?:\\.|(?!\3)[^\\\n])*\3|#[^\n]*/g;
const JS_SPANS = /`(?:\\.|[^\\`])*`|("|')(?:\\.|(?!\1)[^\\\n])*\1|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function renameWords(code: string, names: ReadonlyMap<string, string>, dollar: boolean): string {
  const word = dollar ? /(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$])/g : /(?<![\w.])[A-Za-z_]\w*(?!\w)/g;
  return code.replace(word, (w, at: number, all: string) => {
    const to = names.get(w);
    if (!to) return w;
    // A keyword argument names the callee's parameter, not this code's variable.
    const before = all.slice(Math.max(0, at - 40), at);
    const after = all.slice(at + w.length, at + w.length + 3);
    if (/[(,]\s*$/.test(before) && /^\s*=(?!=)/.test(after)) return w;
    return to;
  });
}

function renameCode(code: string, names: ReadonlyMap<string, string>, language: 'python' | 'js'): string {
  const spans = language === 'python' ? PY_SPANS : JS_SPANS;
  let out = '';
  let at = 0;
  for (const m of code.matchAll(spans)) {
    out += renameWords(code.slice(at, m.index), names, language === 'js');
    let span = m[0];
    if (language === 'python' && m[2])
      span = span.replace(/\{([^{}]*)\}/g, (_, e: string) => `{${renameWords(e, names, false)}}`);
    if (language === 'js' && span.startsWith('`'))
      span = span.replace(/\$\{([^{}]*)\}/g, (_, e: string) => `\${${renameWords(e, names, true)}}`);
    out += span;
    at = m.index! + m[0].length;
  }
  return out + renameWords(code.slice(at), names, language === 'js');
}

// Where a shell word names a variable or a function rather than being an argument: at the start of a command
// (an assignment, a call, a definition) or after `for`, `local`, `readonly`, `declare` (and its flags).
const SHELL_TOKEN = /(\s+)|([;&|()]+)|([^\s;&|()]+)/g;
const NAMING_KEYWORD = /^(?:then|do|else|for|local|readonly|declare)$/;

/** A piece of a shell line with the names at command starts renamed (tokens, not a look-behind: linear). */
function renameCommandStarts(part: string, names: ReadonlyMap<string, string>, atStart: boolean): string {
  let start = atStart;
  let afterDeclare = false;
  return part.replace(SHELL_TOKEN, (tok, space?: string, operator?: string) => {
    if (space) return tok;
    if (operator) {
      start = true;
      return tok;
    }
    const named = start || (afterDeclare && tok.startsWith('-'));
    afterDeclare = NAMING_KEYWORD.test(tok) || (afterDeclare && tok.startsWith('-'));
    start = afterDeclare;
    if (!named) return tok;
    const m = /^([A-Za-z_]\w*)(.*)$/.exec(tok);
    if (!m || !(m[2] === '' || m[2]!.startsWith('='))) return tok;
    return (names.get(m[1]!) ?? m[1]!) + m[2]!;
  });
}

/** Shell: `$name`, `${name…}`, and a name where a command or a definition starts, outside single quotes. */
function renameShell(code: string, names: ReadonlyMap<string, string>): string {
  return editShell(code, (part, first) =>
    renameCommandStarts(
      part.replace(/\$\{?([A-Za-z_]\w*)/g, (m, n: string) =>
        names.has(n) ? m.replace(n, names.get(n)!) : m,
      ),
      names,
      first,
    ),
  );
}

/**
 * Every script's own names replaced by `h1`, `h2`, … consistently across the scripts (one module may import
 * another's function). Returns the rewritten scripts, or null when the skill defines no names to rename.
 */
export function renameIdentifiers(scripts: ReadonlyMap<string, string>): Map<string, string> | null {
  const names = new Map<string, string>();
  for (const [path, code] of scripts) {
    const language = languageOf(path);
    if (!language) continue;
    for (const n of definedNames(code, language)) if (!names.has(n)) names.set(n, `h${names.size + 1}`);
  }
  if (!names.size) return null;
  const out = new Map<string, string>();
  for (const [path, code] of scripts) {
    const language = languageOf(path);
    if (!language) continue;
    const renamed = language === 'shell' ? renameShell(code, names) : renameCode(code, names, language);
    if (renamed !== code) out.set(path, renamed);
  }
  return out.size ? out : null;
}
