import { z } from 'zod';
import { AGENT_INSTRUCTION_SOURCE, AGENT_LOADED_PATH } from '../core/agents.js';
import { bareHost, isDeclared } from '../core/hosts.js';
import { ruleData } from '../core/knowledge.js';
import type { EvidenceBundle, FsChange } from '../sandbox/evidence.js';
import { SINKHOLE_ADDRESS } from '../sandbox/network-sink.js';
import { SECOND_STAGE_MARKER } from '../sandbox/sink-payloads.js';
import { diedOnMissingProgram, NOT_FOUND } from './coverage.js';
import { hostMatches } from './host-names.js';
import { decodedCodeRuns, privilegeUse } from './process-signals.js';
import { namedServiceHost } from './service-hosts.js';
import { NO_TOOL_USE, type ToolCredentialUse } from './tool-credentials.js';
import { vendorInstaller } from './vendor-installers.js';

// What a detonation run did, read off its evidence bundle as the few behaviours that settle static findings.

/** Package registries a package manager contacts on its own: the install, not the skill's choice (rules/_data). */
const REGISTRY_HOSTS = ruleData('registries', z.object({ hosts: z.array(z.string()) })).hosts;
// Files whose change outlives the task: shell start-up files, autostart and scheduler entries, SSH access, git
// config and the project's git hooks (run on every commit), agents' instruction files, and in an agent's own
// folders only what the agent loads (rules/_data/agents.yaml, core/agents.ts). An index or cache a skill keeps in
// ~/.codex is data the agent never reads by itself, not a change to its behaviour.
const PERSISTENCE_RE = new RegExp(
  String.raw`(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.config\/fish\/|\.config\/autostart\/|\.config\/systemd\/user\/|Library\/LaunchAgents\/|\.ssh\/authorized_keys|\.gitconfig|\.git\/hooks\/|\.local\/bin\/|\.local\/share\/cron\/)|` +
    AGENT_INSTRUCTION_SOURCE,
);

function changesBehaviour(path: string): boolean {
  return PERSISTENCE_RE.test(path) || AGENT_LOADED_PATH.test(path);
}

/** Sandbox folders for scratch files: what a run leaves there is staging, not persistence. */
const SCRATCH_ROOTS: ReadonlySet<FsChange['root']> = new Set(['tmp', 'var-tmp', 'dev-shm']);

