import { describe, expect, it } from 'vitest';
import { toolCredentialUse, toolOf } from '../../../src/detonate/tool-credentials.js';
import type { EvidenceBundle } from '../../../src/sandbox/evidence.js';

const proc = (executable: string, argv: string[], pid = 1) => ({
  pid,
  ppid: pid === 1 ? null : 1,
  executable,
  argv,
  exit: null,
});

/** A run's evidence with only what toolCredentialUse reads. */
const evidenceOf = (
  processes: ReturnType<typeof proc>[],
  parts: {
    sensitiveReads?: unknown[];
    dnsQueries?: unknown[];
    sink?: unknown[];
    attempts?: unknown[];
    fsChanges?: unknown[];
  } = {},
) =>
  ({
    processes,
    sensitiveReads: parts.sensitiveReads ?? [],
    fsChanges: parts.fsChanges ?? [],
    network: { dnsQueries: parts.dnsQueries ?? [], sink: parts.sink ?? [], attempts: parts.attempts ?? [] },
  }) as unknown as EvidenceBundle;

/** A connect() to a sink address and port, by `pid`. */
const connect = (pid: number, address: string, port: number) => ({
  pid,
  syscall: 'connect',
  address,
  port,
  protocol: 'tcp',
});

/** A skill's own script, beside the tool in the same run. */
const script = (pid: number) => proc('/usr/bin/python3', ['python3', '/home/skill/work/x.py'], pid);

describe('toolOf: which tool a process is, from its own program', () => {
  it('knows installed package managers and git helpers', () => {
    expect(toolOf(proc('/usr/bin/node', ['node', '/usr/bin/npm', 'install']))).toBe('npm');
    expect(toolOf(proc('/usr/local/bin/python3.12', ['python3', '/usr/local/bin/pip', 'install', 'x']))).toBe(
      'pip',
    );
    expect(toolOf(proc('/usr/bin/pip3.11', ['pip3.11', 'download', 'x']))).toBe('pip');
    expect(
      toolOf(
        proc('/usr/bin/python3', [
          'python3',
          '/usr/lib/python3/dist-packages/pip/__pip-runner__.py',
          'install',
        ]),
      ),
    ).toBe('pip');
    expect(toolOf(proc('/usr/lib/git-core/git-remote-https', ['git-remote-https', 'origin']))).toBe('git');
    // A push over HTTP runs git-http-push, which reads ~/.netrc through libcurl like git-remote-https.
    expect(toolOf(proc('/usr/lib/git-core/git-http-push', ['git-http-push', '--helper-status']))).toBe('git');
  });

  it("never takes the skill's own files for a tool, nor a script npm runs for npm", () => {
    const skill = '/home/skill/work/.claude/skills/x';
    expect(toolOf(proc(`${skill}/bin/npm`, ['npm', 'install']))).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', `${skill}/npm`, 'install']))).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', 'npm']))).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', '/usr/bin/../../home/skill/work/npm']))).toBeNull();
    // A lifecycle script (`node install.js` under node_modules) is the package's code, not npm.
    expect(toolOf(proc('/usr/bin/node', ['node', 'install.js']))).toBeNull();
    // python -m imports from the working directory first, which the skill controls: pip only when no other can be.
    expect(toolOf(proc('/usr/bin/python3', ['python3', '-m', 'pip', 'install', 'x']))).toBeNull();
    expect(toolOf(proc('/usr/bin/python3', ['python3', '-m', 'pip', 'install', 'x']), true)).toBe('pip');
    expect(toolOf(proc('/usr/bin/python3', ['python3', '-m', 'httpie', 'x']), true)).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', '-m', 'pip']), true)).toBeNull();
  });
});

