import type { SkillFile } from '../core/types.js';

// The command lines a script accepts, read from its own argument parsing: argparse subparsers and arguments,
// click / typer commands, commander / yargs commands, getopts strings, `case "$1" in` branches, argv
// comparisons and usage lines. Malicious scripts often hide the payload behind one subcommand; running each
// subcommand with plausible values reaches it. Everything here is read from the script text, never run.

export interface Invocation {
  /** Arguments after the script path. */
  args: string[];
  /** What the arguments were read from, for detonation.json. */
  why: string;
}

/** Plausible values for an argument, by what its name says it is. */
export interface ValueSource {
  /** A sample input file path (of a type the name or script mentions). */
  file: (hint: string) => string;
  /** A writable output path. */
  output: string;
  /** An existing folder holding the sample inputs. */
  dir: string;
}

const MAX_INVOCATIONS = 8;
const HELP = /^(-h|--help|help|-\?|--version|-v|version|\*)$/;

const NAME_VALUE: [RegExp, (v: ValueSource, name: string) => string][] = [
  [/out(put)?|dest|target|save|write/i, (v) => v.output],
  [/url|uri|endpoint|host|server|link/i, () => 'https://example.com/'],
  [/dir|folder|root|repo|project|workspace/i, (v) => v.dir],
  [/file|path|input|src|source|doc|image|img|pdf|csv|json|data/i, (v, n) => v.file(n)],
  [/count|num|number|limit|days|size|max|min|port|top|^n$|^k$/i, () => '3'],
  [/date|since|until/i, () => '2026-01-05'],
  [/lang|locale/i, () => 'en'],
  [/format|fmt|type|mode/i, () => 'json'],
];

// What a one-letter option usually stands for (getopts has nothing else to go by).
const OPTION_LETTER: Record<string, string> = {
  i: 'input',
  f: 'file',
  o: 'output',
  u: 'url',
  n: 'count',
  d: 'dir',
  p: 'path',
};

function valueFor(name: string, values: ValueSource): string {
  const bare = name.replace(/^-+/, '').replace(/[<>[\]{}.]/g, '');
  for (const [re, make] of NAME_VALUE) if (re.test(bare)) return make(values, bare);
  return 'sample';
}

/** A part of a compound placeholder (`<owner>/<repo>`): a number or a host where the name says so, else the name. */
function compoundPart(name: string): string {
  if (/count|num|number|port|id$|^n$/i.test(name)) return '3';
  if (/host|domain|server/i.test(name)) return 'example.com';
  return name.toLowerCase().replace(/[^a-z0-9-]/g, '') || 'sample';
}

function unique(list: Invocation[]): Invocation[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    const key = i.args.join('\0');
    if (seen.has(key) || i.args.length === 0) return false;
    seen.add(key);
    return true;
  });
}

/** `a|b|c` or `{a,b,c}` in usage text: the subcommand words. */
function choicesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\{([\w-]+(?:,[\w-]+)+)\}|[(<[]?((?:[a-z][\w-]*\|)+[a-z][\w-]*)[)>\]]?/g)) {
    out.push(...(m[1] ?? m[2] ?? '').split(/[,|]/));
  }
  return out.filter((w) => !HELP.test(w));
}

