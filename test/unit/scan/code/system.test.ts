import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const cases: Case[] = [
  {
    name: 'E3: os.walk over the home directory',
    path: 'scripts/index.py',
    text: 'import os\nfor root, dirs, files in os.walk(os.path.expanduser("~")):\n    print(root)\n',
    expect: [['E3', 2]],
  },
  {
    name: 'E3: recursive glob under home, Path.home().rglob, find /',
    path: 'scripts/f.py',
    text: 'import glob, os\nfrom pathlib import Path\nkeys = glob.glob(os.path.expanduser("~/**/*.pem"), recursive=True)\nfiles = list(Path.home().rglob("*.env"))\n',
    expect: [
      ['E3', 3],
      ['E3', 4],
    ],
  },
  {
    name: 'E3: find over / and readdir of the home directory in javascript',
    path: 'scripts/f.sh',
    text: 'find / -name "*.kdbx" 2>/dev/null\nls -laR "$HOME"\n',
    expect: [
      ['E3', 1],
      ['E3', 2],
    ],
  },
  {
    name: 'E3: javascript walks os.homedir()',
    path: 'scripts/w.js',
    text: "const fs = require('fs');\nconst os = require('os');\nfor (const f of fs.readdirSync(os.homedir(), { recursive: true })) console.log(f);\n",
    expect: [['E3', 3]],
  },
  {
    name: 'no E3: walking the workspace, the skill folder or a subfolder of home',
    path: 'scripts/ok.py',
    text: 'import os, glob\nfor root, _, files in os.walk("."):\n    pass\nglob.glob("data/**/*.csv", recursive=True)\nos.listdir(os.path.expanduser("~/Documents/invoices"))\n',
    absent: ['E3'],
  },
  {
    name: 'PE1: chmod 777 in bash, python 0o777, node 0o666',
    path: 'scripts/p.sh',
    text: 'chmod -R 777 /opt/app\nchmod a+rwx run.sh\n',
    expect: [
      ['PE1', 1],
      ['PE1', 2],
    ],
  },
  {
    name: 'PE1: python and javascript world-writable modes',
    path: 'scripts/p.py',
    text: 'import os, stat\nos.chmod("out", 0o777)\nos.chmod("x", stat.S_IRWXU | stat.S_IRWXO)\n',
    expect: [
      ['PE1', 2],
      ['PE1', 3],
    ],
  },
  {
    name: 'no PE1: ordinary modes',
    path: 'scripts/ok.sh',
    text: 'chmod +x run.sh\nchmod 755 bin/tool\nchmod 600 ~/.config/app/token\nchmod u+x a.sh\n',
    absent: ['PE1', 'PE2'],
  },
  {
    name: 'PE2: sudo, setuid bit, writes to /etc and /usr/local/bin, service enable',
    path: 'scripts/i.sh',
    text: 'sudo apt-get install -y jq\nchmod u+s /tmp/helper\necho "127.0.0.1 x" >> /etc/hosts\ncp tool /usr/local/bin/tool\nsystemctl enable agent.service\n',
    expect: [
      ['PE2', 1],
      ['PE2', 2],
      ['PE2', 3],
      ['PE2', 4],
      ['PE2', 5],
    ],
  },
  {
    name: 'PE2: python runs sudo through subprocess and writes /etc',
    path: 'scripts/i.py',
    text: 'import subprocess\nsubprocess.run(["sudo", "tee", "/etc/sudoers.d/agent"], input=b"x")\nwith open("/etc/cron.d/job", "w") as f:\n    f.write("* * * * * root /tmp/x")\n',
    expect: [
      ['PE2', 2],
      ['PE2', 3],
    ],
  },
  {
    name: 'PE2: powershell elevation',
    path: 'scripts/i.ps1',
    text: 'Start-Process powershell -Verb RunAs -ArgumentList "-File setup.ps1"\n',
    expect: [['PE2', 1]],
  },
  {
    name: 'PE2: Gatekeeper bypass for a downloaded binary',
    path: 'scripts/run.sh',
    text: 'xattr -d com.apple.quarantine ./helper\nspctl --master-disable\n',
    expect: [
      ['PE2', 1],
      ['PE2', 2],
    ],
  },
  {
    name: 'no PE2: writing in the workspace, mentioning sudo in a message',
    path: 'scripts/ok2.sh',
    text: 'echo "If this fails, run: sudo make install"\ncp build/out.txt ./dist/\nmkdir -p "$HOME/.cache/skill"\n',
    absent: ['PE2'],
  },
];

describe('file system and privilege rules (E3, PE1, PE2)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await check(c);
  });
});
