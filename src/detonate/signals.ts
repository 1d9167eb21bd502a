import type { EvidenceBundle, FsChange } from '../sandbox/evidence.js';
import type { ToolCredentialUse } from './tool-credentials.js';

// What a detonation run did, read off its evidence bundle as the few behaviours that settle static findings.

// Package registries a package manager contacts on its own: the tool's vendor, not the skill's destination.
const VENDOR_HOSTS = [
  'pypi.org',
  'files.pythonhosted.org',
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'rubygems.org',
];

const PERSISTENCE_RE =
  /(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.config\/fish\/|\.config\/autostart\/|\.config\/systemd\/user\/|Library\/LaunchAgents\/|\.ssh\/authorized_keys|\.gitconfig|CLAUDE\.md|AGENTS\.md|\.claude\/|\.codex\/|\.config\/opencode\/|\.cursor\/|\.agents\/skills\/|\.local\/bin\/)/;

/** Sandbox folders for scratch files: what a run leaves there is staging, not persistence. */
const SCRATCH_ROOTS: ReadonlySet<FsChange['root']> = new Set(['tmp', 'var-tmp', 'dev-shm']);
const PRIVILEGE_PROGRAMS = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser', 'setpriv']);
const FETCHERS = new Set(['curl', 'wget', 'fetch', 'aria2c']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'python', 'python3', 'node', 'perl', 'ruby', 'pwsh']);

export interface Destination {
  host: string;
  address: string;
  port: number | null;
  protocol: string;
  /** Bytes the run sent there, when the sink saw them. */
  bytes: number;
  /** A one-line description for reports. */
  summary: string;
}

export interface RunSignals {
  /** Canary tokens seen leaving: in a network payload, a DNS name, or a file outside the workspace. */
  canaryExfil: { canary: string; where: string }[];
  /** Network destinations the skill does not declare (vendor registries excluded). */
  undeclared: Destination[];
  /** Declared or vendor destinations, for the record. */
  expected: Destination[];
  credentialReads: { path: string; canary: string | null; argv: string[] }[];
  /** A tool using its own credential for its own endpoint (tool-credentials.ts): shown, never a confirmation. */
  expectedCredentialUse: string[];
  privilege: string[];
  persistence: FsChange[];
  /** A fetcher (curl, wget) ran and a shell or interpreter ran after it, or a downloaded file was executed. */
  fetchThenExec: string[];
  tmpLeftovers: string[];
  timedOut: boolean;
  processes: string[];
}

function base(program: string | null | undefined): string {
  return (program ?? '').split('/').pop() ?? '';
}

function hostMatches(host: string, list: Iterable<string>): boolean {
  const h = host.toLowerCase();
  for (const d of list) if (h === d || h.endsWith(`.${d}`)) return true;
  return false;
}

/** The destinations of a run: hostnames from the sink when it ran, else the DNS names and addresses strace saw. */
function destinations(evidence: EvidenceBundle): Destination[] {
  const out: Destination[] = [];
  for (const r of evidence.network.sink) {
    const host = r.host ?? r.address;
    const what =
      r.kind === 'dns'
        ? `DNS ${r.queryType ?? 'A'} ${host}`
        : `${r.method ?? r.protocol.toUpperCase()} ${host}${r.path ?? ''}`;
    out.push({ host, address: r.address, port: r.port, protocol: r.protocol, bytes: r.bytes, summary: what });
  }
  if (evidence.network.mode !== 'sink') {
    for (const q of evidence.network.dnsQueries) {
      out.push({
        host: q.name,
        address: '',
        port: 53,
        protocol: 'dns',
        bytes: 0,
        summary: `DNS ${q.type} ${q.name} (blocked)`,
      });
    }
    for (const a of evidence.network.attempts) {
      if (a.protocol === 'unix' || a.address.startsWith('127.') || a.address === '::1') continue;
      if (a.port === 53) continue;
      out.push({
        host: a.address,
        address: a.address,
        port: a.port,
        protocol: a.protocol,
        bytes: a.payload?.length ?? 0,
        summary: `${a.protocol} ${a.address}:${a.port ?? ''}${a.blocked ? ' (blocked)' : ''}`,
      });
    }
  }
  return out;
}