function python(text: string, values: ValueSource): Invocation[] {
  const out: Invocation[] = [];
  // argparse: subparsers and the arguments added to each (tracked by the variable that holds the subparser).
  const parserVar = new Map<string, string>();
  for (const m of text.matchAll(/(\w+)\s*=\s*\w+\.add_parser\(\s*['"]([\w-]+)['"]/g))
    parserVar.set(m[1]!, m[2]!);
  const argsOf = new Map<string, string[]>();
  const topLevel: string[] = [];
  for (const m of text.matchAll(/(\w+)\.add_argument\(\s*['"]([^'"]+)['"]([^)]*)\)/g)) {
    const [, owner, name, rest] = m as unknown as [string, string, string, string];
    const required = !name.startsWith('-') || /required\s*=\s*True/.test(rest);
    if (!required) continue;
    const choice = /choices\s*=\s*\[\s*['"]([^'"]+)['"]/.exec(rest)?.[1];
    const arg = name.startsWith('-')
      ? [name, choice ?? valueFor(name, values)]
      : [choice ?? (/nargs\s*=\s*['"][?*]['"]/.test(rest) ? '' : valueFor(name, values))];
    const sub = parserVar.get(owner);
    const list = sub ? (argsOf.get(sub) ?? []) : topLevel;
    list.push(...arg.filter(Boolean));
    if (sub) argsOf.set(sub, list);
  }
  for (const m of text.matchAll(/\.add_parser\(\s*['"]([\w-]+)['"]/g)) {
    const sub = m[1]!;
    out.push({ args: [...topLevel, sub, ...(argsOf.get(sub) ?? [])], why: `argparse subcommand \`${sub}\`` });
  }
  if (out.length === 0 && topLevel.length) out.push({ args: topLevel, why: 'argparse required arguments' });
  // click / typer: a command per decorated function; its click.argument()s are positionals.
  const decorated =
    /@(\w+)\.command\(\s*(?:name\s*=\s*)?(?:['"]([\w-]+)['"])?[^)]*\)\s*\n((?:\s*@[^\n]*\n)*)\s*(?:async\s+)?def\s+(\w+)/g;
  for (const m of text.matchAll(decorated)) {
    const name = m[2] ?? m[4]!.replace(/_/g, '-');
    const positional = [...(m[3] ?? '').matchAll(/@\w+\.argument\(\s*['"]([\w-]+)['"]/g)].map((a) =>
      valueFor(a[1]!, values),
    );
    out.push({ args: [name, ...positional], why: `click/typer command \`${name}\`` });
  }
  // sys.argv comparisons: `if sys.argv[1] == "sync":`, `cmd = sys.argv[1]` … `if cmd == "sync"`.
  const argvVar = /(\w+)\s*=\s*sys\.argv\[1\]/.exec(text)?.[1];
  const compared = new RegExp(
    `(?:sys\\.argv\\[1\\]${argvVar ? `|\\b${argvVar}\\b` : ''})\\s*(?:==|in)\\s*[([]?\\s*['"]([\\w-]+)['"]`,
    'g',
  );
  for (const m of text.matchAll(compared))
    out.push({ args: [m[1]!], why: `compared with sys.argv[1]: \`${m[1]}\`` });
  return out;
}

function javascript(text: string, values: ValueSource): Invocation[] {
  const out: Invocation[] = [];
  // commander / yargs: `.command('sync <dir> [opts]')`, `.command({ command: 'sync' })`.
  for (const m of text.matchAll(
    /\.command\(\s*(?:\{\s*command\s*:\s*)?['"`]([\w-]+)((?:\s+[<[][\w.-]+[>\]])*)/g,
  )) {
    const required = [...(m[2] ?? '').matchAll(/<([\w.-]+)>/g)].map((a) => valueFor(a[1]!, values));
    out.push({ args: [m[1]!, ...required], why: `commander/yargs command \`${m[1]}\`` });
  }
  // Top-level required arguments: `.argument('<file>')`.
  const top = [...text.matchAll(/\.argument\(\s*['"`]<([\w.-]+)>/g)].map((a) => valueFor(a[1]!, values));
  if (top.length) out.push({ args: top, why: 'commander required arguments' });
  // process.argv comparisons.
  const argvVar = /(?:const|let|var)\s+(\w+)\s*=\s*process\.argv\[2\]/.exec(text)?.[1];
  const compared = new RegExp(
    `(?:process\\.argv\\[2\\]${argvVar ? `|\\b${argvVar}\\b` : ''})\\s*===?\\s*['"\`]([\\w-]+)['"\`]`,
    'g',
  );
  for (const m of text.matchAll(compared))
    out.push({ args: [m[1]!], why: `compared with process.argv[2]: \`${m[1]}\`` });
  for (const m of text.matchAll(/case\s+['"`]([\w-]+)['"`]\s*:/g)) {
    if (argvVar || /switch\s*\(\s*process\.argv\[2\]/.test(text))
      out.push({ args: [m[1]!], why: `switch on process.argv[2]: \`${m[1]}\`` });
  }
  return out;
}

function shell(text: string, values: ValueSource): Invocation[] {
  const out: Invocation[] = [];
  // Positional parameters by the names the script gives them: `db="${2:?database}"`, `engine=$1`. A script
  // that takes two or more, or insists on one (`:?`), gets a run with each filled; subcommand runs get the rest.
  const names = new Map<number, string>();
  for (const m of text.matchAll(/(?:^|\s)(?:local\s+)?(\w+)=["']?\$\{?([1-9])(?::?[?-]([\w-]*))?/gm))
    if (!names.has(Number(m[2]))) names.set(Number(m[2]), m[3] || m[1]!);
  const last = Math.max(0, ...names.keys());
  const insists = /\$\{[1-9]:?\?/.test(text);
  const positional = (from: number) =>
    Array.from({ length: Math.max(0, last - from + 1) }, (_, i) =>
      valueFor(names.get(from + i) ?? 'value', values),
    );
  if (last >= 2 || (last === 1 && insists))
    out.push({ args: positional(1), why: `positional parameters ${[...names.values()].join(', ')}` });
  // `case "$1" in a) … ;; b|c) … ;; esac`, also through `cmd=$1` / `cmd="${1:-}"`.
  const argVar = /^\s*(?:local\s+)?(\w+)=["']?\$\{?1(?::?[-?][^}]*)?\}?["']?\s*$/m.exec(text)?.[1];
  const subject = `\\$\\{?(?:1${argVar ? `|${argVar}` : ''})(?::?[-?][^}]*)?\\}?`;
  for (const m of text.matchAll(new RegExp(`case\\s+"?${subject}"?\\s+in([\\s\\S]*?)\\besac\\b`, 'g'))) {
    for (const label of m[1]!.matchAll(/^\s*\(?\s*([\w.-]+(?:\s*\|\s*[\w.-]+)*)\s*\)/gm)) {
      const word = label[1]!.split('|')[0]!.trim();
      if (!HELP.test(word))
        out.push({ args: [word, ...positional(2)], why: `\`case "$1"\` branch \`${word}\`` });
    }
  }
  // `[ "$1" = "sync" ]`, `[[ $1 == sync ]]`.
  for (const m of text.matchAll(new RegExp(`\\[\\[?\\s*"?${subject}"?\\s*==?\\s*["']?([\\w-]+)`, 'g'))) {
    if (!HELP.test(m[1]!)) out.push({ args: [m[1]!], why: `compared with $1: \`${m[1]}\`` });
  }
  // getopts: one run with every option, values for the ones that take one.
  const spec = /getopts\s+["']?:?([A-Za-z:]+)["']?/.exec(text)?.[1];
  if (spec) {
    const args: string[] = [];
    for (const m of spec.matchAll(/([A-Za-z])(:?)/g)) {
      if (m[1] === 'h') continue;
      args.push(`-${m[1]}`);
      if (m[2]) args.push(valueFor(OPTION_LETTER[m[1]!] ?? m[1]!, values));
    }
    out.push({ args, why: `getopts "${spec}": every option` });
  }
  return out;
}

/** The invocations a script's argument handling and usage text show, at most MAX_INVOCATIONS. */
export function inferInvocations(file: SkillFile, values: ValueSource): Invocation[] {
  const text = file.text ?? '';
  const found: Invocation[] = [];
  if (file.language === 'python') found.push(...python(text, values));
  else if (file.language === 'javascript' || file.language === 'typescript')
    found.push(...javascript(text, values));
  else if (file.language === 'bash') found.push(...shell(text, values));
  if (found.length === 0) {
    // Usage lines: `usage: sync.py {pull,push}`, `Usage: tool.sh (start|stop)`, and the required positionals
    // of `usage: gen.js <openapi.yaml> <out-dir>`, each given a value by what its name says it is.
    for (const line of text.matchAll(/usage:?\s*([^\n]{0,200})/gi)) {
      const why = `usage line \`${line[0].trim().slice(0, 80)}\``;
      for (const word of choicesIn(line[1]!)) found.push({ args: [word], why });
      // `<file> --to <lang> [--glossary <csv>]`: every placeholder, with the option written before it, if any.
      // `<owner>/<repo>`, `<host>:<port>`: one argument of several placeholders, each part a plain word.
      const placeholders = [
        ...line[1]!.matchAll(/(?:(--?[\w-]+)[ =])?((?:<[\w.-]{1,40}>[/:@#])*<([\w.-]{1,40})>)/g),
      ];
      if (placeholders.length)
        found.push({
          args: placeholders.flatMap(([, option, word, name]) => [
            ...(option ? [option] : []),
            word !== `<${name}>`
              ? word!.replace(/<([\w.-]+)>/g, (_, part: string) => compoundPart(part))
              : /\.[a-z]{2,5}$/i.test(name!)
                ? values.file(name!)
                : valueFor(name!, values),
          ]),
          why,
        });
    }
  }
  return unique(found).slice(0, MAX_INVOCATIONS);
}