describe("a cloud CLI's own hosts", () => {
  const sdk = '/usr/bin/../lib/google-cloud-sdk';
  const gcloud = proc(
    `${sdk}/platform/bundledpythonunix/bin/python3`,
    ['python3', `${sdk}/lib/gcloud.py`, 'run', 'deploy'],
    7,
  );
  const looked = (queries: { name: string; pid: number }[]) =>
    evidenceOf([gcloud, script(8)], {
      dnsQueries: queries.map((q) => ({ ...q, type: 'A', source: 'strace' })),
    });

  it('are expected when only that CLI looked them up', () => {
    expect(toolOf(gcloud)).toBe('gcloud');
    const use = toolCredentialUse(
      looked([
        { name: 'metadata.google.internal', pid: 7 },
        { name: 'run.googleapis.com', pid: 7 },
      ]),
      [],
    );
    expect([...use.hosts]).toEqual(['metadata.google.internal', 'run.googleapis.com']);
  });

  it("are not when the skill's own code looked them up too, or the host is not the CLI's", () => {
    const both = toolCredentialUse(
      looked([
        { name: 'storage.googleapis.com', pid: 7 },
        { name: 'storage.googleapis.com', pid: 8 },
      ]),
      [],
    );
    expect(both.hosts.size).toBe(0);
    const other = toolCredentialUse(looked([{ name: 'collector.example.net', pid: 7 }]), []);
    expect(other.hosts.size).toBe(0);
  });

  it('are attributed by connection when the tool resolved names itself (terraform, a Go program)', () => {
    const tf = proc('/usr/local/bin/terraform', ['terraform', 'plan'], 9);
    const sink = { kind: 'tcp', host: 'checkpoint-api.hashicorp.com', address: '192.0.2.1', port: 443 };
    const bundle = (pids: number[]) =>
      evidenceOf([tf, script(8)], {
        sink: [sink],
        attempts: pids.map((pid) => connect(pid, '192.0.2.1', 443)),
      });
    expect([...toolCredentialUse(bundle([9]), []).hosts]).toEqual(['checkpoint-api.hashicorp.com']);
    // The skill's own script reached the same sink address and port: the host is nobody's own.
    expect(toolCredentialUse(bundle([9, 8]), []).hosts.size).toBe(0);
  });
});

describe("a tool's own credential, declared by the skill or not", () => {
  const kubectl = proc('/usr/bin/kubectl', ['kubectl', 'get', 'events'], 5);
  const read = (pid: number) => ({
    pid,
    argv: [],
    path: '/home/skill/.kube/config',
    rule: 'kube-config',
    canary: 'kube-config',
    write: false,
    error: null,
  });
  const hit = (where: string) => ({
    canary: 'kube-config',
    location: 'home:.kube/config',
    kind: 'sink' as const,
    encoding: 'raw' as const,
    where,
    proof: true,
  });
  const bundle = (reader: number) => evidenceOf([kubectl, script(6)], { sensitiveReads: [read(reader)] });

  it('kubectl presenting its token to the cluster its kubeconfig names is expected', () => {
    const use = toolCredentialUse(bundle(5), [hit('https 10.20.0.1:6443/version')]);
    expect(use.hits.size).toBe(1);
    expect(use.notes.join('\n')).toMatch(/kube-config read by kubectl .* 10\.20\.0\.1/);
  });

  it('the token sent anywhere else, or read by the skill, stays a hit', () => {
    expect(toolCredentialUse(bundle(5), [hit('https collector.example.net:443/k')]).hits.size).toBe(0);
    expect(toolCredentialUse(bundle(6), [hit('https 10.20.0.1:6443/version')]).hits.size).toBe(0);
  });

  it("the cluster its kubeconfig names is kubectl's own host, reached by kubectl alone", () => {
    const reached = (pid: number) =>
      evidenceOf([kubectl, script(6)], {
        sink: [{ kind: 'tcp', host: '10.20.0.1:6443', address: '10.20.0.1', port: 6443 }],
        attempts: [connect(pid, '10.20.0.1', 6443)],
      });
    expect([...toolCredentialUse(reached(5), []).hosts]).toEqual(['10.20.0.1']);
    expect(toolCredentialUse(reached(6), []).hosts.size).toBe(0);
  });
});

describe('`python3 -m pip` reading ~/.netrc', () => {
  const pip = proc('/usr/bin/python3', ['python3', '-m', 'pip', 'install', 'pre-commit==3.7.1'], 5);
  const netrc = {
    pid: 5,
    argv: pip.argv,
    path: '/home/skill/.netrc',
    rule: 'netrc',
    canary: 'netrc',
    write: false,
    error: null,
  };
  it('is pip using its own credential file when no other pip module can be imported', () => {
    const use = toolCredentialUse(evidenceOf([pip], { sensitiveReads: [netrc] }), []);
    expect(use.reads.size).toBe(1);
    expect(use.notes.join('\n')).toMatch(/netrc read by pip/);
  });
  it('is not when the skill ships a pip module or the run wrote one', () => {
    expect(
      toolCredentialUse(evidenceOf([pip], { sensitiveReads: [netrc] }), [], new Set(['pip'])).reads.size,
    ).toBe(0);
    const planted = evidenceOf([pip], {
      sensitiveReads: [netrc],
      fsChanges: [{ root: 'workspace', path: '.claude/skills/x/pip/__main__.py', change: 'created' }],
    });
    expect(toolCredentialUse(planted, []).reads.size).toBe(0);
  });
});
