import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Robustness classes the scanner used to miss, each with look-alikes that must stay quiet.

const input: Case[] = [
  {
    name: 'R1: python yaml config from a file, outside any error handling',
    path: 'scripts/render.py',
    text: 'import yaml\n\ndef settings(path):\n    with open(path) as fh:\n        return yaml.safe_load(fh.read())\n\nprint(settings("site.yml")["title"])\n',
    expect: [['R1', 5]],
  },
  {
    name: "R1: javascript parses another program's stdout with no try",
    path: 'scripts/outdated.mjs',
    text: "import { execSync } from 'node:child_process';\nconst report = JSON.parse(execSync('npm outdated --json').toString());\nfor (const [name, v] of Object.entries(report)) console.log(name, v.latest);\n",
    expect: [['R1', 2]],
  },
  {
    name: 'R1: python reads JSON from stdin and indexes it',
    path: 'scripts/filter.py',
    text: 'import json, sys\nrows = json.loads(sys.stdin.read())\nprint(sum(r["amount"] for r in rows))\n',
    expect: [['R1', 2]],
  },
  {
    name: 'R1: bash under set -u uses $1 and $2 with no count check or usage',
    path: 'scripts/tag.sh',
    text: '#!/usr/bin/env bash\nset -euo pipefail\nREPO="$1"\nTAG="$2"\ngit -C "$REPO" tag "$TAG"\n',
    expect: [['R1', 3]],
  },
  {
    name: 'no R1: parse inside try with a clear message',
    path: 'scripts/ok.py',
    text: 'import json, sys\ntry:\n    cfg = json.load(open("cfg.json"))\nexcept (OSError, json.JSONDecodeError) as e:\n    sys.exit(f"bad config: {e}")\nprint(cfg.get("name", "?"))\n',
    absent: ['R1'],
  },
  {
    name: 'no R1: a schema validates what JSON.parse returns',
    path: 'scripts/ok.ts',
    text: "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';\nconst Cfg = z.object({ name: z.string() });\nconst cfg = Cfg.parse(JSON.parse(readFileSync('cfg.json', 'utf8')));\nconsole.log(cfg.name);\n",
    absent: ['R1'],
  },
  {
    name: "no R1: parsing an API's response or a constant is not input handling",
    path: 'scripts/ok2.py',
    text: 'import json, requests\nDEFAULTS = json.loads(\'{"units": "metric"}\')\nr = requests.get("https://api.example.org/v1", timeout=5)\nprint(json.loads(r.text), DEFAULTS)\n',
    absent: ['R1'],
  },
  {
    name: 'no R1: set -u with a usage guard on the argument count',
    path: 'scripts/ok.sh',
    text: '#!/usr/bin/env bash\nset -euo pipefail\n[ $# -eq 2 ] || { echo "usage: ok.sh REPO TAG" >&2; exit 2; }\ngit -C "$1" tag "$2"\n',
    absent: ['R1'],
  },
];

const loops: Case[] = [
  {
    name: 'R3: python crawler queues every same-site link and stops only when the queue empties',
    path: 'scripts/links.py',
    text: 'import requests, re\nfrom collections import deque\n\ndef crawl(start):\n    todo, seen = deque([start]), {start}\n    while todo:\n        page = todo.popleft()\n        html = requests.get(page, timeout=10).text\n        for href in re.findall(r\'href="(/[^"]*)"\', html):\n            if href not in seen:\n                seen.add(href)\n                todo.append(start + href)\n    return seen\n',
    expect: [['R3', 6]],
  },
  {
    name: 'R3: javascript while(true) crawl that breaks only on an empty frontier',
    path: 'scripts/spider.mjs',
    text: 'const frontier = [process.argv[2]];\nwhile (true) {\n  if (frontier.length === 0) break;\n  const url = frontier.shift();\n  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });\n  for (const m of (await res.text()).matchAll(/href="(http[^"]+)"/g)) frontier.push(m[1]);\n}\n',
    expect: [['R3', 2]],
  },
  {
    name: 'R3: python re-runs failing jobs until none fail',
    path: 'scripts/rerun.py',
    text: 'import subprocess\n\ndef failing(jobs):\n    return [j for j in jobs if subprocess.run(["make", j]).returncode != 0]\n\npending = failing(["a", "b"])\nwhile len(pending) > 0:\n    try:\n        pending = failing(pending)\n    except OSError:\n        pass\n',
    expect: [['R3', 7]],
  },
  {
    name: 'no R3: the crawl stops at a page limit',
    path: 'scripts/ok_crawl.py',
    text: 'import requests\n\ndef crawl(start, max_pages=50):\n    queue, seen = [start], []\n    while queue:\n        if len(seen) >= max_pages:\n            break\n        url = queue.pop(0)\n        seen.append(url)\n        for link in requests.get(url, timeout=5).json().get("links", []):\n            queue.append(link)\n    return seen\n',
    absent: ['R3'],
  },
  {
    name: 'no R3: a local directory walk refills its stack but has a finite tree and no network',
    path: 'scripts/ok_walk.py',
    text: 'import os\nstack, total = ["."], 0\nwhile stack:\n    d = stack.pop()\n    try:\n        for e in os.scandir(d):\n            if e.is_dir():\n                stack.append(e.path)\n            else:\n                total += e.stat().st_size\n    except PermissionError:\n        continue\nprint(total)\n',
    absent: ['R3'],
  },
];

