import type { SeedFile } from '../sandbox/types.js';
import { CLI_STAND_INS, cliStandInScript } from './cli-stand-ins.js';
import { reportPrefix } from './instrument-report.js';

// Platform shims: campaigns write their commands for macOS (and Windows) users. On Linux those commands die on
// a spelling (`base64 -D`, `open`, `osascript`, `| zsh`) before the payload runs, so the sandbox would record
// the typo instead of the behaviour. Each shim is a small POSIX sh script that translates the macOS spelling
// to the Linux tool, or records the call (strace sees its execve) and does nothing. Shims never touch the
// network or any credential: whatever a run does beyond them is the skill's own code.
// They sit in ~/.local/bin, first on PATH, as on many developer machines. They run the real tool as a child
// rather than exec it, so strace keeps the shim's own process and the run records which shim it needed.

/** The shim folder as the sandboxed process sees it, relative to HOME. */
export const SHIM_HOME_DIR = '.local/bin';

/** Exit status and message of a shim for an interpreter the sandbox lacks (signals.ts reads the message). */
const MISSING = (tool: string, what: string) =>
  `echo "${tool}: ${what} is not installed in the sandbox; the command was recorded, not run" >&2\nexit 127`;

// There is no root in the sandbox. The command runs as the same user (it fails wherever it needs root) and the
// call is recorded by its execve, so a privileged step is seen with what it ran (process-signals.ts tells an
// installer's `sudo apt-get install` from an escalation). A real sudo would stop at its setuid check instead.
const SUDO = `while [ $# -gt 0 ]; do
  case "$1" in
    -u|-g|-p|-C|-h|-r|-t|-U|-D|--user|--group|--prompt) [ $# -gt 1 ] && shift; shift ;;
    -s|-i|--shell|--login) shift; [ $# -eq 0 ] && set -- /bin/sh ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -eq 0 ] && exit 0
/usr/bin/env "$@"`;

const SHIMS: Record<string, string> = {
  sudo: SUDO,
  doas: SUDO,
  // macOS: -D decodes, -i/-o name the input and output files, -b wraps; GNU: -d, positional file, -w.
  base64: `decode=; garbage=; wrap=; in=; out=
while [ $# -gt 0 ]; do
  case "$1" in
    -D|-d|--decode) decode=-d ;;
    -i|--input) if [ $# -gt 1 ] && [ -e "$2" ]; then shift; in=$1; else garbage=-i; fi ;;
    --input=*) in=\${1#*=} ;;
    -o|--output) shift; out=$1 ;;
    --output=*) out=\${1#*=} ;;
    -b|--break|-w) shift; wrap="-w $1" ;;
    -Di|-di) decode=-d; garbage=-i ;;
    --) ;;
    -) in= ;;
    *) in=$1 ;;
  esac
  shift
done
if [ -n "$out" ] && [ "$out" != "-" ]; then /usr/bin/base64 $decode $garbage $wrap \${in:+"$in"} > "$out"; exit $?; fi
/usr/bin/base64 $decode $garbage $wrap \${in:+"$in"}`,
  // Opening a URL, file or app: recorded by its execve, nothing opened.
  open: 'exit 0',
  // AppleScript: recorded, not run. A dialog that asks for text gets an empty answer, as if the user typed none.
  osascript: `case "$*" in *"default answer"*) echo "button returned:OK, text returned:" ;; esac
exit 0`,
  // The macOS keychain: recorded, nothing found.
  security: 'exit 0',
  // macOS file attributes, flags, signing and Gatekeeper: installers clear the download quarantine, hide a
  // folder and sign a helper before their payload, under `set -e`. Recorded, nothing changed.
  xattr: 'exit 0',
  chflags: 'exit 0',
  codesign: 'exit 0',
  spctl: 'exit 0',
  // A delay that waits out the sandbox (`sleep 900 && curl … | sh`): recorded, returns at once, so the run reaches
  // what comes after within its time limit. Python's time.sleep is shortened the same way (python-fallbacks.ts).
  sleep: 'exit 0',
  // Scheduled persistence: the table a skill installs is kept where the run's file changes show it
  // (signals.ts counts it as persistence); `crontab -l` lists it, or says there is none, as cron does.
  crontab: `tab="$HOME/.local/share/cron/crontab"
case "$1" in
  -l) if [ -f "$tab" ]; then cat "$tab"; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
  -r) rm -f "$tab" ;;
  -e) exit 0 ;;
  *) mkdir -p "\${tab%/*}"; if [ $# -eq 0 ] || [ "$1" = "-" ]; then cat > "$tab"; else cat "$1" > "$tab"; fi ;;
esac`,
  // macOS services: recorded, nothing loaded (the plist a skill writes is seen as a file change).
  launchctl: 'exit 0',
  pbcopy: 'cat > /dev/null',
  pbpaste: 'exit 0',
  sw_vers: `case "$1" in
  -productName) echo macOS ;;
  -productVersion) echo 14.5 ;;
  -buildVersion) echo 23F79 ;;
  *) printf 'ProductName:\\tmacOS\\nProductVersion:\\t14.5\\nBuildVersion:\\t23F79\\n' ;;
esac`,
  // macOS's default shell: the real zsh when installed, else bash reads the same one-liners.
  zsh: `for z in /usr/bin/zsh /bin/zsh /usr/local/bin/zsh; do [ -x "$z" ] && { "$z" "$@"; exit $?; }; done
/bin/bash "$@"`,
  // \`python\` on a machine with only python3.
  python: `for p in /usr/local/bin/python /usr/bin/python /usr/local/bin/python3 /usr/bin/python3; do [ -x "$p" ] && { "$p" "$@"; exit $?; }; done
${MISSING('python', 'Python')}`,
  // PowerShell runs when pwsh is installed; otherwise the command is recorded as needing it, never skipped silently.
  pwsh: `for p in /usr/bin/pwsh /usr/local/bin/pwsh /opt/microsoft/powershell/7/pwsh; do [ -x "$p" ] && { "$p" "$@"; exit $?; }; done
${MISSING('pwsh', 'PowerShell (pwsh)')}`,
  powershell: `for p in /usr/bin/pwsh /usr/local/bin/pwsh /opt/microsoft/powershell/7/pwsh; do [ -x "$p" ] && { "$p" "$@"; exit $?; }; done
${MISSING('powershell', 'PowerShell (pwsh)')}`,
};

