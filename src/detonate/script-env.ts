import type { Skill } from '../core/types.js';

// Environment variables a skill's scripts read and the sandbox does not set. A script that stops at "NOTION_TOKEN
// is not set" or bash's "DEPLOY_WORKDIR: unbound variable" never reaches its main path, so each gets a value of
// the kind its name says: a key, token or password is a canary secret (planted like the standard ones: its
// leaving the sandbox is exfiltration); a folder or file, one in the workspace; an id, name or region, a plain
// value. Names that switch behaviour (CI, DEBUG, DRY_RUN, SKIP_*) or point traffic somewhere (URL, HOST,
// ENDPOINT) stay unset: a value there would change what the skill does, or send it to a host nobody named.

export interface ScriptEnv {
  /** Secret names to plant as canaries. */
  secrets: string[];
  /** Plain values for the other names. */
  values: Record<string, string>;
}

const NAME = '[A-Z][A-Z0-9_]{2,63}';
// Reads in Python (os.environ[...], os.environ.get, os.getenv), JavaScript/TypeScript (process.env.X,
// process.env["X"], Deno.env.get) and shell guards (${X:?...}, [ -z "$X" ]).
const READS = [
  new RegExp(`\\benviron\\s*\\[\\s*["'](${NAME})["']\\s*\\]`, 'g'),
  new RegExp(`\\b(?:environ\\.get|getenv)\\(\\s*["'](${NAME})["']`, 'g'),
  new RegExp(`\\bprocess\\.env\\.(${NAME})\\b`, 'g'),
  new RegExp(`\\bprocess\\.env\\[\\s*["'\`](${NAME})["'\`]\\s*\\]`, 'g'),
  new RegExp(`\\bDeno\\.env\\.get\\(\\s*["'](${NAME})["']`, 'g'),
];
// Shell: every upper-case variable expanded without a default; those the script assigns itself are dropped below.
const SHELL_USE = new RegExp(`\\$\\{?(${NAME})(?![A-Z0-9_])(?!:?[-=+])`, 'g');
const SHELL_ASSIGN = [
  new RegExp(
    `(?:^|[\\s;&|(])(?:export\\s+|local\\s+|readonly\\s+|declare\\s+(?:-\\w+\\s+)*)?(${NAME})(?:\\[[^\\]]*\\])?\\+?=`,
    'gm',
  ),
  new RegExp(`\\bfor\\s+(${NAME})\\s+in\\b`, 'g'),
  new RegExp(`\\bread\\b[^;\\n|&]*?\\b(${NAME})\\b`, 'g'),
  new RegExp(`\\bgetopts\\s+\\S+\\s+(${NAME})\\b`, 'g'),
];
const SHELL_FILE = /\.(sh|bash|zsh)$/;

// Set by the system, the shell or the sandbox, or a tool's own configuration: never ours to invent.
const SYSTEM =
  /^(HOME|PATH|USER|LOGNAME|SHELL|PWD|OLDPWD|TMPDIR|TMP|TEMP|LANG|LANGUAGE|TERM|HOSTNAME|HOSTTYPE|UID|EUID|GID|PPID|RANDOM|SECONDS|LINENO|IFS|OPTARG|OPTIND|OPTERR|REPLY|PS[1-4]|EDITOR|VISUAL|PAGER|DISPLAY|OSTYPE|MACHTYPE|FUNCNAME|PIPESTATUS|SHLVL|COLUMNS|LINES|MAIL|TZ|COLORTERM|SUDO_\w+|(PYTHON|NODE|NPM|PIP|LD|GIT|SSH|XDG|LC|BASH|ZSH|TERM|DOCKER|KUBE|HTTPS?|NO|ALL|JAVA|GO|CARGO|RUST|CONDA|VIRTUAL|UV|POETRY|PNPM|YARN|BUN|DENO|SKILLAUDIT|RUNNER|GITHUB|GITLAB|CI|BUILDKITE|CIRCLE|TRAVIS|JENKINS|CODEX|CLAUDE|OPENCODE)_\w*|KUBECONFIG|PYTHONPATH|CI|[A-Z]_PROXY)$/;
// Switches and destinations: left unset (see above).
const SWITCH =
  /(^|_)(DEBUG|VERBOSE|QUIET|DRY_?RUN|TEST|TESTING|MODE|LEVEL|ENV|ENVIRONMENT|ENABLED?|DISABLED?|FORCE|SKIP|NO)$|^(NO|SKIP|DISABLE|ENABLE|FORCE|USE|ALLOW|IS|HAS)_/;
const DESTINATION =
  /(^|_)(URL|URI|HOST|HOSTNAME|ENDPOINT|BASE|SERVER|PROXY|ADDR|ADDRESS|PORT|DOMAIN|WEBHOOK|DSN|CONNECTION_STRING)$/;
const SECRET = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PAT|CREDENTIALS?|AUTH|COOKIE|SESSION)$/;
const FOLDER = /(^|_)(DIR|DIRECTORY|FOLDER|ROOT|WORKDIR|WORKSPACE|PATH|OUT|OUTPUT|DEST|CACHE)$/;
const FILE = /(^|_)FILE$/;
const EMAIL = /(^|_)EMAIL$/;
const REGION = /(^|_)(REGION|ZONE)$/;
const PLAIN =
  /(^|_)(ID|NAME|USER|USERNAME|LOGIN|ACCOUNT|ORG|ORGANIZATION|OWNER|REPO|PROJECT|TEAM|CHANNELS?|DATABASE|DB|BUCKET|NAMESPACE|CLUSTER|SPACE|TABLE|INDEX|MODEL|LOCALE|BRANCH)$/;
const MAX_NAMES = 16;

function namesRead(path: string, text: string): Set<string> {
  const names = new Set<string>();
  for (const re of READS) for (const m of text.matchAll(re)) names.add(m[1]!);
  if (SHELL_FILE.test(path) || /^#!.*\b(ba|z)?sh\b/.test(text)) {
    const assigned = new Set<string>();
    for (const re of SHELL_ASSIGN) for (const m of text.matchAll(re)) assigned.add(m[1]!);
    for (const m of text.matchAll(SHELL_USE)) if (!assigned.has(m[1]!)) names.add(m[1]!);
  }
  return names;
}

/** What each variable the skill's scripts read gets, given the sandbox's inputs folder. */
export function scriptEnv(skill: Skill, inputsDir: string, alreadySet: ReadonlySet<string>): ScriptEnv {
  const names = new Set<string>();
  for (const f of skill.files) {
    if (f.kind !== 'script' || f.text === null) continue;
    for (const n of namesRead(f.path, f.text)) names.add(n);
  }
  const out: ScriptEnv = { secrets: [], values: {} };
  let count = 0;
  for (const name of [...names].sort()) {
    if (count >= MAX_NAMES) break;
    if (alreadySet.has(name) || SYSTEM.test(name) || SWITCH.test(name) || DESTINATION.test(name)) continue;
    count++;
    if (SECRET.test(name)) out.secrets.push(name);
    else if (FILE.test(name)) out.values[name] = `${inputsDir}/sample.txt`;
    else if (FOLDER.test(name)) out.values[name] = inputsDir;
    else if (EMAIL.test(name)) out.values[name] = 'dev@example.com';
    else if (REGION.test(name)) out.values[name] = 'us-east-1';
    else if (PLAIN.test(name)) out.values[name] = 'sample';
    else count--;
  }
  return out;
}
