import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R4 failures turned into normal-looking values: a broad handler whose only statement returns an empty
// value, and error listeners or promise handlers that drop the error. Specific exceptions, logged or
// re-raised failures and values that carry the error stay quiet.

const cases: Case[] = [
  {
    name: 'R4: python except Exception returns an empty dict for a corrupt cache',
    path: 'scripts/quotes.py',
    text: 'import json\nfrom pathlib import Path\n\nCACHE = Path.home() / ".cache" / "quotes.json"\n\n\ndef load_cache():\n    try:\n        return json.loads(CACHE.read_text())\n    except Exception:\n        return {}\n\n\nprint(len(load_cache()))\n',
    expect: [['R4', 10]],
  },
  {
    name: 'R4: python bare except returns None from an API lookup',
    path: 'scripts/owner.py',
    text: 'import requests\n\n\ndef owner_of(repo):\n    try:\n        r = requests.get(f"https://api.example.dev/repos/{repo}", timeout=10)\n        r.raise_for_status()\n        return r.json()["owner"]\n    except:\n        return None\n',
    expect: [['R4', 9]],
  },
  {
    name: 'R4: python except BaseException returns an empty list of rows',
    path: 'scripts/rows.py',
    text: 'import csv\n\n\ndef read_rows(path):\n    try:\n        with open(path, newline="") as fh:\n            return list(csv.DictReader(fh))\n    except BaseException as err:  # keep going\n        return []\n',
    expect: [['R4', 8]],
  },
  {
    name: 'no R4: specific exception, logged fallback, exit with a message',
    path: 'scripts/settings.py',
    text: 'import json\nimport logging\nimport sys\n\nlog = logging.getLogger(__name__)\n\n\ndef settings(path):\n    try:\n        with open(path) as fh:\n            return json.load(fh)\n    except FileNotFoundError:\n        return {}\n\n\ndef remote_count(fetch):\n    try:\n        return fetch()\n    except Exception as exc:\n        log.warning("count unavailable: %s", exc)\n        return None\n\n\ndef strict(path):\n    try:\n        return settings(path)\n    except Exception as exc:\n        sys.exit(f"cannot read {path}: {exc}")\n',
    absent: ['R4'],
  },
  {
    name: 'R4: JS request error listener with an empty body',
    path: 'scripts/upload.js',
    text: "const https = require('node:https');\n\nfunction upload(body) {\n  const req = https.request('https://files.example.io/v1/put', { method: 'PUT', timeout: 10000 });\n  req.on('error', () => {});\n  req.end(body);\n}\nmodule.exports = { upload };\n",
    expect: [['R4', 5]],
  },
  {
    name: "R4: JS stream once('error') with an empty function",
    path: 'scripts/follow.mjs',
    text: "import { createReadStream } from 'node:fs';\n\nexport function follow(path, onLine) {\n  const stream = createReadStream(path, 'utf8');\n  stream.once('error', function () {});\n  stream.on('data', (chunk) => chunk.split('\\n').forEach(onLine));\n}\n",
    expect: [['R4', 5]],
  },
  {
    name: 'R4: TS catch returns {} and .catch(() => []) hides a read failure',
    path: 'scripts/prices.ts',
    text: "import { readFile } from 'node:fs/promises';\n\nexport async function loadPrices(path: string): Promise<Record<string, number>> {\n  try {\n    return JSON.parse(await readFile(path, 'utf8'));\n  } catch (err) {\n    return {};\n  }\n}\n\nexport const tags = (p: string) => readFile(p, 'utf8').then((t) => t.split(',')).catch(() => []);\n",
    expect: [
      ['R4', 6],
      ['R4', 11],
    ],
  },
  {
    name: 'no R4: JS error listener that reports, a catch that returns the error, a logging .catch',
    path: 'scripts/ping.mjs',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: "import https from 'node:https';\n\nexport function ping(url) {\n  const req = https.get(url, { timeout: 5000 });\n  req.on('error', (err) => {\n    console.error(`ping failed: ${err.message}`);\n    process.exitCode = 1;\n  });\n  req.on('response', () => {});\n}\n\nexport async function maybeJson(text) {\n  try {\n    return JSON.parse(text);\n  } catch (err) {\n    return { ok: false, error: String(err) };\n  }\n}\n\nexport const lines = (p) => import('node:fs/promises').then((fs) => fs.readFile(p, 'utf8')).catch((e) => {\n  console.warn(e.message);\n  return '';\n});\n",
    absent: ['R4'],
  },
];

describe('R4: swallowed errors that look like results', () => {
  for (const c of cases) it(c.name, () => check(c));
});
