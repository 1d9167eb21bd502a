import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// R2 for transfer and remote-shell tools: rsync, scp, ssh and network git wait on a silent peer indefinitely
// unless given their own timeout option or run under `timeout N`. Local copies and clones stay quiet.

const cases: Case[] = [
  {
    name: 'R2: rsync to a user@host destination taken from the first argument',
    path: 'scripts/publish.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: '#!/usr/bin/env bash\nset -euo pipefail\nDEST="${1:?usage: mirror.sh user@host:/srv/site}"\nnpm run build\nrsync -az --delete dist/ "$DEST"\necho "published"\n',
    expect: [['R2', 5]],
  },
  {
    name: 'R2: scp and ssh to a log host with no ConnectTimeout',
    path: 'scripts/logs.sh',
    text: '#!/bin/sh\nHOST=logs.internal.example.org\nscp "ops@$HOST:/var/log/app/*.log" ./logs/\nssh ops@$HOST \'journalctl -u app --since today\' > today.txt\n',
    expect: [
      ['R2', 3],
      ['R2', 4],
    ],
  },
  {
    name: 'R2: git clone and fetch of a remote repository',
    path: 'scripts/vendor.sh',
    text: '#!/usr/bin/env bash\nset -e\ngit clone --depth 1 https://github.com/example-org/templates.git .vendor/templates\ngit -C .vendor/templates fetch --tags\n',
    expect: [
      ['R2', 3],
      ['R2', 4],
    ],
  },
  {
    name: 'R2: rsync run by subprocess without timeout=, but not the git clone that has one',
    path: 'scripts/sync.py',
    text: 'import subprocess\n\nsubprocess.run(["rsync", "-az", "out/", "backup@store.example.net:/data/"], check=True)\nsubprocess.run(["git", "clone", "https://github.com/example-org/x.git"], check=True, timeout=300)\n',
    expect: [['R2', 3]],
  },
  {
    name: 'no R2: --timeout, ConnectTimeout, a timeout wrapper, lowSpeed options and local copies',
    path: 'scripts/ok.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: fixture text, not a template
    text: '#!/usr/bin/env bash\nset -euo pipefail\nDEST="${1:?usage: okmirror.sh user@host:/srv/site}"\nrsync -az --timeout=60 dist/ "$DEST"\nscp -o ConnectTimeout=10 report.pdf "$DEST"\nssh -o ConnectTimeout=10 -o BatchMode=yes deploy@web.example.org \'systemctl reload site\'\ntimeout 120 git clone https://github.com/example-org/templates.git .vendor/t\nrsync -a ./build/ ./public/\ngit clone ./templates ./copy\ngit -c http.lowSpeedLimit=1000 -c http.lowSpeedTime=30 fetch origin\n',
    absent: ['R2'],
  },
];

describe('R2: rsync, scp, ssh and git without a timeout', () => {
  for (const c of cases) it(c.name, () => check(c));
});