/** A file the sink's second-stage marker created (its name is the marker's, wherever $TMPDIR pointed). */
export function isSecondStageMarker(path: string): boolean {
  return (path.split('/').pop() ?? '').startsWith(`${SECOND_STAGE_MARKER}-`);
}

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
  /** Privileged commands that touched an account, sudo or setuid target, and writes to system secret files. */
  privilege: string[];
  /** Privileged commands that touched none of those (an installer's package install): shown, never confirmed. */
  privilegeOther: string[];
  persistence: FsChange[];
  /** Code fetched from the network ran: the sink's second-stage marker left its file. */
  fetchThenExec: string[];
  /** Downloaded code that ran when every download was a tool's official installer (vendor-installers.ts). */
  vendorInstalls: string[];
  /** Decoded code handed to an interpreter started commands (process-signals.ts). */
  decodedExec: string[];
  tmpLeftovers: string[];
  timedOut: boolean;
  processes: string[];
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
    // What the run sent: a lookup carries no data of the run's but the name, and an HTTP request only its body
    // (a name, path or header carrying a canary is a canary hit, judged apart). A download from an undeclared host
    // has contacted it, not sent it anything. A TLS handshake the client refused shows nothing it would have sent.
    const bytes =
      r.kind === 'dns' || r.protocol === 'tls'
        ? 0
        : r.protocol === 'http' || r.protocol === 'https'
          ? (r.bodyBytes ?? r.bytes)
          : r.bytes;
    out.push({ host, address: r.address, port: r.port, protocol: r.protocol, bytes, summary: what });
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
  toolUse: ToolCredentialUse = NO_TOOL_USE,
  /** Services the skill's name or description names (`DeepL`): their domains are its declared destinations. */
  namedServices: ReadonlySet<string> = new Set(),
): RunSignals {
  const dests = destinations(evidence);
  const undeclared = dests.filter(
    (d) =>
      !isDeclared(d.host, declaredHosts) &&
      !namedServiceHost(d.host, namedServices) &&
      !hostMatches(d.host, REGISTRY_HOSTS) &&
      !toolUse.hosts.has(bareHost(d.host)),
  );
  const expected = dests.filter((d) => !undeclared.includes(d));

  const argvs = evidence.processes.map((p) => p.argv);
  // Proof that downloaded code ran: the sink serves every download as a marker that only creates an empty
  // file (sink-payloads.ts). A fetcher followed by an interpreter proves nothing by itself (a clean script may
  // download data and then run its own helper), so nothing short of the marker counts.
  const markers = evidence.fsChanges.filter((c) => c.change === 'created' && isSecondStageMarker(c.path));
  const ran = markers.length
    ? [
        `executed code fetched from the network (${fetchedNothing(evidence).slice(0, 3).join(', ') || 'a download'}): the sandbox's second-stage marker ran (${markers.map((m) => `${m.root}:${m.path}`).join(', ')})`,
      ]
    : [];
  // Every download an official installer (uv from astral.sh): the tool installed as its docs say, not a confirmation.
  const installers = vendorDownloadsOnly(evidence);
  const fetchThenExec = installers ? [] : ran;
  const vendorInstalls = installers && ran.length ? installers : [];

  const privilege = privilegeUse(evidence.processes, evidence.sensitiveReads);
  return {
    canaryExfil: canaryHits,
    undeclared,
    expected,
    credentialReads: evidence.sensitiveReads
      // The skill's own folder and files sit under .claude/skills/ (the agent-config rule): reading itself is not a
      // credential read.
      .filter(
        (r) =>
          !r.write &&
          r.error === null &&
          !toolUse.reads.has(r) &&
          !r.path.includes(`/${skillDir}/`) &&
          !r.path.endsWith(`/${skillDir}`),
      )
      .map((r) => ({ path: r.path, canary: r.canary, argv: r.argv })),
    expectedCredentialUse: toolUse.notes,
    privilege: privilege.escalations,
    privilegeOther: privilege.other,
    persistence: evidence.fsChanges.filter(
      (c) =>
        c.change !== 'deleted' &&
        (c.root === 'home' ||
          c.root === 'root' ||
          (c.root === 'workspace' && !c.path.startsWith(`${skillDir}/`))) &&
        changesBehaviour(c.path),
    ),
    fetchThenExec,
    vendorInstalls,
    decodedExec: decodedCodeRuns(evidence.processes),
    tmpLeftovers: evidence.fsChanges
      .filter((c) => SCRATCH_ROOTS.has(c.root) && c.change === 'created' && !isSecondStageMarker(c.path))
      .map((c) => c.path),
    timedOut,
    processes: argvs.map((a) => a.join(' ')),
  };
}

