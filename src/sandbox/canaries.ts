// Canary secrets: fake credentials with unique random tokens, planted where real ones live (HOME, the
// workspace, the environment). Seeing a token leave (network payload, DNS name, a file outside the expected
// outputs) is proof of exfiltration, because nothing but the sandboxed code could know it.
import { randomBytes, randomInt } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { dnsExfilStrings, findNeedle, type Needle, tokenNeedles } from './canary-encodings.js';
import type { CanaryRef, EvidenceBundle } from './evidence.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomFrom(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

const base62 = (n: number) => randomFrom(BASE62, n);

interface EnvCanarySpec {
  name: string;
  make: () => string;
}

// Realistic shapes, so format-matching stealers pick them up.
const ENV_CANARIES: EnvCanarySpec[] = [
  { name: 'OPENAI_API_KEY', make: () => `sk-proj-${base62(48)}` },
  { name: 'ANTHROPIC_API_KEY', make: () => `sk-ant-api03-${randomBytes(66).toString('base64url')}AA` },
  { name: 'AWS_ACCESS_KEY_ID', make: () => `AKIA${randomFrom('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}` },
  { name: 'AWS_SECRET_ACCESS_KEY', make: () => randomBytes(30).toString('base64') },
  { name: 'GITHUB_TOKEN', make: () => `ghp_${base62(36)}` },
  { name: 'HF_TOKEN', make: () => `hf_${randomFrom(BASE62.slice(0, 52), 34)}` },
  { name: 'NPM_TOKEN', make: () => `npm_${base62(36)}` },
  {
    name: 'SLACK_BOT_TOKEN',
    make: () => `xoxb-${randomInt(1e11, 1e12)}-${randomInt(1e11, 1e12)}-${base62(24)}`,
  },
];

interface FileCanarySpec {
  name: string;
  root: 'home' | 'workspace';
  path: string;
  mode: number;
  /** Writes the file around `token`. */
  write: (file: string, token: string) => Promise<void>;
  make: () => string;
  /**
   * False for a file that is private but no credential (an agent's session transcript): its token leaving is
   * exfiltration, but opening it is not a credential read (CanarySet.paths leaves it out).
   */
  credential?: false;
}

