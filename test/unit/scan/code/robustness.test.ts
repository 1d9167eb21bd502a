import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const cases: Case[] = [
  {
    name: 'R1: sys.argv used with no check',
    path: 'scripts/conv.py',
    text: 'import sys, json\ndata = json.load(open(sys.argv[1]))\nprint(data["total"])\n',
    expect: [['R1', 2]],
  },
  {
    name: 'R1: $1 used with no check in bash; process.argv in node',
    path: 'scripts/c.sh',
    text: 'cp "$1" /tmp/in.txt\nwc -l /tmp/in.txt\n',
    expect: [['R1', 1]],
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and JS fixture text, not a template
    name: 'no R1: argparse, usage checks, ${1:?}',
    path: 'scripts/ok.py',
    text: 'import argparse\np = argparse.ArgumentParser()\np.add_argument("path")\na = p.parse_args()\nprint(open(a.path).read())\n',
    absent: ['R1'],
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and JS fixture text, not a template
    name: 'no R1: bash guard with ${1:?usage}',
    path: 'scripts/ok.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and JS fixture text, not a template
    text: 'IN="${1:?usage: ok.sh FILE}"\ncp "$IN" /tmp/in.txt\n',
    absent: ['R1'],
  },
  {
    name: 'R1 per use: argparse for some options, raw sys.argv[1] and [2] elsewhere',
    path: 'scripts/opt.py',
    text: 'import argparse, sys\ndef main():\n    folder = sys.argv[1]\n    quality = int(sys.argv[2])\n    p = argparse.ArgumentParser()\n    p.add_argument("--dry-run", action="store_true")\n    args, _ = p.parse_known_args(sys.argv[3:])\n    print(open(folder).read(), quality)\nmain()\n',
    // One finding for the pair of raw reads (lines 3-4), where the first call consumes one.
    expect: [['R1', 4]],
  },
  {
    name: 'R1: input read into a variable, then used by a call on the next line',
    path: 'scripts/get.py',
    text: 'import sys, requests\nurl = sys.argv[1]\nresp = requests.get(url, timeout=10)\nprint(resp.status_code)\n',
    expect: [['R1', 2]],
  },
  {
    name: 'R1: a comment that mentions usage is not a usage check',
    path: 'scripts/prof.py',
    text: 'import sys\n# anonymous usage statistics are off\npath = sys.argv[1]\nprint(open(path).read())\n',
    expect: [['R1', 3]],
  },
  {
    name: 'no R1: argparse covers every argument',
    path: 'scripts/ok2.py',
    text: 'import argparse, sys\np = argparse.ArgumentParser()\np.add_argument("folder")\np.add_argument("--quality", type=int, default=80)\na = p.parse_args(sys.argv[1:])\nprint(open(a.folder).read(), a.quality)\n',
    absent: ['R1'],
  },
  {
    name: 'no R1: argparse plus an explicit argv count check',
    path: 'scripts/ok3.py',
    text: 'import argparse, sys\nif len(sys.argv) < 3:\n    sys.exit("need FOLDER QUALITY")\nfolder = sys.argv[1]\nprint(open(folder).read())\np = argparse.ArgumentParser()\n',
    absent: ['R1'],
  },
  {
    name: 'no R1: a usage message printed by the script',
    path: 'scripts/ok4.js',
    text: "if (process.argv.length < 3) {\n  console.error('usage: ok4.js URL');\n  process.exit(2);\n}\nconst url = process.argv[2];\nfetch(url);\n",
    absent: ['R1'],
  },
  {
    name: 'R2: requests, urlopen, fetch, curl, wget without timeouts',
    path: 'scripts/n.py',
    text: 'import requests, urllib.request\nrequests.get("https://api.example.com/a")\nurllib.request.urlopen("https://api.example.com/b")\n',
    options: { hosts: ['api.example.com'] },
    expect: [
      ['R2', 2],
      ['R2', 3],
    ],
  },
  {
    name: 'R2: fetch and curl without timeouts',
    path: 'scripts/n.sh',
    text: 'curl -s https://api.example.com/a\nwget https://api.example.com/b.zip\n',
    options: { hosts: ['api.example.com'] },
    expect: [
      ['R2', 1],
      ['R2', 2],
    ],
  },
  {
    name: 'no R2: timeouts set per call or globally',
    path: 'scripts/ok.py',
    text: 'import requests, urllib.request\nrequests.get("https://api.example.com/a", timeout=10)\nurllib.request.urlopen("https://api.example.com/b", timeout=5)\n',
    absent: ['R2'],
  },
  {
    name: 'no R2: fetch with AbortSignal, curl --max-time, wget -T',
    path: 'scripts/ok.sh',
    text: 'curl -s --connect-timeout 5 https://api.example.com/a\nwget -T 30 https://api.example.com/b.zip\n',
    absent: ['R2'],
  },
  {
    name: 'R3: while True around a request with no exit',
    path: 'scripts/poll.py',
    text: 'import time, requests\nwhile True:\n    r = requests.get("https://api.example.com/s", timeout=5)\n    time.sleep(5)\n',
    expect: [['R3', 2]],
  },
  {
    name: 'R3: until curl retry loop and for(;;) fetch',
    path: 'scripts/wait.sh',
    text: 'until curl -sf -m 5 https://api.example.com/health; do\n  sleep 2\ndone\n',
    expect: [['R3', 1]],
  },
  {
    name: 'R3: javascript for(;;) around fetch',
    path: 'scripts/poll.js',
    text: "for (;;) {\n  await fetch('https://api.example.com/s', { signal: AbortSignal.timeout(5000) });\n  await new Promise((r) => setTimeout(r, 1000));\n}\n",
    expect: [['R3', 1]],
  },
  {
    name: 'R3: retry loops that leave only on success',
    path: 'scripts/dl.py',
    text: 'import time, urllib.request\ndef download(url, dest):\n    while True:\n        try:\n            urllib.request.urlretrieve(url, dest)\n            return\n        except OSError:\n            time.sleep(5)\n',
    expect: [['R3', 3]],
  },
  {
    name: 'R3: javascript polling until the response is OK',
    path: 'scripts/get.js',
    text: 'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\nasync function getPage(u) {\n  for (;;) {\n    const res = await fetch(u, { signal: AbortSignal.timeout(5000) });\n    if (res.ok) return res.text();\n    await sleep(1000);\n  }\n}\n',
    expect: [['R3', 3]],
  },
  {
    name: 'no R3: bounded retries and loops with break',
    path: 'scripts/ok.py',
    text: 'import time, requests\nfor attempt in range(5):\n    try:\n        requests.get("https://api.example.com", timeout=5)\n        break\n    except requests.RequestException:\n        time.sleep(2 ** attempt)\nwhile True:\n    line = input()\n    if line == "q":\n        break\n',
    absent: ['R3'],
  },
  {
    name: 'R4: bare except pass and except Exception pass',
    path: 'scripts/e.py',
    text: 'try:\n    risky()\nexcept:\n    pass\ntry:\n    other()\nexcept Exception:\n    pass\n',
    expect: [
      ['R4', 3],
      ['R4', 7],
    ],
  },
  {
    name: 'R4: empty catch in javascript and .catch(() => {})',
    path: 'scripts/e.js',
    text: 'try { run(); } catch (e) {}\nload().catch(() => {});\n',
    expect: [
      ['R4', 1],
      ['R4', 2],
    ],
  },
  {
    name: 'R4: rm -rf on a possibly empty variable and || true after destructive command',
    path: 'scripts/clean.sh',
    text: 'rm -rf "$BUILD_DIR/"\nrm -rf $CACHE/*\ngit reset --hard origin/main || true\n',
    expect: [
      ['R4', 1],
      ['R4', 2],
      ['R4', 3],
    ],
  },
  {
    name: 'R4: set -u does not protect a variable a failing command leaves empty',
    path: 'scripts/clean2.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell fixture text, not a template
    text: 'set -euo pipefail\nCACHE=$(docker info --format "{{.DockerRootDir}}" 2>/dev/null)\nrm -rf $CACHE/*\nrm -rf "${HOME:?}/.cache/x"\n',
    expect: [['R4', 3]],
  },
  {
    name: 'R4: promise errors swallowed by .catch(() => undefined)',
    path: 'scripts/t.js',
    text: "await fetch('https://api.example.com', { signal: AbortSignal.timeout(5000) }).catch(() => undefined);\n",
    expect: [['R4', 1]],
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and JS fixture text, not a template
    name: 'no R4: ${VAR:?} guard, specific exception handling, set -u',
    path: 'scripts/ok.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell and JS fixture text, not a template
    text: 'rm -rf "${BUILD_DIR:?}/"\nrm -rf "./dist/"\nmkdir -p out || true\n',
    absent: ['R4'],
  },
  {
    name: 'no R4: handled exceptions in python',
    path: 'scripts/ok.py',
    text: 'try:\n    x = int(v)\nexcept ValueError:\n    x = 0\ntry:\n    risky()\nexcept Exception as exc:\n    log.warning("failed: %s", exc)\n',
    absent: ['R4'],
  },
  {
    name: 'R5: mktemp without cleanup, background job never waited',
    path: 'scripts/t.sh',
    text: 'T=$(mktemp)\necho hi > "$T"\npython3 server.py &\necho started\n',
    expect: [
      ['R5', 1],
      ['R5', 3],
    ],
  },
  {
    name: 'R5: python mkstemp/NamedTemporaryFile(delete=False) never removed, handle never closed',
    path: 'scripts/t.py',
    text: 'import tempfile\nfd, path = tempfile.mkstemp()\ntmp = tempfile.NamedTemporaryFile(delete=False)\nlog = open("run.log", "a")\nlog.write("x")\n',
    expect: [
      ['R5', 2],
      ['R5', 3],
      ['R5', 4],
    ],
  },
  {
    name: 'no R5: trap cleanup, waited jobs, with blocks',
    path: 'scripts/ok.sh',
    text: 'T=$(mktemp)\ntrap \'rm -f "$T"\' EXIT\nsleep 1 &\nwait\n',
    absent: ['R5'],
  },
  {
    name: 'no R5: python cleanup',
    path: 'scripts/ok.py',
    text: 'import os, tempfile\nfd, path = tempfile.mkstemp()\ntry:\n    os.write(fd, b"x")\nfinally:\n    os.close(fd)\n    os.unlink(path)\nwith open("a.txt") as f:\n    print(f.read())\n',
    absent: ['R5'],
  },
];

describe('robustness rules (R1-R5)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await check(c);
  });
});
