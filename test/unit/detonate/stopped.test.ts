import { describe, expect, it } from 'vitest';
import { channelKey, takeReport } from '../../../src/detonate/instrument-report.js';
import { retryForMissingFile } from '../../../src/detonate/missing-files.js';
import { missingFile, readSignals, stoppedEarly } from '../../../src/detonate/signals.js';
import type { EvidenceBundle } from '../../../src/sandbox/evidence.js';
import { SECOND_STAGE_MARKER } from '../../../src/sandbox/sink-payloads.js';

// Which runs may lower a finding: only one that ran to a clean end; every other one says why it stopped.

const evidence = (stdout: string, stderr: string, killedFor: EvidenceBundle['killedFor'] = null) =>
  ({ stdout, stderr, killedFor }) as EvidenceBundle;

const NONE = { installsCut: [], installCutAt: -1, standIns: [] };

describe('stoppedEarly', () => {
  it('lets a clean run through', () => {
    expect(stoppedEarly(evidence('12\n', ''), 0, false, 'script', NONE)).toBeNull();
  });

  it('names why a run stopped', () => {
    expect(stoppedEarly(evidence('', ''), null, true, 'script', NONE)).toMatch(/time limit/);
    expect(
      stoppedEarly(evidence('', 'bash: line 1: uv: command not found'), 127, false, 'user-setup', NONE),
    ).toMatch(/missing program .*uv: command not found/);
    expect(
      stoppedEarly(evidence('', "ModuleNotFoundError: No module named 'boto3'"), 1, false, 'script', NONE),
    ).toMatch(/missing module/);
    expect(
      stoppedEarly(evidence('', 'curl: (6) Could not resolve host: x'), 6, false, 'instruction', NONE),
    ).toMatch(/failed download/);
    expect(stoppedEarly(evidence('', 'boom'), 3, false, 'script', NONE)).toMatch(/exit code 3 \(boom\)/);
    // Node's closing version line is not the reason: the error above it is.
    const node = '    at main (file:///x.mjs:9:3)\nError: bad amount in row\n\nNode.js v20.20.2\n';
    expect(stoppedEarly(evidence('', node), 1, false, 'script', NONE)).toMatch(
      /exit code 1 \(Error: bad amount in row\)/,
    );
  });

  it('treats a guard and a --help run as not having reached the main path, exit 0 or not', () => {
    expect(stoppedEarly(evidence('usage: x.py <file>\n', ''), 0, false, 'script', NONE)).toMatch(/guard/);
    expect(stoppedEarly(evidence('', 'OPENAI_API_KEY is not set'), 0, false, 'script', NONE)).toMatch(
      /guard/,
    );
    expect(stoppedEarly(evidence('options: ...', ''), 0, false, 'script-help', NONE)).toMatch(/--help/);
  });

  it('goes on past a missing command the shell skipped, to what ended the run', () => {
    const stderr =
      'x.sh: line 10: attrib: command not found\nx.sh: line 21: /etc/sudoers: Read-only file system';
    expect(stoppedEarly(evidence('', stderr), 1, false, 'script', NONE)).toMatch(
      /exit code 1 \(.*Read-only file system\)/,
    );
  });

  it('never takes a run that used a stand-in for a missing module as complete, whatever its exit', () => {
    const key = channelKey();
    const report = takeReport(
      `\n${key} stand-in boto3\n${key} stand-in yaml\n${key} stand-in boto3\n`,
      key,
      '/w',
      () => null,
    );
    expect(report.standIns).toEqual(['boto3', 'yaml']);
    expect(stoppedEarly(evidence('done\n', report.stderr), 0, false, 'script', report)).toMatch(
      /inert stand-ins for missing modules or tools \(boto3, yaml\)/,
    );
    // The same words without the run's key are the skill's own output.
    expect(takeReport(`${channelKey()} stand-in boto3\n`, key, '/w', () => null).standIns).toEqual([]);
  });
});

describe('missingFile', () => {
  it('names a file opened by a relative name, from node, Python and shell tools', () => {
    expect(missingFile("Error: ENOENT: no such file or directory, open '.env'")).toBe('.env');
    expect(
      missingFile("FileNotFoundError: [Errno 2] No such file or directory: 'config/settings.json'"),
    ).toBe('config/settings.json');
    expect(missingFile('cat: SOUL.md: No such file or directory')).toBe('SOUL.md');
    expect(missingFile('x.sh: line 4: notes.txt: No such file or directory')).toBe('notes.txt');
  });

  it('names absolute paths as they were written, and nothing for other errors', () => {
    expect(missingFile("Error: ENOENT: no such file or directory, open '/Users/victim/.ssh/id_rsa'")).toBe(
      '/Users/victim/.ssh/id_rsa',
    );
    expect(missingFile('Traceback: KeyError')).toBeNull();
  });
});