// Why a run could not have completed what a static finding describes. A run that stopped early proves nothing
// about the code after the point where it stopped, so it may never lower a finding to path_exists_not_triggered.
const STOP_CAUSES: {
  re: RegExp;
  why: string;
  /** Whether the matched complaint ended the run (a shell goes on past a missing command). */
  fatal?: (stderr: string, exitCode: number | null) => boolean;
}[] = [
  {
    re: /ModuleNotFoundError|No module named|ImportError|Cannot find module|ERR_MODULE_NOT_FOUND|Can't locate \S+ in @INC|LoadError/,
    why: 'a missing module',
  },
  {
    re: /Could not resolve|Failed to connect|Connection refused|Network is unreachable|urlopen error|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|curl: \(\d+\)|wget: |ENOVERSIONS|ETARGET|E404|HTTPError|JSONDecodeError|No matching distribution/,
    why: 'a failed download: what it fetches (a package, a second stage) cannot arrive offline',
  },
  { re: /is not installed/, why: 'a missing program or interpreter' },
  { re: NOT_FOUND, why: 'a missing program or interpreter', fatal: diedOnMissingProgram },
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
  /** What the instruments reported: installs the run went on past, modules stood in for. */
  instruments: { installsCut: readonly string[]; installCutAt: number; standIns: readonly string[] },
): string | null {
  if (runAs === 'script-help') return 'a --help run only prints usage; it never reaches the main path';
  if (timedOut || evidence.killedFor === 'timeout') return 'the run was stopped at its time limit';
  if (evidence.killedFor) return `the run was stopped at its ${evidence.killedFor} limit`;
  // What an install printed before the sandbox let the run go on past it (shims.ts) is not why the run stopped.
  const cut = instruments.installCutAt;
  const output = `${cut < 0 ? evidence.stderr : evidence.stderr.slice(cut)}\n${evidence.stdout}`;
  if (exitCode !== 0) {
    for (const cause of STOP_CAUSES) {
      if (!cause.re.test(output) || (cause.fatal && !cause.fatal(evidence.stderr, exitCode))) continue;
      return `the run stopped at ${cause.why} (${lastLine(output, cause.re)})`;
    }
    // Node ends a crash with its own version line: the line before it says what went wrong.
    const lines = evidence.stderr
      .trim()
      .split('\n')
      .filter((l) => !/^Node\.js v\d+\.\d+\.\d+$/.test(l.trim()));
    const tail =
      lines
        .findLast((l) => l.trim() !== '')
        ?.trim()
        .slice(0, 200) ?? '';
    return `the run failed with ${exitCode === null ? 'a signal' : `exit code ${exitCode}`}${tail ? ` (${tail})` : ''}`;
  }
  const installs = instruments.installsCut;
  if (installs.length)
    return `the run went on past an install that could not complete offline (${installs.join('; ').slice(0, 200)}): what it installs never arrived`;
  const standIns = instruments.standIns;
  if (standIns.length)
    return `the run used inert stand-ins for missing modules or tools (${standIns.join(', ')}): what they would have done did not happen`;
  if (GUARD_RE.test(output)) return `the run stopped at a guard (${lastLine(output, GUARD_RE)})`;
  return null;
}

// How interpreters and tools name a file they could not open: node, Python, then `tool: path: No such file`.
const MISSING_FILE = [
  /ENOENT: no such file or directory, (?:open|stat|scandir|lstat) '([^']+)'/,
  /No such file or directory: '([^']+)'/,
  /(?:^|\n)[^\n:]*: (?:line \d+: )?([^\s:][^:\n]*): No such file or directory/,
];

/** A file the run could not open, as it named it (relative, ~/ or absolute), or null. */
export function missingFile(output: string): string | null {
  for (const re of MISSING_FILE) {
    const path = re.exec(output)?.[1];
    if (path) return path;
  }
  return null;
}

/** When every download of the run was an official installer, one line each; null when any was not (or none). */
function vendorDownloadsOnly(evidence: EvidenceBundle): string[] | null {
  if (evidence.network.mode !== 'sink') return null;
  const fetched = evidence.network.sink.filter((r) => r.kind === 'tcp');
  if (fetched.length === 0) return null;
  const lines: string[] = [];
  for (const r of fetched) {
    // Reached through a name the sink resolved: a connection to a literal address that only claims the vendor's
    // name (`curl --resolve astral.sh:443:203.0.113.9 …`) would reach someone else's server outside the sandbox.
    const installer = r.address === SINKHOLE_ADDRESS ? vendorInstaller(r.host ?? '', r.path ?? '') : null;
    if (!installer) return null;
    lines.push(
      `ran the official ${installer.tool} installer (${r.method ?? 'GET'} ${r.host}${r.path ?? ''})`,
    );
  }
  return [...new Set(lines)];
}

/**
 * What the run fetched from the network. The sink answers a download with a stand-in second stage (a marker
 * that only writes a file) and anything else with plausible JSON: the real content never arrived.
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
