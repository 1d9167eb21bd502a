import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { canaryTokensIn, findCanaryHits, seedCanaries } from '../../../src/sandbox/canaries.js';
import { dnsExfilStrings, findNeedle, tokenNeedles } from '../../../src/sandbox/canary-encodings.js';
import type { CanaryRef, EvidenceBundle } from '../../../src/sandbox/evidence.js';

const TOKEN = 'ghp_Zq8xW2mN4pL6kJ9hG3fD5sA7rT1yU0iOeB';
const canary: CanaryRef = { name: 'GITHUB_TOKEN', location: 'env:GITHUB_TOKEN', token: TOKEN };

function emptyEvidence(): EvidenceBundle {
  return {
    version: 1,
    backend: 'bubblewrap',
    argv: ['x'],
    processes: [],
    network: { requested: 'none', mode: 'loopback-only', attempts: [], dnsQueries: [], sink: [] },
    sensitiveReads: [],
    fsChanges: [],
    resources: { wallMs: 1, cpuUserMs: null, cpuSystemMs: null, maxRssBytes: null },
    limits: { applied: [], notApplied: [] },
    killedFor: null,
    capture: { strace: true },
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    canaries: [canary],
    dropped: { processes: 0, attempts: 0, sensitiveReads: 0, fsChanges: 0, sink: 0 },
  };
}

describe('token needles', () => {
  const needles = tokenNeedles(TOKEN);

  it('find the token raw, hex, base64 (at any alignment inside a larger blob) and base32', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'some file header\n']) {
      const blob = Buffer.from(`${prefix}${TOKEN}\ntrailer`);
      expect(findNeedle(blob.toString('base64'), needles)?.encoding, `base64 after ${prefix.length}`).toBe(
        'base64',
      );
      expect(findNeedle(blob.toString('hex').toUpperCase(), needles)?.encoding).toBe('hex');
    }
    expect(findNeedle(`x=${TOKEN}`, needles)?.encoding).toBe('raw');
    expect(findNeedle(Buffer.from(`..${TOKEN}`).toString('base64url'), needles)?.encoding).toMatch(/base64/);
  });

  it('do not match unrelated or partial data', () => {
    expect(findNeedle(TOKEN.slice(0, 20), needles)).toBeNull();
    expect(
      findNeedle(Buffer.from('ghp_something_else_entirely_1234567890').toString('base64'), needles),
    ).toBeNull();
  });
});

describe('dnsExfilStrings', () => {
  it('joins chunks spread over queries in order, dropping the shared suffix, counters and repeats', () => {
    const hex = Buffer.from(TOKEN).toString('hex');
    const chunks = hex.match(/.{1,20}/g)!;
    const names = chunks.flatMap((c, i) => [
      `${c}.${i}.k.exfil.example.net`,
      `${c}.${i}.k.exfil.example.net`,
    ]);
    const joined = dnsExfilStrings(names);
    expect(joined.some((s) => s.includes(hex))).toBe(true);
  });
});

describe('findCanaryHits', () => {
  it('reports a token in a sink request body as proof', () => {
    const evidence = emptyEvidence();
    evidence.network.sink.push({
      kind: 'tcp',
      address: '192.0.2.1',
      port: 80,
      protocol: 'http',
      host: 'c.example.com',
      path: '/u',
      headers: 'POST /u HTTP/1.1',
      bodyBase64: Buffer.from(JSON.stringify({ t: TOKEN })).toString('base64'),
      bytes: 100,
    });
    expect(findCanaryHits(evidence)).toEqual([
      {
        canary: 'GITHUB_TOKEN',
        location: 'env:GITHUB_TOKEN',
        kind: 'sink',
        encoding: 'raw',
        where: 'http c.example.com:80/u',
        proof: true,
      },
    ]);
  });

  it('reports base32 in a DNS name and a staged file, but not the canary file itself or expected outputs', () => {
    const evidence = emptyEvidence();
    // base32('ab' + TOKEN) without padding (python3 base64.b32encode): the token is misaligned by two bytes.
    const b32 = 'MFRGO2DQL5NHCODYK4ZG2TRUOBGDM22KHFUEOM3GIQ2XGQJXOJKDC6KVGBUU6ZKC';
    evidence.network.dnsQueries.push({
      name: `${b32.slice(0, 40)}.${b32.slice(40)}.evil.example.com`,
      type: 'A',
      source: 'strace',
    });
    const file = (path: string, root: 'workspace' | 'home' = 'workspace') => ({
      root,
      path,
      change: 'created' as const,
      before: null,
      after: { type: 'file' as const, mode: 0o644, size: 10, sha256: 'x' },
      canaryTokens: ['GITHUB_TOKEN'],
    });
    evidence.fsChanges.push(file('stage.txt'), file('out/config.json'));
    const hits = findCanaryHits(evidence, [canary], { expectedOutputs: ['workspace:out/'] });
    expect(hits.map((h) => `${h.kind}:${h.encoding}:${h.where}`)).toEqual(
      expect.arrayContaining([
        'dns:base32:DNS queries (labels joined in order)',
        'file:raw:workspace:stage.txt',
      ]),
    );
    expect(hits.some((h) => h.where === 'workspace:out/config.json')).toBe(false);
  });

  it('marks a token in a command line as intent, not proof', () => {
    const evidence = emptyEvidence();
    evidence.processes.push({
      pid: 5,
      ppid: 4,
      executable: '/usr/bin/curl',
      argv: ['curl', '-H', `Authorization: ${TOKEN}`],
      exit: null,
    });
    expect(findCanaryHits(evidence)).toEqual([expect.objectContaining({ kind: 'argv', proof: false })]);
  });

  it('finds nothing in clean evidence', () => {
    expect(findCanaryHits(emptyEvidence())).toEqual([]);
  });
});

