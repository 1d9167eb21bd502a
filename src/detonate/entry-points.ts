import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { blankCode, commandStance } from '../core/markdown/command-stance.js';
import { type Framing, parseMarkdown } from '../core/markdown.js';
import type { Skill, SkillFile } from '../core/types.js';
import { inferInvocations } from './arguments.js';
import { dataShape } from './data-shape.js';
import { harnessArgv, uncalledFunctions } from './harness.js';
import { type NamedInput, namedInputs, type SampleInput } from './samples.js';
import { SHIM_HOME_DIR } from './shims.js';
import { typescriptLoader } from './typescript-loader.js';

// Entry points of a skill: its scripts (run with no arguments, with --help, and with a sample input) and the
// commands SKILL.md tells the agent to run (fenced shell blocks and inline commands framed as instructions).

export interface SandboxLayout {
  /** The skill folder as the sandboxed process sees it. */
  skillDir: string;
  /** The folder holding the sample inputs, as the sandboxed process sees it. */
  inputsDir: string;
  /** The sandbox HOME, where the platform shims live (shims.ts). */
  home: string;
}

export interface EntryPoint {
  /** Readable and unique: `scripts/x.py --help`, `SKILL.md:42`. */
  id: string;
  argv: string[];
  cwd: string;
  /** Where the code that runs is written: a script, or the lines of a command in SKILL.md. */
  origin: { file: string; line: number; endLine: number };
  /**
   * What the run stands for: a skill script, a command SKILL.md tells the agent to run, or a setup step it tells
   * the user to run. Recorded in detonation.json with the framing and reason, so every run can be traced back.
   */
  runAs: 'script' | 'instruction' | 'user-setup' | 'script-help' | 'install-hook';
  /** The markdown framing of the span the command came from (null for scripts). */
  framing: Framing | null;
  /** Why this entry point was chosen, in a sentence. */
  why: string;
  /** Run twice in one sandbox, the second time (the one recorded) with the clock this many days ahead (clock.ts). */
  later?: number;
  /** Host folders the interpreter needs, shown read-only inside (typescript-loader.ts). */
  readOnlyPaths?: string[];
  /** A sample file this run is given that an earlier run stopped on, missing: its seed path (SeedFile.path). */
  given?: string;
}

export interface Skipped {
  file: string;
  reason: string;
}

/** The PATH of every sandboxed run: interpreters must come from it, since the sandbox hides /root and /home. */
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