export function readSignals(
  evidence: EvidenceBundle,
  declaredHosts: ReadonlySet<string>,
  canaryHits: { canary: string; where: string }[],
  timedOut: boolean,
  /** The skill's own folder relative to the workspace: what it writes there is its output, not persistence. */
  skillDir: string,
  toolUse: ToolCredentialUse = { reads: new Set(), hits: new Set(), notes: [] },
): RunSignals {
  const dests = destinations(evidence);
  const undeclared = dests.filter(
    (d) => !hostMatches(d.host, declaredHosts) && !hostMatches(d.host, VENDOR_HOSTS),
  );
  const expected = dests.filter((d) => !undeclared.includes(d));

  const argvs = evidence.processes.map((p) => p.argv);
  const names = evidence.processes.map((p) => base(p.executable ?? p.argv[0]));
  const fetchThenExec: string[] = [];
  const firstFetch = names.findIndex((n) => FETCHERS.has(n));
  if (firstFetch >= 0 && names.slice(firstFetch + 1).some((n) => SHELLS.has(n))) {
    fetchThenExec.push(
      `${argvs[firstFetch]!.join(' ')} → ${names.slice(firstFetch + 1).find((n) => SHELLS.has(n))}`,
    );
  }
  const created = new Set(evidence.fsChanges.filter((c) => c.change === 'created').map((c) => c.path));
  for (const p of evidence.processes) {
    const exe = p.executable ?? '';
    if ([...created].some((c) => c && exe.endsWith(`/${c}`)))
      fetchThenExec.push(`executed a file the run created: ${exe}`);
  }

  return {
    canaryExfil: canaryHits,
    undeclared,
    expected,
    credentialReads: evidence.sensitiveReads
      // The skill's own files sit under .claude/skills/ (the agent-config rule): reading itself is not a credential read.
      .filter(
        (r) => !r.write && r.error === null && !toolUse.reads.has(r) && !r.path.includes(`/${skillDir}/`),
      )
      .map((r) => ({ path: r.path, canary: r.canary, argv: r.argv })),
    expectedCredentialUse: toolUse.notes,
    privilege: evidence.processes
      .filter((p) => PRIVILEGE_PROGRAMS.has(base(p.executable ?? p.argv[0])))
      .map((p) => p.argv.join(' ')),
    persistence: evidence.fsChanges.filter(
      (c) =>
        c.change !== 'deleted' &&
        (c.root === 'home' ||
          c.root === 'root' ||
          (c.root === 'workspace' && !c.path.startsWith(`${skillDir}/`))) &&
        PERSISTENCE_RE.test(c.path),
    ),
    fetchThenExec,
    tmpLeftovers: evidence.fsChanges
      .filter((c) => SCRATCH_ROOTS.has(c.root) && c.change === 'created')
      .map((c) => c.path),
    timedOut,
    processes: argvs.map((a) => a.join(' ')),
  };
}

// Why a run could not have completed what a static finding describes. A run that stopped early proves nothing
// about the code after the point where it stopped, so it may never lower a finding to path_exists_not_triggered.
const STOP_CAUSES: { re: RegExp; why: string }[] = [
  {
    re: /ModuleNotFoundError|No module named|ImportError|Cannot find module|ERR_MODULE_NOT_FOUND|Can't locate \S+ in @INC|LoadError/,
    why: 'a missing module',
  },
  {
    re: /Could not resolve|Failed to connect|Connection refused|Network is unreachable|urlopen error|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|curl: \(\d+\)|wget: |ENOVERSIONS|ETARGET|E404|HTTPError|JSONDecodeError|No matching distribution/,
    why: 'a failed download: what it fetches (a package, a second stage) cannot arrive offline',
  },
  { re: /command not found|: not found|is not installed/, why: 'a missing program or interpreter' },
  { re: /No such file or directory|ENOENT/, why: 'a missing file' },
];

// Output of a script that checked something and stepped aside (exit 0 included): a usage line, a missing key.
const GUARD_RE =
  /\busage:|\b(is not set|not configured|missing (required )?(argument|api key|key|token|env)|requires? [\w-]+ to be set|skipp(ing|ed)|aborting|nothing to do)\b/i;

function lastLine(text: string, re: RegExp): string {
  const lines = text.split('\n').filter((l) => re.test(l));
  return (lines[lines.length - 1] ?? '').trim().slice(0, 200);
}

/** Why the run stopped before doing what it set out to do, or null when it ran to a clean end. */
export function stoppedEarly(
  evidence: EvidenceBundle,
  exitCode: number | null,
  timedOut: boolean,
  runAs: string,
): string | null {
  if (runAs === 'script-help') return 'a --help run only prints usage; it never reaches the main path';
  if (timedOut || evidence.killedFor === 'timeout') return 'the run was stopped at its time limit';
  if (evidence.killedFor) return `the run was stopped at its ${evidence.killedFor} limit`;
  const output = `${evidence.stderr}\n${evidence.stdout}`;
  if (exitCode !== 0) {
    for (const cause of STOP_CAUSES) {
      if (cause.re.test(output)) return `the run stopped at ${cause.why} (${lastLine(output, cause.re)})`;
    }
    const tail = evidence.stderr.trim().split('\n').pop()?.slice(0, 200) ?? '';
    return `the run failed with ${exitCode === null ? 'a signal' : `exit code ${exitCode}`}${tail ? ` (${tail})` : ''}`;
  }
  if (GUARD_RE.test(output)) return `the run stopped at a guard (${lastLine(output, GUARD_RE)})`;
  return null;
}

/**
 * What the run fetched from the network. The sink answers every request with a placeholder, so whatever the
 * code meant to download and act on never arrived: behaviour that depends on it was not exercised.
 */
export function fetchedNothing(evidence: EvidenceBundle): string[] {
  if (evidence.network.mode === 'sink') {
    return evidence.network.sink
      .filter((r) => r.kind === 'tcp')
      .map((r) => `${r.method ?? r.protocol.toUpperCase()} ${r.host ?? r.address}${r.path ?? ''}`);
  }
  return evidence.network.attempts
    .filter((a) => a.protocol === 'tcp' && !a.address.startsWith('127.') && a.address !== '::1')
    .map((a) => `${a.address}:${a.port ?? ''} (blocked)`);
}