describe('retryForMissingFile', () => {
  const inner = { home: '/home/skill', workspace: '/home/skill/work', tmp: '/tmp' };
  const entry = {
    id: 'scripts/sync.py',
    argv: ['python3', 'sync.py'],
    cwd: '/home/skill/work/.claude/skills/s',
    origin: { file: 'scripts/sync.py', line: 1, endLine: 9 },
    runAs: 'script' as const,
    framing: null,
    why: 'a script',
  };
  const retry = (stderr: string, e = entry) =>
    retryForMissingFile({ entry: e, stopped: 'x', evidence: { stderr } }, inner);

  it("runs again from the project's root for a project file, given a sample for any other in workspace or home", () => {
    expect(retry("FileNotFoundError: [Errno 2] No such file or directory: 'SOUL.md'")?.cwd).toBe(
      inner.workspace,
    );
    const config = retry("FileNotFoundError: [Errno 2] No such file or directory: 'config.json'");
    expect(config?.given).toBe('.claude/skills/s/config.json');
    const home = retry(
      "FileNotFoundError: [Errno 2] No such file or directory: '/home/skill/.config/notes/settings.yaml'",
    );
    expect(home?.given).toBe('~/.config/notes/settings.yaml');
    expect(retry("Error: ENOENT: no such file or directory, scandir 'exports'")?.given).toBe(
      '.claude/skills/s/exports/sample.txt',
    );
  });

  it('gives nothing outside workspace and home, no code, and never a second time', () => {
    expect(retry('cat: /etc/tool.conf: No such file or directory')).toBeNull();
    expect(
      retry("FileNotFoundError: [Errno 2] No such file or directory: '../../../../../etc/x'"),
    ).toBeNull();
    expect(retry('bash: scripts/missing.sh: No such file or directory')).toBeNull();
    expect(
      retry("FileNotFoundError: [Errno 2] No such file or directory: '/home/skill/.ssh/id_ed25519'"),
    ).toBeNull();
    const again = { ...entry, given: '.claude/skills/s/config.json' };
    expect(retry("FileNotFoundError: [Errno 2] No such file or directory: 'other.json'", again)).toBeNull();
  });
});

