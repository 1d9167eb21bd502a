import { posix } from 'node:path';
import { bareHost } from '../core/hosts.js';
import type { CanaryHit } from '../sandbox/canaries.js';
import type { EvidenceBundle, ProcessRecord, SensitiveRead } from '../sandbox/evidence.js';
import { hostMatches } from './host-names.js';
import { programName } from './process-signals.js';

// A package manager, git or a cloud CLI reads its own credential file and presents the token to the endpoint
// that file binds it to (npm's token to its registry, git's to its remote, kubectl's to its cluster): that is
// the tool using its own credential for its own purpose, not the skill stealing it. The decision is made from
// the pair (reader process, destination): the canary must be read only by its owning tool, reach nothing but
// that tool's endpoint, and the destination must have been looked up by that tool. Anything else stays
// evidence. Whether the skill declares the tool does not matter: the endpoint is the credential file's own, so
// a skill can only move the token elsewhere (`kubectl --server https://collector…`), which is then a hit.

interface Owner {
  /** Tools that read this credential for their own use. */
  tools: readonly string[];
  /** Hosts canaries.ts binds the token to inside the file (the tool's configured endpoint). */
  endpoints: readonly string[];
}

const OWNERS: Record<string, Owner> = {
  npmrc: { tools: ['npm', 'pnpm', 'yarn'], endpoints: ['registry.npmjs.org'] },
  'git-credentials': { tools: ['git'], endpoints: ['github.com'] },
  netrc: { tools: ['pip', 'uv', 'poetry', 'cargo', 'git'], endpoints: ['api.internal.example.com'] },
  'gh-cli-token': { tools: ['gh'], endpoints: ['github.com', 'api.github.com'] },
  'aws-credentials-file': { tools: ['aws'], endpoints: ['amazonaws.com'] },
  'kube-config': { tools: ['kubectl', 'helm'], endpoints: ['10.20.0.1'] },
  pgpass: { tools: ['psql'], endpoints: ['db.internal'] },
  'mysql-client-config': { tools: ['mysql'], endpoints: ['db.internal'] },
  'docker-config': { tools: ['docker'], endpoints: ['ghcr.io'] },
  pypirc: { tools: ['twine'], endpoints: ['upload.pypi.org', 'pypi.org'] },
  'gcloud-adc': { tools: ['gcloud'], endpoints: ['oauth2.googleapis.com', 'googleapis.com'] },
  'azure-token-cache': { tools: ['az'], endpoints: ['management.azure.com', 'login.microsoftonline.com'] },
  'cargo-credentials': { tools: ['cargo'], endpoints: ['crates.io'] },
};

const PROGRAM_TOOL: Record<string, string> = {
  npm: 'npm',
  'npm-cli.js': 'npm',
  npx: 'npm',
  'npx-cli.js': 'npm',
  pnpm: 'pnpm',
  'pnpm.cjs': 'pnpm',
  // Corepack's shims run node on corepack/dist/<tool>.js.
  'pnpm.js': 'pnpm',
  yarn: 'yarn',
  'yarn.js': 'yarn',
  'yarn.cjs': 'yarn',
  pip: 'pip',
  pip3: 'pip',
  // pip runs itself again through this file to install a build's requirements (build isolation).
  '__pip-runner__.py': 'pip',
  uv: 'uv',
  uvx: 'uv',
  poetry: 'poetry',
  cargo: 'cargo',
  git: 'git',
  gh: 'gh',
  aws: 'aws',
  kubectl: 'kubectl',
  helm: 'helm',
  gcloud: 'gcloud',
  'gcloud.py': 'gcloud',
  az: 'az',
  terraform: 'terraform',
  // PostgreSQL's and MySQL's clients read their password files by themselves.
  psql: 'psql',
  pg_dump: 'psql',
  pg_dumpall: 'psql',
  pg_restore: 'psql',
  pg_basebackup: 'psql',
  mysql: 'mysql',
  mysqldump: 'mysql',
  mariadb: 'mysql',
  'mariadb-dump': 'mysql',
  docker: 'docker',
  twine: 'twine',
};

