import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R2 resolves calls to functions the file defines itself before treating them as the global API: a local
// `fetch` wrapper that passes a timeout is not a bare fetch, and one that does not is reported at its body.

const cases: Case[] = [
  {
    name: 'no R2: JS local async function fetch that adds AbortSignal.timeout',
    path: 'scripts/items.mjs',
    text: "const realFetch = globalThis.fetch;\n\nasync function fetch(url, init = {}) {\n  return realFetch(url, { ...init, signal: AbortSignal.timeout(10_000) });\n}\n\nconst res = await fetch('https://api.example.com/v1/items');\nconsole.log(await res.json());\n",
    absent: ['R2'],
  },
  {
    name: 'no R2: python helper named fetch whose requests.get has timeout=',
    path: 'scripts/pages.py',
    text: 'import requests\n\n\ndef fetch(url):\n    return requests.get(url, timeout=15).json()\n\n\nfor page in range(3):\n    print(fetch(f"https://api.example.com/items?page={page}"))\n',
    absent: ['R2'],
  },
  {
    name: 'no R2: TS const fetch arrow that passes a timeout to node-fetch',
    path: 'scripts/price.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: "import nodeFetch from 'node-fetch';\n\nconst fetch = (url: string) => nodeFetch(url, { timeout: 8000 });\n\nexport async function price(symbol: string) {\n  const r = await fetch(`https://quotes.example.net/${symbol}`);\n  return r.json();\n}\n",
    absent: ['R2'],
  },
  {
    name: 'R2: a python fetch helper without a timeout is reported inside the helper, not at its callers',
    path: 'scripts/items.py',
    text: 'import requests\n\n\ndef fetch(url):\n    return requests.get(url).json()\n\n\nprint(fetch("https://api.example.com/items"))\n',
    expect: [['R2', 5]],
  },
  {
    name: 'R2: the global fetch with no signal is still reported',
    path: 'scripts/load.mjs',
    text: 'export async function load(url) {\n  const res = await fetch(url);\n  return res.text();\n}\n',
    expect: [['R2', 2]],
  },
];

describe('R2: local wrappers named like network APIs', () => {
  for (const c of cases) it(c.name, () => check(c));
});
