// Credentials shipped in a skill's files: connection URIs with a real password, live token formats, private
// keys, high-entropy values of secret-named keys. Placeholders, interpolation and format documentation are not.
import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { type Case, check } from './cases.js';
import { runAll } from './make-context.js';

// Built at run time so no credential-shaped literal sits in this repository's own source.
const AWS_ID = ['AKIA', 'Z4QW7RTN', 'KX2MPL5B'].join('');
const AWS_SECRET = ['t9Vq2LmX8', 'rK4wN7bP1z', 'C6yH3jF5dS0aE8uG2', 'iK7oQ'].join('');
const GH_TOKEN = ['ghp_', '7Kq2Lm9Xw4Rt8Vn3Bz6Yp1Hc5Jd0Fs2Ga4Ek'].join('');
const KEY_BODY = 'MIIEpAIBAAKCAQEAv3Yq9Lm2Xw4Rt8Vn3Bz6Yp1Hc5Jd0Fs2Ga4EkQ7mT1uZ8oP';

const cases: Case[] = [
  {
    name: 'postgres and mongodb+srv URIs with passwords to real hosts in a script',
    path: 'scripts/load.py',
    text: 'import psycopg2\nDSN = "postgresql://etl_writer:Rb7xQ2vLp9Wm@warehouse.northwind-data.com:5432/sales"\nMONGO = "mongodb+srv://reader:Zt4Kp8Nq2Hs6@cluster0.x1y2z.mongodb.net/app"\nconn = psycopg2.connect(DSN)\n',
    expect: [
      ['PE3', 2],
      ['PE3', 3],
    ],
  },
  {
    name: 'an AWS key pair and a redis URI in a JSON config',
    path: 'config/settings.json',
    text: `{\n  "aws_access_key_id": "${AWS_ID}",\n  "aws_secret_access_key": "${AWS_SECRET}",\n  "cache": "rediss://:Pq8Lm3Xz7Wv2Kt@cache.northwind-data.com:6380/0"\n}\n`,
    expect: [
      ['PE3', 2],
      ['PE3', 3],
      ['PE3', 4],
    ],
  },
  {
    name: 'a GitHub token and a private key block in a script',
    path: 'scripts/push.sh',
    text: `#!/bin/bash\nexport GH_TOKEN=${GH_TOKEN}\ncat > /tmp/k <<'K'\n-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\nK\n`,
    expect: [
      ['PE3', 2],
      ['PE3', 4],
    ],
  },
  {
    name: 'a high-entropy value of a secret-named key in TOML config',
    path: 'config/app.toml',
    text: '[service]\nclient_secret = "q8Zr2Lw7Xk4Vm9Tn3Pb6Hy1"\n',
    expect: [['PE3', 2]],
  },
  {
    name: 'secret-named keys in any case, after another assignment on the line, and on a last line without an end',
    path: 'config/app.toml',
    text: '[a]\nname = "service-one-two-three"\nApi_KEY = "Zq8Lw2Xk7Vm4Tn9Pb1Jy6Hr3"\n[b]\nx = "y"; auth_token = "Tn9Pb1Jy6Hr3Zq8Lw2Xk7Vm4"\npassword = "Xk7Vm4Tn9Pb1"',
    expect: [
      ['PE3', 3],
      ['PE3', 5],
      ['PE3', 6],
    ],
  },
  {
    name: 'a client secret written into the prose of SKILL.md',
    path: 'SKILL.md',
    text: '# Poster\n\nUse these credentials:\n\nCLIENT_SECRET = "Hq3Zr8Lw2Xk7Vm4Tn9Pb1Jy6"\n',
    expect: [['PE3', 5]],
  },
  {
    name: 'no secret: placeholders, local development URIs, interpolation and format documentation',
    path: 'scripts/db.py',
    text: [
      'import os',
      'DSN = os.environ.get("DATABASE_URL", "postgresql://postgres:postgres@localhost:5432/dev")',
      'FORMAT = "postgres://<user>:<PASSWORD>@<host>:5432/<db>"',
      "LIVE = f\"postgresql://{os.environ['PGUSER']}:{os.environ['PGPASSWORD']}@{os.environ['PGHOST']}/app\"",
      'COMPOSE = "amqp://guest:guest@rabbitmq:5672/"',
      'DOCS = "mongodb+srv://user:pass@cluster.example.com/db"',
      'API_KEY = "your-api-key-here"',
      'TOKEN = "xxxxxxxxxxxxxxxxxxxxxxxx"',
      'SECRET_KEY = os.environ["SECRET_KEY"]',
      'token_url = "https://auth.northwind-data.com/oauth/token"',
      'max_tokens = 4096',
      'db_password = "MyP@ssw0rd123"',
    ].join('\n'),
    absent: ['PE3'],
  },
  {
    name: 'no secret: a made-up value of a secret-named variable in a test file',
    path: 'tests/test_redaction.py',
    text: 'def test_masks_secret():\n    api_key = "Qm7Tz3Kp9Lw2Xv5Rn8Ys4Hb1"\n    assert mask(api_key).startswith("Qm7T")\n',
    absent: ['PE3'],
  },
  {
    name: 'no secret: AWS documentation example keys and env references in JSON',
    path: 'config/example.json',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JSON fixture text, not a template
    text: '{\n  "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",\n  "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",\n  "database_url": "${DB_URL}",\n  "api_key": "<YOUR_API_KEY>"\n}\n',
    absent: ['PE3'],
  },
];

describe('hard-coded credentials', () => {
  for (const c of cases) it(c.name, () => check(c));

  it('redacts the credential in the evidence it quotes', async () => {
    const hits = await runAll(codeDetectors, 'scripts/push.sh', `export GH_TOKEN=${GH_TOKEN}\n`);
    const hit = hits.find((h) => h.rule === 'code.hardcoded-secret');
    expect(hit?.evidence).toContain('ghp_');
    expect(hit?.evidence).not.toContain(GH_TOKEN);
  });
});