function sshPrivateKey(tokenLine: string): string {
  const lines = [randomBytes(52).toString('base64'), randomBytes(52).toString('base64'), tokenLine];
  for (let i = 0; i < 20; i++) lines.push(randomBytes(52).toString('base64'));
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

const text = (body: (token: string) => string) => async (file: string, token: string) => {
  await writeFile(file, body(token));
};

function writeCookieStore(file: string, token: string): Promise<void> {
  // Chrome's schema (the columns stealers select); the value is stored in clear, like a test profile.
  const db = new Database(file);
  try {
    db.exec(
      "CREATE TABLE cookies (creation_utc INTEGER NOT NULL, host_key TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, path TEXT NOT NULL, expires_utc INTEGER NOT NULL, is_secure INTEGER NOT NULL, is_httponly INTEGER NOT NULL, encrypted_value BLOB DEFAULT '')",
    );
    const insert = db.prepare('INSERT INTO cookies VALUES (?, ?, ?, ?, ?, ?, 1, 1, ?)');
    insert.run(
      13_300_000_000_000_000,
      '.github.com',
      'user_session',
      token,
      '/',
      13_400_000_000_000_000,
      Buffer.alloc(0),
    );
    insert.run(
      13_300_000_000_000_000,
      '.example.com',
      'theme',
      'dark',
      '/',
      13_400_000_000_000_000,
      Buffer.alloc(0),
    );
  } finally {
    db.close();
  }
  return Promise.resolve();
}

const FILE_CANARIES: FileCanarySpec[] = [
  {
    name: 'ssh-private-key',
    root: 'home',
    path: '.ssh/id_rsa',
    mode: 0o600,
    make: () => randomBytes(52).toString('base64'),
    write: text(sshPrivateKey),
  },
  {
    name: 'aws-credentials-file',
    root: 'home',
    path: '.aws/credentials',
    mode: 0o600,
    make: () => randomBytes(30).toString('base64'),
    write: text(
      (t) =>
        `[default]\naws_access_key_id = AKIA${randomFrom('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\naws_secret_access_key = ${t}\nregion = us-east-1\n`,
    ),
  },
  {
    name: 'workspace-dotenv',
    root: 'workspace',
    path: '.env',
    mode: 0o600,
    make: () => `sk_live_${base62(40)}`,
    write: text(
      (t) =>
        `# local settings\nDATABASE_URL=postgres://app:${base62(20)}@db.internal:5432/app\nPAYMENTS_SECRET_KEY=${t}\n`,
    ),
  },
  {
    name: 'netrc',
    root: 'home',
    path: '.netrc',
    mode: 0o600,
    make: () => base62(32),
    write: text((t) => `machine api.internal.example.com\n  login deploy\n  password ${t}\n`),
  },
  {
    name: 'git-credentials',
    root: 'home',
    path: '.git-credentials',
    mode: 0o600,
    make: () => `ghp_${base62(36)}`,
    write: text((t) => `https://deploy-bot:${t}@github.com\n`),
  },
  {
    name: 'kube-config',
    root: 'home',
    path: '.kube/config',
    mode: 0o600,
    make: () => randomBytes(48).toString('base64url'),
    write: text(
      (t) =>
        `apiVersion: v1\nkind: Config\nclusters:\n- name: prod\n  cluster:\n    server: https://10.20.0.1:6443\ncontexts:\n- name: prod\n  context: {cluster: prod, user: admin}\ncurrent-context: prod\nusers:\n- name: admin\n  user:\n    token: ${t}\n`,
    ),
  },
  {
    name: 'npmrc',
    root: 'home',
    path: '.npmrc',
    mode: 0o600,
    make: () => `npm_${base62(36)}`,
    write: text((t) => `//registry.npmjs.org/:_authToken=${t}\n`),
  },
  {
    name: 'gh-cli-token',
    root: 'home',
    path: '.config/gh/hosts.yml',
    mode: 0o600,
    make: () => `gho_${base62(36)}`,
    write: text((t) => `github.com:\n    oauth_token: ${t}\n    user: deploy-bot\n    git_protocol: https\n`),
  },
  {
    name: 'pgpass',
    root: 'home',
    path: '.pgpass',
    mode: 0o600,
    make: () => base62(28),
    write: text((t) => `db.internal:5432:app:app:${t}\n`),
  },
  {
    name: 'mysql-client-config',
    root: 'home',
    path: '.my.cnf',
    mode: 0o600,
    make: () => base62(28),
    write: text((t) => `[client]\nuser=app\npassword=${t}\nhost=db.internal\n`),
  },
  {
    name: 'docker-config',
    root: 'home',
    path: '.docker/config.json',
    mode: 0o600,
    make: () => base62(36),
    write: text(
      (t) =>
        `${JSON.stringify({ auths: { 'ghcr.io': { auth: Buffer.from(`deploy-bot:${t}`).toString('base64') } } }, null, 2)}\n`,
    ),
  },
  {
    name: 'pypirc',
    root: 'home',
    path: '.pypirc',
    mode: 0o600,
    make: () => `pypi-${randomBytes(48).toString('base64url')}`,
    write: text(
      (t) => `[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = ${t}\n`,
    ),
  },
  {
    // Claude Code's sign-in, where it keeps it on Linux.
    name: 'claude-credentials',
    root: 'home',
    path: '.claude/.credentials.json',
    mode: 0o600,
    make: () => `sk-ant-oat01-${randomBytes(68).toString('base64url')}`,
    write: text(
      (t) =>
        `${JSON.stringify({ claudeAiOauth: { accessToken: t, refreshToken: `sk-ant-ort01-${randomBytes(68).toString('base64url')}`, expiresAt: 1_893_456_000_000, scopes: ['user:inference'] } })}\n`,
    ),
  },
  {
    // A Claude Code session transcript of the project, in which the user once pasted a key: what a skill that
    // uploads "recent sessions" sends.
    name: 'agent-session-transcript',
    root: 'home',
    path: '.claude/projects/-home-skill-work/3f6d2c1e-8a4b-4f0e-9c7d-2b5e1a9f4c3d.jsonl',
    mode: 0o600,
    make: () => `sk_live_${base62(32)}`,
    credential: false,
    write: text((t) =>
      [
        {
          type: 'user',
          message: { role: 'user', content: 'the payments test fails with 401, can you check?' },
        },
        {
          type: 'assistant',
          message: { role: 'assistant', content: 'Which key does the test environment use?' },
        },
        { type: 'user', message: { role: 'user', content: `this one: PAYMENTS_SECRET_KEY=${t}` } },
      ]
        .map((line) => JSON.stringify({ ...line, cwd: '/home/skill/work', sessionId: '3f6d2c1e' }))
        .join('\n')
        .concat('\n'),
    ),
  },
  {
    name: 'chrome-cookies',
    root: 'home',
    path: '.config/google-chrome/Default/Cookies',
    mode: 0o600,
    make: () => base62(40),
    write: writeCookieStore,
  },
  // The stores credential stealers sweep on a developer's Linux machine beyond the ones above: cloud sign-ins,
  // browser logins, wallets, a running notebook's kernel key, a package registry token.
  {
    name: 'gcloud-adc',
    root: 'home',
    path: '.config/gcloud/application_default_credentials.json',
    mode: 0o600,
    make: () => `1//0g${randomBytes(72).toString('base64url')}`,
    write: text(
      (t) =>
        `${JSON.stringify({ client_id: '764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com', client_secret: `d-FL95Q19q7${base62(13)}`, refresh_token: t, type: 'authorized_user' }, null, 2)}\n`,
    ),
  },
  {
    name: 'azure-token-cache',
    root: 'home',
    path: '.azure/msal_token_cache.json',
    mode: 0o600,
    make: () => `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${randomBytes(120).toString('base64url')}`,
    write: text(
      (t) =>
        `${JSON.stringify({ AccessToken: { 'dana-login.microsoftonline.com-accesstoken': { credential_type: 'AccessToken', secret: t, home_account_id: 'dana.acme', environment: 'login.microsoftonline.com', target: 'https://management.core.windows.net//.default' } } }, null, 2)}\n`,
    ),
  },
  {
    name: 'firefox-logins',
    root: 'home',
    path: '.mozilla/firefox/k3f9xq2a.default-release/logins.json',
    mode: 0o600,
    make: () => `MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECL${randomBytes(36).toString('base64')}`,
    write: text(
      (t) =>
        `${JSON.stringify({ nextId: 2, logins: [{ id: 1, hostname: 'https://github.com', formSubmitURL: 'https://github.com', usernameField: 'login', passwordField: 'password', encryptedUsername: `MDIEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECA${randomBytes(18).toString('base64')}`, encryptedPassword: t, encType: 1 }] })}\n`,
    ),
  },
  {
    name: 'ethereum-keystore',
    root: 'home',
    path: '.ethereum/keystore/UTC--2025-03-14T09-26-53.000Z--7c2f1e6b9a4d3c8e5f0a1b2c3d4e5f6a7b8c9d0e',
    mode: 0o600,
    make: () => randomBytes(32).toString('hex'),
    write: text(
      (t) =>
        `${JSON.stringify({ address: '7c2f1e6b9a4d3c8e5f0a1b2c3d4e5f6a7b8c9d0e', crypto: { cipher: 'aes-128-ctr', ciphertext: t, cipherparams: { iv: randomBytes(16).toString('hex') }, kdf: 'scrypt', kdfparams: { dklen: 32, n: 262144, p: 1, r: 8, salt: randomBytes(32).toString('hex') }, mac: randomBytes(32).toString('hex') }, id: '3198bc9c-6672-5ab3-d995-4942343ae5b6', version: 3 })}\n`,
    ),
  },
  {
    name: 'electrum-wallet',
    root: 'home',
    path: '.electrum/wallets/default_wallet',
    mode: 0o600,
    make: () => `xprv9s21ZrQH143K${base62(95)}`,
    write: text(
      (t) =>
        `${JSON.stringify({ keystore: { type: 'bip32', xprv: t, xpub: `xpub661MyMwAqRbc${base62(95)}` }, seed_version: 52, wallet_type: 'standard' }, null, 4)}\n`,
    ),
  },
  {
    // A notebook server's running kernel: whoever has its key can run code in it.
    name: 'jupyter-kernel',
    root: 'home',
    path: '.local/share/jupyter/runtime/kernel-5f0c3a2e-8d1b-4e6f-9a7c-2b4d6e8f0a1c.json',
    mode: 0o600,
    make: () =>
      randomBytes(16)
        .toString('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'),
    write: text(
      (t) =>
        `${JSON.stringify({ shell_port: 41523, iopub_port: 41525, stdin_port: 41527, control_port: 41529, hb_port: 41531, ip: '127.0.0.1', key: t, transport: 'tcp', signature_scheme: 'hmac-sha256', kernel_name: 'python3' }, null, 1)}\n`,
    ),
  },
  {
    name: 'cargo-credentials',
    root: 'home',
    path: '.cargo/credentials.toml',
    mode: 0o600,
    make: () => `cio${base62(32)}`,
    write: text((t) => `[registry]\ntoken = "${t}"\n`),
  },
];

/** The environment secrets every sandbox with canaries has. */
export const STANDARD_ENV_CANARIES: ReadonlySet<string> = new Set(ENV_CANARIES.map((s) => s.name));

export interface CanarySet {
  canaries: CanaryRef[];
  /** The environment variables to add to every run. */
  env: Record<string, string>;
  /** Inner path (as the sandbox sees it) of each file canary, to its name. */
  paths: Map<string, string>;
}

/** Plants every canary under `hostHome` and `hostWorkspace`; `innerHome`/`innerWorkspace` name them inside. */
export async function seedCanaries(dirs: {
  hostHome: string;
  hostWorkspace: string;
  innerHome: string;
  innerWorkspace: string;
  /** More environment secrets to plant, by name: the keys a skill's own code reads (NOTION_TOKEN). */
  extraEnv?: readonly string[];
}): Promise<CanarySet> {
  const canaries: CanaryRef[] = [];
  const env: Record<string, string> = {};
  const paths = new Map<string, string>();
  const extra = (dirs.extraEnv ?? [])
    .filter((name) => !STANDARD_ENV_CANARIES.has(name))
    // No vendor shape to copy: a long base62 token, what most API keys look like.
    .map((name) => ({ name, make: () => base62(40) }));
  for (const spec of [...ENV_CANARIES, ...extra]) {
    const token = spec.make();
    env[spec.name] = token;
    canaries.push({ name: spec.name, location: `env:${spec.name}`, token });
  }
  for (const spec of FILE_CANARIES) {
    const token = spec.make();
    const host = join(spec.root === 'home' ? dirs.hostHome : dirs.hostWorkspace, spec.path);
    await mkdir(dirname(host), { recursive: true, mode: 0o700 });
    await spec.write(host, token);
    await chmod(host, spec.mode);
    canaries.push({ name: spec.name, location: `${spec.root}:${spec.path}`, token });
    if (spec.credential !== false)
      paths.set(`${spec.root === 'home' ? dirs.innerHome : dirs.innerWorkspace}/${spec.path}`, spec.name);
  }
  return { canaries, env, paths };
}

export type CanaryHitKind = 'sink' | 'network-payload' | 'dns' | 'file' | 'argv';

export interface CanaryHit {
  canary: string;
  location: string;
  kind: CanaryHitKind;
  encoding: Needle['encoding'];
  /** Where it was seen: destination, query name, file path or the command. */
  where: string;
  /** True for evidence that the secret left the sandbox or was staged for it; false for intent only (argv). */
  proof: boolean;
}

export interface CanaryHitOptions {
  /** Paths (`workspace:out/`, `home:.cache/`) where a run may legitimately write secrets, e.g. a config it was asked to build. */
  expectedOutputs?: string[];
}

/** Every place a canary token (in any encoding) shows up in the evidence. */
export function findCanaryHits(
  evidence: EvidenceBundle,
  canaries: CanaryRef[] = evidence.canaries,
  options: CanaryHitOptions = {},
): CanaryHit[] {
  const hits: CanaryHit[] = [];
  const seen = new Set<string>();
  const armed = canaries.map((c) => ({ canary: c, needles: tokenNeedles(c.token) }));
  const check = (haystack: string, kind: CanaryHitKind, where: string, proof: boolean, relaxCase = false) => {
    if (haystack === '') return;
    for (const { canary, needles } of armed) {
      const needle = findNeedle(haystack, needles, relaxCase);
      if (!needle) continue;
      const key = `${canary.name}\0${kind}\0${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      hits.push({
        canary: canary.name,
        location: canary.location,
        kind,
        encoding: needle.encoding,
        where,
        proof,
      });
    }
  };

  for (const record of evidence.network.sink) {
    const body = record.bodyBase64 ? Buffer.from(record.bodyBase64, 'base64').toString('latin1') : '';
    const where = `${record.protocol} ${record.host ?? record.address}:${record.port}${record.path ?? ''}`;
    check([record.host ?? '', record.path ?? '', record.headers ?? '', body].join('\n'), 'sink', where, true);
  }
  for (const attempt of evidence.network.attempts) {
    if (attempt.payload)
      check(attempt.payload, 'network-payload', `${attempt.address}:${attempt.port ?? ''}`, true);
  }
  const names = [
    ...evidence.network.dnsQueries.map((q) => q.name),
    ...evidence.network.sink.filter((r) => r.kind === 'dns' && r.host).map((r) => r.host!),
  ];
  for (const name of names) check(name.replaceAll('.', ''), 'dns', name, true, true);
  for (const joined of dnsExfilStrings(names))
    check(joined, 'dns', 'DNS queries (labels joined in order)', true, true);

  const canaryFiles = new Set(canaries.map((c) => c.location));
  const expected = options.expectedOutputs ?? [];
  for (const change of evidence.fsChanges) {
    if (change.change !== 'created' && change.change !== 'modified') continue;
    const location = `${change.root}:${change.path}`;
    if (canaryFiles.has(location) || expected.some((prefix) => location.startsWith(prefix))) continue;
    for (const name of change.canaryTokens ?? []) {
      const canary = canaries.find((c) => c.name === name);
      const key = `${name}\0file\0${location}`;
      if (!canary || seen.has(key)) continue;
      seen.add(key);
      hits.push({
        canary: name,
        location: canary.location,
        kind: 'file',
        encoding: 'raw',
        where: location,
        proof: true,
      });
    }
    if (change.head) check(change.head, 'file', location, true);
  }
  for (const proc of evidence.processes)
    check(proc.argv.join(' '), 'argv', proc.argv.join(' ').slice(0, 200), false);
  return hits;
}

/** Names of the canaries whose token (in any encoding) occurs in `content`. */
export function canaryTokensIn(content: string, canaries: CanaryRef[]): string[] {
  return canaries.filter((c) => findNeedle(content, tokenNeedles(c.token)) !== null).map((c) => c.name);
}