function which(program: string): string | null {
  for (const dir of SANDBOX_PATH.split(delimiter)) {
    const candidate = join(dir, program);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** The interpreter command for a script language on this host, or why there is none. */
function interpreterFor(file: SkillFile): string[] | string {
  switch (file.language) {
    case 'python':
      return which('python3') ? [which('python3')!] : 'python3 is not installed';
    case 'bash':
      return [which('bash') ?? '/bin/sh'];
    case 'javascript':
      return [process.execPath];
    case 'typescript': {
      const loader = typescriptLoader();
      return typeof loader === 'string' ? loader : [process.execPath, ...loader.nodeArgs];
    }
    case 'powershell':
      return which('pwsh') ? [which('pwsh')!, '-NoProfile', '-File'] : 'PowerShell (pwsh) is not installed';
    case 'ruby':
      return which('ruby') ? [which('ruby')!] : 'ruby is not installed';
    case 'perl':
      return which('perl') ? [which('perl')!] : 'perl is not installed';
    // Its default target, as `make` in the folder runs it.
    case 'make':
      return which('make') ? [which('make')!, '-f'] : 'make is not installed';
    default:
      return `no interpreter for ${file.language ?? 'unknown language'}`;
  }
}

const COMMAND_START =
  /^(?:\$\s+)?(?:sudo\s+)?(?:(?:python3?|bash|sh|zsh|node|npx|tsx|deno|bun|uv|uvx|pip3?|npm|pnpm|yarn|curl|wget|git|make|open|osascript|powershell|pwsh)(?=\s|$)|\.\/|scripts\/|~\/|\{baseDir\}|\$\{?[A-Z_]*SKILL)/;
// A one-liner that feeds a shell or decodes into one is a command whatever word it starts with
// (`echo <base64> | base64 -D | bash`, `cat x | sh`).
const PIPES_INTO_SHELL = /\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\|\s*python3?\b|\bbase64\s+(?:-[dD]\b|--decode)/;
// PowerShell spelled as a command of its own (`irm https://… | iex`): run under pwsh (a shim says when it is absent).
const POWERSHELL_ONE_LINER = /\|\s*iex\b|^\s*(?:irm|iwr|iex|Invoke-(?:WebRequest|RestMethod|Expression))\b/i;
const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'terminal']);
const POWERSHELL_LANGS = new Set(['powershell', 'pwsh', 'ps1', 'ps']);

/** Whether text in a code span or block reads as a command to run. */
// A lone path to a data file or a folder (`~/.config/tool/config.json`, `scripts/`) names it; it runs nothing.
const FILE_MENTION =
  /^\S*\.(?:json|jsonl|ya?ml|md|txt|csv|tsv|toml|ini|conf|cfg|log|xml|html?|lock|env|pem|key)$|^\S+\/$/i;

function looksLikeCommand(text: string): boolean {
  const t = text.trim();
  if (FILE_MENTION.test(t)) return false;
  return COMMAND_START.test(t) || PIPES_INTO_SHELL.test(t) || POWERSHELL_ONE_LINER.test(t);
}

/** Rewrites the placeholders skills use for their own folder and for input files into sandbox paths. */
export function substitutePlaceholders(
  command: string,
  skill: Skill,
  layout: SandboxLayout,
  samples: SampleInput[],
): string {
  const sampleFor = (hint: string): string => {
    const ext = /\.([a-z0-9]{2,5})\b/i.exec(hint)?.[1]?.toLowerCase();
    const sample = samples.find((s) => s.extension === ext) ?? samples.find((s) => s.extension === 'txt')!;
    return `${layout.inputsDir}/${sample.name}`;
  };
  return command
    .replace(/\{baseDir\}|\{skill_?dir\}|\$\{?CLAUDE_SKILL_DIR\}?|\$\{?SKILL_DIR\}?/gi, layout.skillDir)
    .replace(
      new RegExp(`~/\\.(?:claude|codex|agents|opencode)/skills/${skill.folderName}`, 'g'),
      layout.skillDir,
    )
    .replace(/<([^<>\n]{1,60})>/g, (_m, hint: string) => sampleFor(hint))
    .replace(/\bpath\/to\/[\w.-]+/g, (m) => sampleFor(m));
}

/** Run order of a script's entry points: every script's plain run first, --help last, so a tight budget keeps the runs that reach code. */
type ScriptRank = 0 | 1 | 2 | 3;

// A statement at the top of a module that awaits: `await x`, `const y = await x`, `for await (…)`.
const TOP_LEVEL_AWAIT = /^(?:(?:export\s+)?(?:const|let|var)\s[^=\n]*=\s*)?(?:await\b|for\s+await\b)/m;

/**
 * Where a TypeScript script with top-level await runs from: a `.mts` twin beside it. Such a script can only be an
 * ES module (Bun, Deno and Node 22 take it as one by its syntax), but Node 20's tsx compiles a `.ts` outside a
 * `type: module` package as CommonJS, where it fails to build; as `.mts` it runs as written. Null for any other.
 */
export function esModuleTwin(file: SkillFile, shipped: ReadonlySet<string>): string | null {
  if (file.language !== 'typescript' || !file.path.endsWith('.ts') || !TOP_LEVEL_AWAIT.test(file.text ?? ''))
    return null;
  const twin = file.path.replace(/\.ts$/, '.mts');
  return shipped.has(twin) ? null : twin;
}

function scriptEntries(
  file: SkillFile,
  layout: SandboxLayout,
  samples: SampleInput[],
  /** The file to run instead of the script itself (esModuleTwin), relative to the skill's folder. */
  runPath: string = file.path,
): { entry: EntryPoint; rank: ScriptRank }[] | Skipped {
  const interpreter = interpreterFor(file);
  if (typeof interpreter === 'string') return { file: file.path, reason: interpreter };
  const script = `${layout.skillDir}/${runPath}`;
  const origin = { file: file.path, line: 1, endLine: Math.max(1, (file.text ?? '').split('\n').length) };
  const base = [...interpreter, script];
  const loader = file.language === 'typescript' ? typescriptLoader() : null;
  const shared = {
    cwd: layout.skillDir,
    origin,
    framing: null,
    ...(loader && typeof loader !== 'string' ? { readOnlyPaths: loader.readOnlyPaths } : {}),
  };
  const plain: { entry: EntryPoint; rank: ScriptRank } = {
    rank: 0,
    entry: {
      id: file.path,
      argv: base,
      ...shared,
      runAs: 'script',
      why:
        file.language === 'make'
          ? 'a Makefile, its default target'
          : 'a script of the skill, run with no arguments',
    },
  };
  // make takes targets, not inputs or --help: its default target is the run.
  if (file.language === 'make') return [plain];
  const text = file.text ?? '';
  // With an input file of a type the script mentions (or plain text), so argument-driven paths run too.
  // A hint with an extension (`<urls.txt>`) names its type; else a type its words or the script mention.
  const sampleFor = (hint: string) =>
    samples.find((s) => hint.toLowerCase().endsWith(`.${s.extension}`)) ??
    samples.find((s) => s.extension !== 'txt' && hint.toLowerCase().includes(s.extension)) ??
    samples.find((s) => s.extension !== 'txt' && text.includes(`.${s.extension}`)) ??
    samples.find((s) => s.extension === 'txt');
  const out: { entry: EntryPoint; rank: ScriptRank }[] = [plain];
  const values = {
    file: (hint: string) => `${layout.inputsDir}/${sampleFor(hint)?.name ?? 'sample.txt'}`,
    output: `${layout.inputsDir}/output.txt`,
    dir: layout.inputsDir,
  };
  for (const inv of inferInvocations(file, values)) {
    out.push({
      rank: 1,
      entry: {
        id: `${file.path} ${inv.args.join(' ').replaceAll(`${layout.inputsDir}/`, '')}`,
        argv: [...base, ...inv.args],
        ...shared,
        runAs: 'script',
        why: `a script of the skill, run as its argument handling shows (${inv.why})`,
      },
    });
  }
  const uncalled = uncalledFunctions(file);
  const harness = uncalled.length ? harnessArgv(file, interpreter, script, values.file('')) : null;
  if (harness) {
    out.push({
      rank: 1,
      entry: {
        id: `${file.path} (calls ${uncalled.slice(0, 4).join(', ')}${uncalled.length > 4 ? ', …' : ''})`,
        argv: harness,
        ...shared,
        runAs: 'script',
        why: 'a script of the skill that defines functions it never calls itself (called from elsewhere): loaded and each called with plausible arguments',
      },
    });
  }
  const sample = sampleFor('');
  const sampleArgv = sample ? [...base, `${layout.inputsDir}/${sample.name}`] : [];
  // Not again when the argument handling already gave the script exactly that input.
  if (sample && !out.some((o) => o.entry.argv.join('\0') === sampleArgv.join('\0'))) {
    out.push({
      rank: 2,
      entry: {
        id: `${file.path} ${sample.name}`,
        argv: sampleArgv,
        ...shared,
        runAs: 'script',
        why: `a script of the skill, given a sample .${sample.extension} input`,
      },
    });
  }
  out.push({
    rank: 3,
    entry: {
      id: `${file.path} --help`,
      argv: [...base, '--help'],
      ...shared,
      // A --help run prints usage: it shows what runs at start-up, never that the script's main path is clean.
      runAs: 'script-help',
      why: 'a script of the skill, asked for its usage',
    },
  });
  return out;
}

// A quoted command the sentence rules out or warns against is a counter-example, never run: the section and
// lead-in framing miss these when the warning sits in the command's own sentence (commandStance, shared with
// the scan). Broad on purpose: a command left unrun keeps its finding at no_probe, while a forbidden command
// run as if it were an instruction would confirm a risk the skill warns against.
// A comment line that opens with a warning ("# Never run this:"), not one that merely contains "don't forget".
const FORBIDDING_COMMENT =
  /^\s*(#|\/\/|rem\b)\s*(❌|🚫|⛔|(bad|wrong|unsafe|insecure|dangerous|never|avoid|(don'?t|do not)(?!\s+forget))\b)/im;

/** How a SKILL.md command runs: a shell, or PowerShell through its shim (which says when pwsh is absent). */
function commandArgv(code: string, powershell: boolean, layout: SandboxLayout, bash: string): string[] {
  return powershell
    ? [`${layout.home}/${SHIM_HOME_DIR}/pwsh`, '-NoProfile', '-NonInteractive', '-Command', code]
    : [bash, '-c', code];
}

/** A command that runs TypeScript through tsx or ts-node (the sandbox's shims) is shown the loader read-only. */
function typescriptRunnerPaths(command: string): { readOnlyPaths?: string[] } {
  if (!/(^|[\s;&|(])(npx\s+(-y\s+|--yes\s+)?)?(tsx|ts-node)(@\S*)?\s/.test(command)) return {};
  const loader = typescriptLoader();
  return typeof loader === 'string' ? {} : { readOnlyPaths: loader.readOnlyPaths };
}

function commandEntries(
  skill: Skill,
  layout: SandboxLayout,
  samples: SampleInput[],
): { entries: EntryPoint[]; skipped: Skipped[]; inputs: NamedInput[] } {
  const skillMd = skill.files.find((f) => f.path === 'SKILL.md');
  if (!skillMd?.text) return { entries: [], skipped: [], inputs: [] };
  const shipped = new Set(skill.files.map((f) => f.path));
  const inputs: NamedInput[] = [];
  const addInputs = (command: string) => {
    for (const input of namedInputs(command, shipped, dataShape(skill)))
      if (!inputs.some((i) => i.path === input.path)) inputs.push(input);
  };
  const doc = parseMarkdown(skillMd.text);
  const prose = blankCode(skillMd.text, doc.codeRanges);
  const entries: EntryPoint[] = [];
  const skipped: Skipped[] = [];
  const bash = which('bash') ?? '/bin/sh';
  // Setup steps aimed at the user are run too (agents run them, and lures hide there), recorded as user-setup.
  const runAs = (framing: Framing) => (framing === 'user-action' ? 'user-setup' : 'instruction');
  const framedAs = (framing: Framing, section: string) =>
    framing === 'user-action'
      ? `a setup step SKILL.md tells the user to run${section ? ` (section "${section}")` : ''}`
      : `a command SKILL.md tells the agent to run${section ? ` (section "${section}")` : ''}`;
  for (const block of doc.codeBlocks) {
    if (block.framing !== 'instruction' && block.framing !== 'user-action') continue;
    const lang = block.lang.toLowerCase();
    const powershell =
      POWERSHELL_LANGS.has(lang) || (lang === '' && POWERSHELL_ONE_LINER.test(block.code.trim()));
    const shellLike = SHELL_LANGS.has(lang) || (lang === '' && looksLikeCommand(block.code));
    if ((!shellLike && !powershell) || !block.code.trim()) continue;
    if (FORBIDDING_COMMENT.test(block.code)) {
      skipped.push({
        file: `SKILL.md:${block.line}`,
        reason: 'a comment in the block warns against running it: quoted as a counter-example',
      });
      continue;
    }
    // A leading "$ " prompt is how docs show commands; the shell must not see it.
    const code = block.code
      .split('\n')
      .map((l) => l.replace(/^\s*\$\s+/, ''))
      .join('\n');
    addInputs(code);
    entries.push({
      id: `SKILL.md:${block.line}`,
      argv: commandArgv(substitutePlaceholders(code, skill, layout, samples), powershell, layout, bash),
      cwd: layout.skillDir,
      ...typescriptRunnerPaths(code),
      origin: { file: 'SKILL.md', line: block.line, endLine: block.endLine },
      runAs: runAs(block.framing),
      framing: block.framing,
      why: `fenced ${powershell ? 'PowerShell' : 'shell'} block framed as ${block.framing}: ${framedAs(block.framing, block.section)}`,
    });
  }
  for (const inline of doc.inlineCode) {
    if (inline.framing !== 'instruction' && inline.framing !== 'user-action') continue;
    if (!looksLikeCommand(inline.text)) continue;
    const id = `SKILL.md:${inline.line} \`${inline.text.slice(0, 40)}\``;
    const end = doc.codeRanges.find(([a]) => a === inline.start)?.[1] ?? inline.start + 1;
    const stance = commandStance(prose, inline.start, end);
    const sentence = skillMd.text.slice(stance.from, stance.to).trim();
    if (stance.ruledOut || stance.warned) {
      skipped.push({
        file: id,
        reason: `quoted in a sentence that warns against it: "${sentence.slice(0, 160)}"`,
      });
      continue;
    }
    const command = substitutePlaceholders(inline.text.replace(/^\$\s+/, ''), skill, layout, samples);
    addInputs(command);
    entries.push({
      id,
      argv: commandArgv(command, POWERSHELL_ONE_LINER.test(inline.text), layout, bash),
      cwd: layout.skillDir,
      ...typescriptRunnerPaths(command),
      origin: { file: 'SKILL.md', line: inline.line, endLine: inline.line },
      runAs: runAs(inline.framing),
      framing: inline.framing,
      why: `inline command framed as ${inline.framing}: ${framedAs(inline.framing, '')}; its sentence: "${sentence.slice(0, 160)}"`,
    });
  }
  return { entries, skipped, inputs };
}

/** The folder holding a skill file, as the sandboxed process sees it: where its package manager runs. */
function folderInSandbox(file: SkillFile, layout: SandboxLayout): string {
  return file.path.includes('/')
    ? `${layout.skillDir}/${file.path.slice(0, file.path.lastIndexOf('/'))}`
    : layout.skillDir;
}

/** The lifecycle scripts a package manager runs by itself when the package is installed, in npm's order. */
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall', 'prepare'];

/**
 * A package.json's install hooks: `npm install` runs them with no one reading them first, which is why campaigns
 * put their droppers there. Each runs as npm would run it: through the shell, in the package's folder, with
 * its local binaries on PATH.
 */
function installHookEntries(skill: Skill, layout: SandboxLayout, bash: string): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const file of skill.files) {
    if (file.path.split('/').pop() !== 'package.json' || file.text === null) continue;
    let scripts: unknown;
    try {
      scripts = (JSON.parse(file.text) as { scripts?: unknown }).scripts;
    } catch {
      continue;
    }
    if (typeof scripts !== 'object' || scripts === null) continue;
    const dir = folderInSandbox(file, layout);
    const lines = file.text.split('\n');
    for (const hook of INSTALL_HOOKS) {
      const command = (scripts as Record<string, unknown>)[hook];
      if (typeof command !== 'string' || !command.trim()) continue;
      const index = lines.findIndex((l) => l.includes(`"${hook}"`));
      const line = index < 0 ? 1 : index + 1;
      entries.push({
        id: `${file.path} ${hook}`,
        argv: [bash, '-c', `PATH="${dir}/node_modules/.bin:$PATH"; ${command}`],
        cwd: dir,
        origin: { file: file.path, line, endLine: line },
        runAs: 'install-hook',
        framing: null,
        why: `the package's ${hook} hook: npm runs it by itself on install`,
      });
    }
  }
  return entries;
}

// setup.py commands pip runs on install (`pip install .`: egg_info, build, install; `pip install -e .`: develop),
// each as a legacy install invokes it; --user keeps an install in HOME, as the sandbox has no system site.
const SETUP_COMMANDS: Record<string, string[]> = {
  egg_info: ['egg_info'],
  build: ['build'],
  build_py: ['build_py'],
  build_ext: ['build_ext'],
  install: ['install', '--user'],
  develop: ['develop', '--user'],
  bdist_wheel: ['bdist_wheel'],
};

/**
 * A setup.py's own commands (`cmdclass={"develop": PostDevelop}`): pip runs them on install, and only then, which
 * is where campaigns put their code; a plain run of setup.py stops at "no commands supplied". Each custom command
 * runs as the install would run it.
 */
function setupPyHookEntries(skill: Skill, layout: SandboxLayout): EntryPoint[] {
  const python = which('python3');
  if (!python) return [];
  const entries: EntryPoint[] = [];
  for (const file of skill.files) {
    if (file.path.split('/').pop() !== 'setup.py' || !file.text) continue;
    const cmdclass = /\bcmdclass\s*=\s*\{([^}]*)\}/.exec(file.text);
    if (!cmdclass) continue;
    const dir = folderInSandbox(file, layout);
    const line = file.text.slice(0, cmdclass.index).split('\n').length;
    for (const m of cmdclass[1]!.matchAll(/["'](\w+)["']\s*:/g)) {
      const args = SETUP_COMMANDS[m[1]!];
      if (!args) continue;
      entries.push({
        id: `${file.path} ${args.join(' ')}`,
        argv: [python, `${layout.skillDir}/${file.path}`, ...args],
        cwd: dir,
        origin: { file: file.path, line, endLine: line },
        runAs: 'install-hook',
        framing: null,
        why: `setup.py's own ${m[1]} command: pip runs it on install`,
      });
    }
  }
  return entries;
}

/**
 * Every entry point, SKILL.md commands first (they are what the agent is told to run; with them, the input files
 * they name that the skill does not ship), then package install hooks, then scripts: each script run plainly,
 * then with the subcommands and arguments its code shows, then with a sample input, then with --help.
 */
export function findEntryPoints(
  skill: Skill,
  layout: SandboxLayout,
  samples: SampleInput[],
): { entries: EntryPoint[]; skipped: Skipped[]; inputs: NamedInput[]; twins: NamedInput[] } {
  const commands = commandEntries(skill, layout, samples);
  const shipped = new Set(skill.files.map((f) => f.path));
  const twins: NamedInput[] = [];
  const hooks = [
    ...installHookEntries(skill, layout, which('bash') ?? '/bin/sh'),
    ...setupPyHookEntries(skill, layout),
  ];
  const skipped: Skipped[] = [...commands.skipped];
  const scripts: { entry: EntryPoint; rank: ScriptRank }[] = [];
  for (const file of skill.files) {
    if (file.kind !== 'script' || file.text === null) continue;
    const twin = esModuleTwin(file, shipped);
    if (twin) twins.push({ path: twin, content: Buffer.from(file.text) });
    const result = scriptEntries(file, layout, samples, twin ?? file.path);
    if (Array.isArray(result)) scripts.push(...result);
    else skipped.push(result);
  }
  // Stable: by rank, then in file order.
  scripts.sort((a, b) => a.rank - b.rank);
  return {
    entries: [...commands.entries, ...hooks, ...scripts.map((s) => s.entry)],
    skipped,
    inputs: commands.inputs,
    twins,
  };
}
