import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpResponse, SECOND_STAGE_MARKER } from '../../../src/sandbox/sink-payloads.js';
import { parseHttpHead } from '../../../src/sandbox/sink-protocols.js';

// The sink's answers: a download gets a marker of the kind asked for, which only creates an empty marker file
// when run by sh, bash, python3 or node, or unpacked and run; anything else gets JSON.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function answer(request: string): { type: string; body: Buffer } {
  const head = parseHttpHead(Buffer.from(`${request}\r\n\r\n`))!;
  const raw = httpResponse(head);
  const split = raw.indexOf('\r\n\r\n');
  const type = /content-type: ([^\r\n]+)/i.exec(raw.subarray(0, split).toString())![1]!;
  return { type, body: raw.subarray(split + 4) };
}

/** Runs `argv` with TMPDIR set to a fresh folder and returns the marker files it created. */
function markersAfter(argv: string[], input?: Buffer, cwd?: string): string[] {
  const tmp = mkdtempSync(join(tmpdir(), 'marker-'));
  dirs.push(tmp);
  execFileSync(argv[0]!, argv.slice(1), { input, cwd, env: { PATH: process.env.PATH, TMPDIR: tmp } });
  return readdirSync(tmp).filter((n) => n.startsWith(`${SECOND_STAGE_MARKER}-`));
}

describe('sink payloads', () => {
  it('a script download with no extension, fetched by curl, runs under sh, bash and python3', () => {
    const { body } = answer('GET /install HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8.5.0');
    expect(markersAfter(['sh'], body)).toHaveLength(1);
    expect(markersAfter(['bash', '-s'], body)).toHaveLength(1);
    expect(markersAfter(['python3', '-'], body)).toHaveLength(1);
    expect(body.toString()).toMatch(/^#!\/bin\/sh\n/);
  });

  it('a .js download runs under node, a .tar.gz holds an install.sh that runs', () => {
    const js = answer('GET /a/loader.js HTTP/1.1\r\nHost: x\r\nUser-Agent: node').body;
    expect(markersAfter([process.execPath, '-'], js)).toHaveLength(1);
    const tgz = answer('GET /r/tool-1.0.tar.gz HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8').body;
    const dir = mkdtempSync(join(tmpdir(), 'tgz-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.tar.gz'), tgz);
    execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
    expect(markersAfter(['./install.sh'], undefined, dir)).toHaveLength(1);
    // A source tarball unpacks to the folder its name says, where configure and make run the marker too.
    expect(markersAfter(['./configure'], undefined, join(dir, 'tool-1.0'))).toHaveLength(1);
    expect(markersAfter(['make', '-s'], undefined, join(dir, 'tool-1.0'))).toHaveLength(1);
  });

  it('an API call, an upload or a data file gets plausible JSON, never a script', () => {
    for (const request of [
      'GET /v1/forecast?lat=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: python-requests/2.31',
      'POST /collect HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8\r\nContent-Length: 0',
      'GET /data/prices.json HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8',
      'GET /x HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8\r\nAccept: application/json',
    ]) {
      const { type, body } = answer(request);
      expect(type).toBe('application/json');
      expect(JSON.parse(body.toString())).toBeTypeOf('object');
    }
  });
});