// Installs that cannot complete offline. `npm install` (and pip, through sitecustomize: python-fallbacks.ts) runs
// for real (what it contacts is evidence: an extra index, a registry), but offline it fails, and a skill's `npm
// install && node scripts/run.js` or a script's `set -e` then stops before its own code. So a failed install says
// so on stderr (INSTALL_NOTE: the run is never counted complete, signals.ts) and lets the command go on, as it
// would on a machine with the packages; what they would have done is missing (module stand-ins cover imports).
export const INSTALL_NOTE = reportPrefix('install');
const INSTALL = (tool: string, paths: string, installs: string) =>
  `real=; for p in ${paths}; do [ -x "$p" ] && { real=$p; break; }; done
[ -n "$real" ] || { ${MISSING(tool, tool)}; }
case " $* " in ${installs}) ;; *) "$real" "$@"; exit $? ;; esac
"$real" "$@" && exit 0
printf '\\n%s\\n' "${INSTALL_NOTE}${tool} $*" | cut -c1-300 >&2
exit 0`;
const INSTALL_SHIMS: Record<string, string> = {
  npm: INSTALL('npm', '/usr/local/bin/npm /usr/bin/npm', `" install "*|" i "*|" ci "*|" add "*`),
};

/**
 * TypeScript runners the sandbox has no package for (`npx tsx scripts/x.ts`, `tsx x.ts`): run with SkillAudit's
 * own tsx loader (typescript-loader.ts), which a run that names them is shown read-only. npx's other packages
 * run through the real npx.
 */
function typescriptRunners(nodeArgs: readonly string[]): Record<string, string> {
  // A script with top-level await runs from its .mts twin when detonation put one beside it (esModuleTwin).
  const node = `script=$1; [ $# -gt 0 ] && shift
case "$script" in *.ts) [ -f "\${script%.ts}.mts" ] && script="\${script%.ts}.mts" ;; esac
${process.execPath} ${nodeArgs.map((a) => `'${a}'`).join(' ')} "$script" "$@"`;
  return {
    tsx: node,
    'ts-node': node,
    npx: `first=$1
case "$first" in -y|--yes) shift ;; esac
case "$1" in tsx|tsx@*|ts-node|ts-node@*) shift; ${node}; exit $? ;; esac
[ "$first" = "$1" ] || set -- "$first" "$@"
for p in /usr/local/bin/npx /usr/bin/npx; do [ -x "$p" ] && { "$p" "$@"; exit $?; }; done
${MISSING('npx', 'npx')}`,
  };
}

const SHIM_HEADER = '#!/bin/sh\n';

/** The shims as seed files for the sandbox HOME; `tsxArgs`: node's arguments that load tsx, when there is one. */
export function shimSeedFiles(tsxArgs: readonly string[] | null = null): SeedFile[] {
  const all = {
    ...Object.fromEntries(
      Object.entries(CLI_STAND_INS).map(([tool, s]) => [tool, cliStandInScript(tool, s)]),
    ),
    ...SHIMS,
    ...INSTALL_SHIMS,
    ...(tsxArgs ? typescriptRunners(tsxArgs) : {}),
  };
  return Object.entries(all).map(([name, body]) => ({
    path: `~/${SHIM_HOME_DIR}/${name}`,
    content: `${SHIM_HEADER}${body}\n`,
    mode: 0o755,
  }));
}

/** Which shim an executable path is, or null: the run used a platform shim (recorded as coverage). */
export function shimOf(executable: string | null | undefined, innerHome: string): string | null {
  const prefix = `${innerHome}/${SHIM_HOME_DIR}/`;
  if (!executable?.startsWith(prefix)) return null;
  const name = executable.slice(prefix.length);
  return name in SHIMS || name in INSTALL_SHIMS || name in CLI_STAND_INS || /^(tsx|ts-node|npx)$/.test(name)
    ? name
    : null;
}