describe('seedCanaries', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('plants realistic, unique credentials in HOME, the workspace and the environment', async () => {
    const root = await mkdtemp(join(tmpdir(), 'canary-test-'));
    dirs.push(root);
    const home = join(root, 'home');
    const workspace = join(home, 'work');
    const set = await seedCanaries({
      hostHome: home,
      hostWorkspace: workspace,
      innerHome: '/home/skill',
      innerWorkspace: '/home/skill/work',
    });
    expect(new Set(set.canaries.map((c) => c.token)).size).toBe(set.canaries.length);
    expect(set.env.OPENAI_API_KEY).toMatch(/^sk-proj-[A-Za-z0-9]{48}$/);
    expect(set.env.AWS_ACCESS_KEY_ID).toMatch(/^AKIA[A-Z2-7]{16}$/);
    expect(set.env.GITHUB_TOKEN).toMatch(/^ghp_[A-Za-z0-9]{36}$/);
    const key = set.canaries.find((c) => c.name === 'ssh-private-key')!;
    const keyFile = join(home, '.ssh/id_rsa');
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----\n/);
    expect(readFileSync(keyFile, 'utf8')).toContain(key.token);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(workspace, '.env'), 'utf8')).toContain(
      set.canaries.find((c) => c.name === 'workspace-dotenv')!.token,
    );
    for (const path of [
      '.aws/credentials',
      '.netrc',
      '.git-credentials',
      '.kube/config',
      '.npmrc',
      '.config/gh/hosts.yml',
      '.config/gcloud/application_default_credentials.json',
      '.azure/msal_token_cache.json',
      '.electrum/wallets/default_wallet',
      '.cargo/credentials.toml',
    ]) {
      expect(existsSync(join(home, path)), path).toBe(true);
    }
    const cookies = new Database(join(home, '.config/google-chrome/Default/Cookies'), { readonly: true });
    const row = cookies.prepare("SELECT value FROM cookies WHERE name = 'user_session'").get() as {
      value: string;
    };
    cookies.close();
    expect(row.value).toBe(set.canaries.find((c) => c.name === 'chrome-cookies')!.token);
    expect(set.paths.get('/home/skill/.ssh/id_rsa')).toBe('ssh-private-key');
    expect(canaryTokensIn(readFileSync(join(home, '.netrc'), 'latin1'), set.canaries)).toEqual(['netrc']);
    // Wallets, a notebook kernel's key and cloud sign-ins: each file parses and holds its token where tools keep it.
    const json = (path: string) => JSON.parse(readFileSync(join(home, path), 'utf8'));
    const token = (name: string) => set.canaries.find((c) => c.name === name)!.token;
    expect(json('.config/gcloud/application_default_credentials.json').refresh_token).toBe(
      token('gcloud-adc'),
    );
    expect(json('.electrum/wallets/default_wallet').keystore.xprv).toBe(token('electrum-wallet'));
    const kernel = set.canaries.find((c) => c.name === 'jupyter-kernel')!;
    expect(json(kernel.location.replace(/^home:/, '')).key).toBe(kernel.token);
    expect(set.paths.get(`/home/skill/${kernel.location.replace(/^home:/, '')}`)).toBe('jupyter-kernel');
  });
});