/**
 * The vendor's own hosts a cloud CLI contacts by itself (its API, its sign-in, the cloud's metadata server it
 * probes to learn whether it runs on a cloud VM). Reaching them is the tool's behaviour, not the skill sending
 * data somewhere: shown as expected. A canary sent there is still exfiltration (canary hits are judged apart).
 */
const TOOL_HOSTS: Record<string, readonly string[]> = {
  gcloud: ['googleapis.com', 'metadata.google.internal', 'accounts.google.com', 'gcr.io', 'pkg.dev'],
  aws: ['amazonaws.com', 'aws.amazon.com'],
  az: ['azure.com', 'azure.net', 'microsoftonline.com', 'windows.net'],
  gh: ['github.com', 'githubusercontent.com'],
  terraform: ['hashicorp.com', 'terraform.io'],
};

const INTERPRETER = /^(node|nodejs|python[\d.]*)$/;

/**
 * A program the sandboxed code could not have written: installed outside HOME, the workspace and /tmp (the
 * only writable places), so a skill's own script named `npm` is not mistaken for npm.
 */
function installed(path: string | undefined): boolean {
  // Normalised first: `/usr/bin/../../home/skill/npm` is in HOME, whatever it starts with.
  return !!path && path.startsWith('/') && !/^\/(home|tmp|var\/tmp|root)\//.test(posix.normalize(path));
}

/**
 * The tool a process is, from its own program (never its parent's: npm's lifecycle scripts are not npm).
 * `installedPip`: whether `python3 -m pip` can only be the installed pip (see pipIsInstalled).
 */
export function toolOf(p: ProcessRecord, installedPip = false): string | null {
  const exe = p.executable ?? p.argv[0] ?? '';
  if (!installed(exe)) return null;
  if (INTERPRETER.test(programName(exe))) {
    if (p.argv[1] === '-m')
      return p.argv[2] === 'pip' && installedPip && /^python/.test(programName(exe)) ? 'pip' : null;
    // `node /usr/bin/npm`, `python3 /usr/local/bin/pip`: the tool is the installed script it runs.
    const script = p.argv[1];
    return installed(script)
      ? (PROGRAM_TOOL[programName(script).replace(/^pip3\.\d+$/, 'pip3')] ?? null)
      : null;
  }
  const name = programName(exe).replace(/^(pip3?|python3?)\.\d+$/, '$1');
  // git's own helpers (git-remote-https, git-http-push, git-credential-store) act for git.
  if (/^git-[a-z]/.test(name)) return 'git';
  return PROGRAM_TOOL[name] ?? null;
}

export interface ToolCredentialUse {
  /** Canary reads that were the owning tool reading its own credential. */
  reads: ReadonlySet<SensitiveRead>;
  /** Canary hits that were the owning tool presenting its credential to its own endpoint. */
  hits: ReadonlySet<CanaryHit>;
  /** Hosts only a cloud CLI looked up, each one of that CLI's own (TOOL_HOSTS): expected, not undeclared. */
  hosts: ReadonlySet<string>;
  /** One line each, for detonation.json and the report's expected evidence. */
  notes: string[];
}

export const NO_TOOL_USE: ToolCredentialUse = {
  reads: new Set(),
  hits: new Set(),
  hosts: new Set(),
  notes: [],
};

function hostOf(hit: CanaryHit): string {
  // findCanaryHits writes sink hits as `<protocol> <host>:<port><path>`.
  return (hit.where.split(' ')[1] ?? '').replace(/:\d+.*$/, '').toLowerCase();
}

/**
 * `python3 -m pip` imports pip from the working folder, the user site and PYTHONPATH before the installed one: it
 * is the installed pip only when the skill ships no module named pip and the run wrote none (a skill could plant
 * a `pip/` that reads ~/.netrc and pass for pip).
 */
function pipIsInstalled(evidence: EvidenceBundle, shippedModules: ReadonlySet<string>): boolean {
  const pipModule = /(^|\/)pip(\/|\.py$)/;
  return (
    !shippedModules.has('pip') &&
    !evidence.fsChanges.some((c) => c.change !== 'deleted' && pipModule.test(c.path))
  );
}