describe('readSignals: destinations', () => {
  const bundle = (sink: unknown[]) =>
    ({
      processes: [],
      sensitiveReads: [],
      fsChanges: [],
      network: { mode: 'sink', sink, dnsQueries: [], attempts: [] },
    }) as unknown as EvidenceBundle;

  it('counts a lookup of an undeclared host as contact, not as data sent', () => {
    const dns = {
      kind: 'dns',
      host: 'checkpoint-api.hashicorp.com',
      address: '192.0.2.1',
      port: 53,
      protocol: 'udp',
      bytes: 61,
      queryType: 'A',
    };
    const post = {
      kind: 'tcp',
      host: 'collect.example.net',
      address: '192.0.2.1',
      port: 443,
      protocol: 'tcp',
      bytes: 380,
      method: 'POST',
      path: '/',
    };
    const s = readSignals(bundle([dns, post]), new Set(), [], false, '.claude/skills/x');
    expect(s.undeclared.map((d) => [d.host, d.bytes])).toEqual([
      ['checkpoint-api.hashicorp.com', 0],
      ['collect.example.net', 380],
    ]);
  });

  it("counts an HTTP request's body as data sent, not the request line and headers of a download", () => {
    const request = (method: string, host: string, bytes: number, bodyBytes: number) => ({
      kind: 'tcp',
      host,
      address: '192.0.2.1',
      port: 443,
      protocol: 'https',
      method,
      path: '/releases/download/v1.2.0/tool.tar.gz',
      bytes,
      bodyBytes,
    });
    const s = readSignals(
      bundle([request('GET', 'github.com', 212, 0), request('POST', 'drop.example.net', 690, 412)]),
      new Set(),
      [],
      false,
      '.claude/skills/x',
    );
    expect(s.undeclared.map((d) => [d.host, d.bytes])).toEqual([
      ['github.com', 0],
      ['drop.example.net', 412],
    ]);
  });

  /** An HTTPS POST with a body to `host`, as the sink records it. */
  const httpsPost = (host: string) => ({
    kind: 'tcp',
    host,
    address: '192.0.2.1',
    port: 443,
    protocol: 'https',
    method: 'POST',
    path: '/v1/upload',
    bytes: 300,
    bodyBytes: 120,
  });

  it('takes the API hosts of a service the skill names as declared, and nothing anyone can publish under', () => {
    const hosts = [
      'identitytoolkit.googleapis.com',
      'demo-db.firebaseio.com',
      'collector.web.app',
      'x.example.net',
    ];
    const undeclared = (services: string[]) =>
      readSignals(
        bundle(hosts.map(httpsPost)),
        new Set(),
        [],
        false,
        '.claude/skills/x',
        undefined,
        new Set(services),
      ).undeclared.map((d) => d.host);
    // A Firebase security scanner calls Google's identity API and the project's database: what it exists for.
    expect(undeclared(['firebase', 'security', 'scanner'])).toEqual(['collector.web.app', 'x.example.net']);
    // Words of a description that are not services declare nothing, whatever they are.
    expect(undeclared(['constructor', 'tostring', 'scanner'])).toEqual(hosts);
  });

  it('takes a host on the same site as a declared one as declared, as the scan does, and no other site', () => {
    const hosts = ['uploads.acme-notes.io', 'acme-notes.io.example.net', 'someone.github.io'];
    const s = readSignals(
      bundle(hosts.map(httpsPost)),
      new Set(['api.acme-notes.io', 'docs.github.io']),
      [],
      false,
      '.claude/skills/x',
    );
    expect(s.undeclared.map((d) => d.host)).toEqual(['acme-notes.io.example.net', 'someone.github.io']);
  });

  it('counts as persistence what an agent loads from its folders, not an index a skill keeps there', () => {
    const change = (path: string) => ({ root: 'home', path, change: 'created', before: null, after: null });
    const paths = [
      '.codex/skill-index.json',
      '.claude/projects/x/log.jsonl',
      '.codex/config.toml',
      '.claude/settings.json',
      '.claude/skills/helper/SKILL.md',
      '.agents/skills/helper/run.sh',
      '.bashrc',
      '.local/share/cron/crontab',
      // Agents only some of the old lists knew (rules/_data/agents.yaml is the one list now).
      '.windsurf/rules/always.md',
      '.continue/config.yaml',
      '.config/opencode/agent/build.md',
      'project/GEMINI.md',
      'project/.cursorrules',
    ];
    const evidence = { ...bundle([]), fsChanges: paths.map(change) } as unknown as EvidenceBundle;
    const s = readSignals(evidence, new Set(), [], false, '.claude/skills/x');
    expect(s.persistence.map((c) => c.path)).toEqual(paths.slice(2));
  });

  it("does not take the skill reading its own folder for a read of the agent's files", () => {
    const read = (path: string) => ({
      path,
      pid: 1,
      argv: ['python3'],
      canary: null,
      write: false,
      error: null,
    });
    const evidence = {
      ...bundle([]),
      sensitiveReads: [
        read('/home/skill/work/.claude/skills/x'),
        read('/home/skill/work/.claude/skills/x/SKILL.md'),
        read('/home/skill/work/.claude/skills/other/SKILL.md'),
      ],
    } as unknown as EvidenceBundle;
    const s = readSignals(evidence, new Set(), [], false, '.claude/skills/x');
    expect(s.credentialReads.map((r) => r.path)).toEqual(['/home/skill/work/.claude/skills/other/SKILL.md']);
  });

  it("counts a hook written into the project's git repository, not git's own index refresh", () => {
    const change = (path: string, kind: string) => ({
      root: 'workspace',
      path,
      change: kind,
      before: null,
      after: null,
    });
    const evidence = {
      ...bundle([]),
      fsChanges: [change('.git/index', 'modified'), change('.git/hooks/pre-commit', 'created')],
    } as unknown as EvidenceBundle;
    const s = readSignals(evidence, new Set(), [], false, '.claude/skills/x');
    expect(s.persistence.map((c) => c.path)).toEqual(['.git/hooks/pre-commit']);
  });
});

describe('readSignals: downloads that ran', () => {
  const marker = {
    root: 'tmp',
    path: `${SECOND_STAGE_MARKER}-sh-1a2b`,
    change: 'created',
    before: null,
    after: null,
  };
  const get = (host: string, path: string, address = '192.0.2.1') => ({
    kind: 'tcp',
    host,
    address,
    port: 443,
    protocol: 'tcp',
    bytes: 90,
    method: 'GET',
    path,
  });
  const run = (sink: unknown[]) =>
    readSignals(
      {
        processes: [],
        sensitiveReads: [],
        fsChanges: [marker],
        network: { mode: 'sink', sink, dnsQueries: [], attempts: [] },
      } as unknown as EvidenceBundle,
      new Set(),
      [],
      false,
      '.claude/skills/x',
    );

  it('an official installer that ran is shown, not proof of remote code', () => {
    const s = run([get('astral.sh', '/uv/install.sh')]);
    expect(s.fetchThenExec).toEqual([]);
    expect(s.vendorInstalls).toEqual(['ran the official uv installer (GET astral.sh/uv/install.sh)']);
  });

  it('anything else fetched, a look-alike path, or a forged name on a literal address stays proof', () => {
    for (const sink of [
      [get('astral.sh', '/uv/install.sh'), get('paste.example.net', '/raw/x')],
      [get('raw.githubusercontent.com', '/someone/tools/main/install.sh')],
      [get('astral.sh', '/uv/install.sh', '203.0.113.9')],
    ]) {
      const s = run(sink);
      expect(s.fetchThenExec).toHaveLength(1);
      expect(s.vendorInstalls).toEqual([]);
    }
  });
});