const errors: Case[] = [
  {
    name: 'R4: a database dump silenced with || true, then the previous backup is deleted',
    path: 'scripts/rotate.sh',
    text: '#!/bin/sh\nOUT=/var/backups/app\npg_dump app > "$OUT/new.sql" || true\nrm -f "$OUT/old.sql"\nmv "$OUT/new.sql" "$OUT/old.sql"\n',
    expect: [['R4', 3]],
  },
  {
    name: 'R4: a copy whose failure is ignored before the source is removed',
    path: 'scripts/move_logs.sh',
    text: '#!/bin/bash\ncp -r logs/ /mnt/archive/ || :\nrm -rf logs/\n',
    expect: [['R4', 2]],
  },
  {
    name: 'R4: rsync silenced, then find -delete prunes the originals',
    path: 'scripts/prune.sh',
    text: '#!/bin/bash\nrsync -a photos/ nas:/photos/ || true\nfind photos -mtime +30 -delete\n',
    expect: [['R4', 2]],
  },
  {
    name: 'no R4: || true on a lookup, with no delete after it',
    path: 'scripts/ok.sh',
    text: '#!/bin/bash\ncp notes.txt notes.bak || true\ngrep -c TODO notes.txt || true\necho done\n',
    absent: ['R4'],
  },
];

const cleanup: Case[] = [
  {
    name: 'R5: bash archives into /tmp and never removes it',
    path: 'scripts/ship.sh',
    text: '#!/bin/bash\ntar czf /tmp/site-bundle.tgz -C "$HOME" site\nscp /tmp/site-bundle.tgz deploy@example.org:/srv/\n',
    expect: [['R5', 2]],
  },
  {
    name: 'R5: python writes a fixed file under /tmp',
    path: 'scripts/cache.py',
    text: 'import json\nwith open("/tmp/quote-cache.json", "w") as fh:\n    json.dump({"a": 1}, fh)\n',
    expect: [['R5', 2]],
  },
  {
    name: 'R5: powershell writes to $env:TEMP and leaves it',
    path: 'scripts/Export-Report.ps1',
    text: 'Get-Process | Export-Csv -Path "$env:TEMP\\procs.csv"\nWrite-Output "saved"\n',
    expect: [['R5', 1]],
  },
  {
    name: 'R5: bash downloads into /tmp after cd and never cleans up',
    path: 'scripts/build_dep.sh',
    text: '#!/bin/bash\ncd /tmp\ncurl -LO https://example.org/zlib-1.3.tar.gz\ntar xzf zlib-1.3.tar.gz\n',
    expect: [['R5', 3]],
  },
  {
    name: 'R5: mktemp dir never removed although the script rm-s something else',
    path: 'scripts/stage.sh',
    text: '#!/bin/bash\nWORK=$(mktemp -d)\ncp data/* "$WORK"/\nrm -f data/.lock\n',
    expect: [['R5', 2]],
  },
  {
    name: 'no R5: the temp file is removed, and the mktemp dir is trapped',
    path: 'scripts/ok.sh',
    text: '#!/bin/bash\nD=$(mktemp -d)\ntrap \'rm -rf "$D"\' EXIT\ntar czf /tmp/out.tgz -C "$D" .\nscp /tmp/out.tgz host:/srv/\nrm -f /tmp/out.tgz\n',
    absent: ['R5'],
  },
  {
    name: 'no R5: reading from /tmp or extracting from it creates nothing',
    path: 'scripts/ok2.sh',
    text: '#!/bin/bash\ntar xzf /tmp/input.tgz -C ./out\ncp /tmp/input.txt ./out/\n',
    absent: ['R5'],
  },
];

describe('robustness recall', () => {
  it.each(input)('$name', (c) => check(c));
  it.each(loops)('$name', (c) => check(c));
  it.each(errors)('$name', (c) => check(c));
  it.each(cleanup)('$name', (c) => check(c));
});

describe('R1: an argument with a fallback is handled input', () => {
  it.each<Case>([
    {
      name: 'no R1: process.argv[2] ?? a default file',
      path: 'scripts/check.mjs',
      text: "import { readFile } from 'node:fs/promises';\nconst path = process.argv[2] ?? 'config.json';\nconsole.log((await readFile(path, 'utf8')).length);\n",
      absent: ['R1'],
    },
    {
      name: 'R1: the same read without the fallback',
      path: 'scripts/check.mjs',
      text: "import { readFile } from 'node:fs/promises';\nconst path = process.argv[2];\nconsole.log((await readFile(path, 'utf8')).length);\n",
      expect: [['R1', 2]],
    },
  ])('$name', (c) => check(c));
});

describe('R1: CSV fields converted with nothing to catch a bad row', () => {
  it.each<Case>([
    {
      name: 'R1: python DictReader rows turned into floats and dates outside any try',
      path: 'scripts/ledger.py',
      text: 'import csv\nfrom datetime import datetime\n\ndef load(path):\n    with open(path, newline="") as fh:\n        return [(datetime.strptime(r["day"], "%Y-%m-%d"), float(r["total"])) for r in csv.DictReader(fh)]\n',
      expect: [['R1', 6]],
    },
    {
      name: 'R1: csv.reader columns converted with int() by index',
      path: 'scripts/scores.py',
      text: 'import csv, sys\nfor row in csv.reader(sys.stdin):\n    print(row[0], int(row[1]) * 2)\n',
      expect: [['R1', 2]],
    },
    {
      name: 'no R1: conversion failures are caught per row',
      path: 'scripts/ok_ledger.py',
      text: 'import csv\nwith open("in.csv", newline="") as fh:\n    for r in csv.DictReader(fh):\n        try:\n            print(float(r["total"]))\n        except (KeyError, ValueError):\n            print("skipping bad row")\n',
      absent: ['R1'],
    },
    {
      name: 'no R1: rows copied as text, nothing converted',
      path: 'scripts/ok_copy.py',
      text: 'import csv\nwith open("in.csv", newline="") as fh:\n    for r in csv.DictReader(fh):\n        print(r.get("name", ""))\n',
      absent: ['R1'],
    },
  ])('$name', (c) => check(c));
});