export function toolCredentialUse(
  evidence: EvidenceBundle,
  proofs: readonly CanaryHit[],
  /** Top-level Python modules the skill ships (`pip` for a pip/ folder or pip.py). */
  shippedModules: ReadonlySet<string> = new Set(),
): ToolCredentialUse {
  const reads = new Set<SensitiveRead>();
  const hits = new Set<CanaryHit>();
  const notes: string[] = [];
  const byPid = new Map(evidence.processes.map((p) => [p.pid, p]));
  const installedPip = pipIsInstalled(evidence, shippedModules);
  const toolAt = (pid: number | undefined) => {
    const p = pid === undefined ? undefined : byPid.get(pid);
    return p ? toolOf(p, installedPip) : null;
  };
  const hosts = toolHosts(evidence, toolAt);
  for (const [canary, owner] of Object.entries(OWNERS)) {
    const readers = evidence.sensitiveReads.filter(
      (r) => r.canary === canary && !r.write && r.error === null,
    );
    if (readers.length === 0) continue;
    const tool = toolAt(readers[0]!.pid);
    if (!tool || !owner.tools.includes(tool)) continue;
    if (!readers.every((r) => toolAt(r.pid) === tool)) continue;
    const sent = proofs.filter((h) => h.canary === canary);
    const ownEndpoint = (h: CanaryHit) => {
      if (h.kind !== 'sink' || !hostMatches(hostOf(h), owner.endpoints)) return false;
      // Who sent it: the process that looked the host up (strace sees the query leave). A lookup by anyone but
      // the tool means another process knows where to send the token, so it is not the tool's own use.
      const lookups = evidence.network.dnsQueries.filter(
        (q) => q.source === 'strace' && q.name === hostOf(h),
      );
      return lookups.every((q) => toolAt(q.pid) === tool);
    };
    if (!sent.every(ownEndpoint)) continue;
    for (const r of readers) reads.add(r);
    for (const h of sent) hits.add(h);
    const where = [...new Set(sent.map(hostOf))];
    notes.push(
      `${canary} read by ${tool} (${readers[0]!.argv.slice(0, 3).join(' ')})` +
        (where.length ? ` and presented only to ${where.join(', ')}, its configured endpoint` : ', not sent'),
    );
  }
  return { reads, hits, hosts, notes };
}

/** A tool's own hosts: its vendor's, and the endpoints its credential files bind (kubectl's cluster). */
function ownHosts(tool: string): string[] {
  const bound = Object.values(OWNERS).filter((o) => o.tools.includes(tool));
  return [...(TOOL_HOSTS[tool] ?? []), ...bound.flatMap((o) => o.endpoints)];
}

/** Hosts that only a cloud CLI looked up, each among that CLI's own (the pair: looking-up process, host). */
function toolHosts(
  evidence: EvidenceBundle,
  toolAt: (pid: number | undefined) => string | null,
): Set<string> {
  // Who reached each host: the processes strace saw look it up, and those that connected to the sink address
  // and port it was served on (a Go tool resolves without a lookup strace can read). The sink serves every name
  // at one address, so a skill process reaching any host on the same port makes the host nobody's own.
  // Sets, not lists: a script retrying in a loop makes thousands of lookups and connects to one host.
  const lookups = new Map<string, Set<string | null>>();
  const add = (host: string, tool: string | null) => {
    const key = bareHost(host);
    const tools = lookups.get(key) ?? new Set();
    lookups.set(key, tools.add(tool));
  };
  for (const q of evidence.network.dnsQueries) if (q.source === 'strace') add(q.name, toolAt(q.pid));
  const connectors = new Map<string, Set<string | null>>();
  for (const a of evidence.network.attempts) {
    if (a.syscall !== 'connect') continue;
    const key = `${a.address} ${a.port}`;
    connectors.set(key, (connectors.get(key) ?? new Set()).add(toolAt(a.pid)));
  }
  for (const r of evidence.network.sink) {
    if (r.kind !== 'tcp' || !r.host) continue;
    for (const tool of connectors.get(`${r.address} ${r.port}`) ?? []) add(r.host, tool);
  }
  const out = new Set<string>();
  for (const [host, tools] of lookups) {
    // One tool, and only that tool, reached the host.
    const [tool] = tools;
    if (tools.size !== 1 || !tool) continue;
    if (!hostMatches(host, ownHosts(tool))) continue;
    out.add(host);
  }
  return out;
}
