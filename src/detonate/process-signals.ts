import type { ProcessRecord, SensitiveRead } from '../sandbox/evidence.js';

// Behaviour read off the process tree of a run: decoded code handed to an interpreter, and privileged
// commands told apart by what they touch. Both are what a static finding predicts (SC3, PE2), seen happening.

/** The file name of a program path (`/usr/bin/sudo` → `sudo`), '' for none. */
export function programName(path: string | null | undefined): string {
  return (path ?? '').split('/').pop() ?? '';
}

// --- Decoded code that ran ---------------------------------------------------------------------------------

/** Decoders whose output is the program a piped interpreter runs (`echo … | base64 -d | sh`), by option. */
const DECODERS: Record<string, (args: string[]) => boolean> = {
  base64: (a) => a.some((x) => /^-[a-zA-Z]*[dD]/.test(x) || x === '--decode'),
  base32: (a) => a.some((x) => /^-[a-zA-Z]*d/.test(x) || x === '--decode'),
  basenc: (a) => a.some((x) => /^-[a-zA-Z]*d/.test(x) || x === '--decode'),
  openssl: (a) => a.includes('-d') && a.some((x) => /^-?(base64|a|enc)$/.test(x)),
  xxd: (a) => a.some((x) => /^-[a-z]*r/.test(x)),
  uudecode: () => true,
  gunzip: () => true,
  zcat: () => true,
  gzip: (a) => a.some((x) => /^-[a-z]*d/.test(x) || x === '--decompress'),
  xz: (a) => a.some((x) => /^-[a-z]*d/.test(x) || x === '--decompress'),
  rev: () => true,
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'node', 'perl', 'ruby', 'php']);

/** An interpreter that reads its program from stdin: no script, no `-c`/`-e` program, or `-`/`-s`. */
function readsProgramFromStdin(argv: string[]): boolean {
  if (!INTERPRETERS.has(programName(argv[0]))) return false;
  const args = argv.slice(1);
  if (args.some((a) => /^-[a-zA-Z]*[ceE]$/.test(a) || a === '--eval')) return false;
  return args.every((a) => a.startsWith('-'));
}

function isDecoder(argv: string[]): boolean {
  return DECODERS[programName(argv[0])]?.(argv.slice(1)) ?? false;
}

function childrenOf(processes: readonly ProcessRecord[]): Map<number, ProcessRecord[]> {
  const out = new Map<number, ProcessRecord[]>();
  for (const p of processes) {
    if (p.ppid === null) continue;
    out.set(p.ppid, [...(out.get(p.ppid) ?? []), p]);
  }
  return out;
}

function descendants(pid: number, children: Map<number, ProcessRecord[]>): ProcessRecord[] {
  const out: ProcessRecord[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0 && out.length < 1000) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/**
 * Decoded code that ran: an interpreter reading its program from stdin, started beside a decoder in the same
 * pipeline (same parent), started commands of its own. What it started is the evidence; an interpreter that only
 * ran builtins (`echo ok`) shows nothing and is not reported, so a quiet payload is never taken for a clean one
 * here either (verdicts.ts keeps such findings at no_probe).
 */
export function decodedCodeRuns(processes: readonly ProcessRecord[]): string[] {
  const children = childrenOf(processes);
  const out: string[] = [];
  for (const p of processes) {
    if (p.ppid === null || !readsProgramFromStdin(p.argv)) continue;
    const decoder = children.get(p.ppid)?.find((s) => s !== p && isDecoder(s.argv));
    if (!decoder) continue;
    // A platform shim (zsh → bash) is the same interpreter again: what ran is below it.
    const ran = descendants(p.pid, children).filter(
      (d) => d.executable !== null && !readsProgramFromStdin(d.argv) && !isDecoder(d.argv),
    );
    if (ran.length === 0) continue;
    const what = ran
      .slice(0, 5)
      .map((d) => `\`${d.argv.join(' ').slice(0, 120)}\``)
      .join(', ');
    out.push(
      `decoded code ran: \`${decoder.argv.join(' ')} | ${p.argv.join(' ')}\` started ${what}${ran.length > 5 ? ', …' : ''}`,
    );
  }
  return out;
}

// --- Privileged commands -----------------------------------------------------------------------------------

const PRIVILEGE_PROGRAMS = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser', 'setpriv']);

/**
 * What a privileged command must touch to be an escalation rather than an installer's step: the files that
 * decide who is root (sudoers, passwd, shadow, PAM, the preload list), root's home, setuid and world-writable
 * modes, capabilities, and adding a user to an admin group. `sudo apt-get install jq` touches none of them.
 */
const ESCALATION_TARGETS: { re: RegExp; what: string }[] = [
  {
    re: /\/etc\/(sudoers|passwd|shadow|gshadow|group|pam\.d|ld\.so\.preload|security\/|ssh\/sshd_config)/,
    what: 'an account or sudo file',
  },
  { re: /(^|\s)\/root(\/|\s|$)/, what: "root's home" },
  { re: /\bNOPASSWD\b/, what: 'a password-less sudo rule' },
  {
    re: /\bchmod\s+(-\w+\s+)*([ugoa]*\+\w*s\w*|[2-7][0-7]{3}|0?777)\b/,
    what: 'a setuid or world-writable mode',
  },
  { re: /\bsetcap\b|\bvisudo\b/, what: 'capabilities or the sudo policy' },
  { re: /\b(usermod|gpasswd|adduser|useradd)\b.*\b(sudo|wheel|root|admin)\b/, what: 'an admin group' },
  { re: /(^|\s)(sh|bash|zsh|su)(\s+-[il]*)?\s*$|(^|\s)-[is]\s*$/, what: 'a root shell' },
];

export interface Privilege {
  /** Escalations: a privileged command that touched an escalation target, or a write to a system secret. */
  escalations: string[];
  /** Privileged commands that touched none (an installer's `sudo apt-get install`): shown, never confirmed. */
  other: string[];
}

/** Privileged commands of a run, and writes to the system's secret files, told apart by what they touch. */
export function privilegeUse(
  processes: readonly ProcessRecord[],
  sensitive: readonly SensitiveRead[],
): Privilege {
  const escalations: string[] = [];
  const other: string[] = [];
  for (const p of processes) {
    if (!PRIVILEGE_PROGRAMS.has(programName(p.executable ?? p.argv[0]))) continue;
    const command = p.argv.join(' ');
    const target = ESCALATION_TARGETS.find((t) => t.re.test(command));
    if (target) escalations.push(`ran ${command.slice(0, 200)} (${target.what})`);
    else other.push(`ran ${command.slice(0, 200)} (no account, sudo or setuid target)`);
  }
  for (const r of sensitive) {
    if (!r.write || r.rule !== 'system-secrets') continue;
    escalations.push(`tried to write ${r.path}${r.error ? ` (refused: ${r.error})` : ''}`);
  }
  return { escalations: [...new Set(escalations)], other: [...new Set(other)] };
}
