// The split-literals transformation of the evasion suite: every literal long enough to carry meaning (a
// credential path, a URL, a command name) cut in two where the language joins the halves back at run time, so
// a rule that reads `~/.aws/credentials` or `curl` in the text finds neither:
//   Python, JavaScript   'https://host/x'  ->  ('https://h' + 'ost/x')
//   shell                curl -d @~/.aws/credentials  ->  cu''rl -d @~/.aws/cre''dentials
//                        "$HOME/.aws/credentials"      ->  "$HOME/.aws/cre""dentials"
// What runs is unchanged: the halves are joined before anything uses them.

import { editShell } from './shell-lines.js';

const MIN = 6;

/** A literal run cut in the middle, at a point that splits no escape sequence; null when too short. */
function halves(s: string): [string, string] | null {
  if (s.length < MIN) return null;
  let at = Math.floor(s.length / 2);
  while (at > 1 && s[at - 1] === '\\') at--;
  return at > 1 ? [s.slice(0, at), s.slice(at)] : null;
}

// Python and JavaScript: plain single- or double-quoted strings without a prefix (f-, b-, r-strings and
// template literals are left alone), outside comments. Lines that import are left alone (a module name in an
// ES import must be a literal).
const CODE_TOKENS =
  /("""|''')[\s\S]*?\1|`(?:\\.|[^\\`])*`|([A-Za-z]?)(["'])((?:\\.|(?!\3)[^\\\n])*)\3|(?:#|\/\/)[^\n]*/g;

function splitCode(code: string): string {
  return code
    .split('\n')
    .map((line) =>
      /^\s*(?:import|export|from)\b/.test(line)
        ? line
        : line.replace(CODE_TOKENS, (m, triple, prefix: string, quote: string, body: string, at: number) => {
            // A key of an object literal (`{'Content-Type': …}`) must stay a literal in JavaScript.
            if (triple || !quote || prefix || /^\s*:/.test(line.slice(at + m.length))) return m;
            const h = halves(body);
            return h ? `(${quote}${h[0]}${quote} + ${quote}${h[1]}${quote})` : m;
          }),
    )
    .join('\n');
}

const SHELL_RESERVED = /^(?:function|select|until|while|elif|then|else|done|esac|case|for|if|do|in|fi)$/;

// A word of plain characters (no quote, expansion or operator), between spaces or after `=`/`@`.
const SHELL_WORD = /(?<=^|[\s=@])([\w./~:%+,-]+)(?=$|\s)/g;
// A double-quoted string's literal runs.
const DOUBLE_QUOTED = /"((?:\\.|[^"\\])*)"/g;

/** A part of a shell line outside single quotes, its words and the literal runs of its double-quoted strings split. */
function splitShellPart(part: string): string {
  return part
    .split(DOUBLE_QUOTED)
    .map((p, j) => {
      if (j % 2 === 1)
        return `"${p.replace(/\$\{[^}]*\}|\$\w+|([\w./~:%+,-]{6,})/g, (m, run?: string) => {
          // An expansion's name stays whole; a literal run is split.
          const h = run ? halves(run) : null;
          return h ? `${h[0]}""${h[1]}` : m;
        })}"`;
      return p.replace(SHELL_WORD, (w: string) => {
        if (SHELL_RESERVED.test(w) || /^-/.test(w)) return w;
        const h = halves(w);
        // `~/…` expands only while its prefix up to the first slash stays unquoted.
        if (h && w.startsWith('~') && !h[0].includes('/')) return w;
        return h ? `${h[0]}''${h[1]}` : w;
      });
    })
    .join('');
}

/** A shell script with its literals split; here-documents (their opening lines too) and comments left alone. */
export const splitShell = (code: string): string => editShell(code, splitShellPart, { openers: false });

export const splitLiterals = (code: string, language: 'python' | 'js' | 'shell'): string =>
  language === 'shell' ? splitShell(code) : splitCode(code);
