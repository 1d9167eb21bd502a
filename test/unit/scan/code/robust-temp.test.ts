import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R5 files and folders created under the shared temp directory and never removed: combined download flags,
// folders, python and node writers, and paths held in a variable built from the temp directory. Cleanup by
// trap, rm, finally/Remove-Item or a temporary-directory context manager stays quiet.

const cases: Case[] = [
  {
    name: 'R5: wget -qO into a hidden /tmp file that is then run',
    path: 'scripts/fmt.sh',
    text: '#!/usr/bin/env bash\nset -euo pipefail\nwget -qO /tmp/.fmt-helper https://tools.example.org/fmt/install\nchmod +x /tmp/.fmt-helper\n/tmp/.fmt-helper --prefix "$HOME/.local"\n',
    expect: [['R5', 3]],
  },
  {
    name: 'R5: curl -fsSLo a tarball into /tmp and unpack it',
    path: 'scripts/lint.sh',
    text: '#!/bin/sh\ncurl -fsSLo /tmp/lint.tgz https://dl.example.org/lint-1.4.2.tgz --max-time 60\ntar xzf /tmp/lint.tgz -C "$HOME/bin"\n',
    expect: [['R5', 2]],
  },
  {
    name: 'R5: redirect into a /tmp path held in a variable',
    path: 'scripts/weekly.sh',
    text: '#!/usr/bin/env bash\nOUT=/tmp/weekly-report.csv\npsql -At -c "select * from weekly" > "$OUT"\nmail -s "weekly" team@example.org < "$OUT"\n',
    expect: [['R5', 3]],
  },
  {
    name: 'R5: python urlretrieve to a fixed /tmp name',
    path: 'scripts/boot.py',
    text: 'import subprocess\nimport urllib.request\n\nurllib.request.urlretrieve("https://pkgs.example.org/bootstrap.py", "/tmp/bootstrap.py")\nsubprocess.run(["python3", "/tmp/bootstrap.py"], check=True, timeout=600)\n',
    expect: [['R5', 4]],
  },
  {
    name: "R5: python Path('/tmp/\u2026').write_text",
    path: 'scripts/dump.py',
    text: 'import json\nfrom pathlib import Path\n\nrows = [{"a": 1}]\nPath("/tmp/expenses-latest.json").write_text(json.dumps(rows))\n',
    expect: [['R5', 5]],
  },
  {
    name: 'R5: node writes a fixed name under os.tmpdir()',
    path: 'scripts/cache.mjs',
    text: "import fs from 'node:fs';\nimport os from 'node:os';\nimport path from 'node:path';\n\nconst cacheFile = path.join(os.tmpdir(), 'changelog-cache.json');\nfs.writeFileSync(cacheFile, JSON.stringify({ at: Date.now() }));\n",
    expect: [['R5', 6]],
  },
  {
    name: 'R5: PowerShell folder under $env:TEMP via Join-Path, never removed',
    path: 'scripts/Build-Deck.ps1',
    text: "$work = Join-Path $env:TEMP 'deck-build'\nNew-Item -ItemType Directory -Path $work -Force | Out-Null\nCopy-Item .\\slides\\*.md $work\npandoc (Join-Path $work 'deck.md') -o deck.pptx\n",
    expect: [['R5', 2]],
  },
  {
    name: 'R5: PowerShell New-Item directory with a literal $env:TMP path',
    path: 'scripts/Export-Data.ps1',
    text: '$stage = New-Item -ItemType Directory -Path "$env:TMP\\export-stage"\nGet-Process | Export-Csv (Join-Path $stage \'procs.csv\')\nCompress-Archive -Path $stage -DestinationPath .\\procs.zip\n',
    expect: [['R5', 1]],
  },
  {
    name: 'no R5: PowerShell temp folder removed in finally',
    path: 'scripts/Ok-Build.ps1',
    text: '$work = Join-Path ([System.IO.Path]::GetTempPath()) ([System.Guid]::NewGuid().ToString())\nNew-Item -ItemType Directory -Path $work | Out-Null\ntry {\n    Copy-Item .\\slides\\*.md $work\n} finally {\n    Remove-Item -Recurse -Force $work\n}\n',
    absent: ['R5'],
  },
  {
    name: 'no R5: mktemp with trap, and a /tmp file removed after use',
    path: 'scripts/ok.sh',
    text: '#!/usr/bin/env bash\nset -euo pipefail\ntmp="$(mktemp -d)"\ntrap \'rm -rf "$tmp"\' EXIT\ncurl -fsSLo "$tmp/lint.tgz" https://dl.example.org/lint-1.4.2.tgz --max-time 60\nwget -qO /tmp/lint.sha256 https://dl.example.org/lint-1.4.2.sha256 --timeout=30\nsha256sum -c /tmp/lint.sha256\nrm -f /tmp/lint.sha256\n',
    absent: ['R5'],
  },
  {
    name: 'no R5: python TemporaryDirectory context manager',
    path: 'scripts/ok.py',
    text: 'import tempfile\nimport urllib.request\nfrom pathlib import Path\n\nwith tempfile.TemporaryDirectory() as d:\n    target = Path(d) / "bootstrap.py"\n    urllib.request.urlretrieve("https://pkgs.example.org/bootstrap.py", target)\n    print(target.read_text()[:80])\n',
    absent: ['R5'],
  },
  {
    name: 'R5: python runs a shell string that downloads to a fixed /tmp name and never removes it',
    path: 'scripts/bootstrap.py',
    text: 'import subprocess\n\n\ndef bootstrap():\n    subprocess.run(\n        "curl -fsS --max-time 30 https://get.example.dev/setup.sh -o /tmp/setup-tool.sh && sh /tmp/setup-tool.sh",\n        shell=True,\n        check=True,\n        timeout=120,\n    )\n',
    expect: [['R5', 5]],
  },
  {
    name: 'R5: node execSync string downloads a tarball into /tmp',
    path: 'scripts/fonts.js',
    text: "const { execSync } = require('node:child_process');\n\nexecSync('wget -q --timeout=30 -O /tmp/fonts.tar.gz https://cdn.example.dev/fonts.tar.gz && tar xzf /tmp/fonts.tar.gz -C assets');\n",
    expect: [['R5', 3]],
  },
  {
    name: 'no R5: the shell string removes its download',
    path: 'scripts/ok-bootstrap.py',
    text: 'import subprocess\n\nsubprocess.run(\n    "curl -fsS --max-time 30 https://get.example.dev/setup.sh -o /tmp/setup-tool.sh && sh /tmp/setup-tool.sh; rm -f /tmp/setup-tool.sh",\n    shell=True,\n    check=True,\n    timeout=120,\n)\n',
    absent: ['R5'],
  },
  {
    name: 'R5: PowerShell New-Item with the temp folder as a positional after -Force -ItemType',
    path: 'scripts/Thumbs.ps1',
    text: "$cache = Join-Path $env:TMP 'thumbs'\nNew-Item -Force -ItemType Directory $cache | Out-Null\nCopy-Item .\\images\\*.png $cache\nGet-ChildItem $cache | ForEach-Object { magick $_.FullName -resize 64x64 $_.FullName }\n",
    expect: [['R5', 2]],
  },
  {
    name: 'no R5: PowerShell temp folder removed at the end',
    path: 'scripts/Ok-Thumbs.ps1',
    text: "$cache = Join-Path $env:TMP 'thumbs'\nNew-Item -Force -ItemType Directory $cache | Out-Null\nCopy-Item .\\images\\*.png $cache\nRemove-Item $cache -Recurse -Force\n",
    absent: ['R5'],
  },
];

describe('R5: temp files and folders left behind', () => {
  for (const c of cases) it(c.name, () => check(c));
});
