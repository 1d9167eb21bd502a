import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEY, startModelBridge } from '../../../src/agents/model-bridge.js';

function post(
  socketPath: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath, path, method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end('{"q":1}');
  });
}

describe('model bridge (unix socket → upstream HTTP)', () => {
  it('forwards path, body and streamed reply, and swaps the placeholder key for the real one', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setTimeout(() => res.end('data: two\n\n'), 20);
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const socketPath = join(dir, 'model.sock');
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const bridge = await startModelBridge({ socketPath, upstream: base, apiKey: 'sk-real' });
    try {
      expect(statSync(socketPath).mode & 0o777).toBe(0o666);
      const a = await post(socketPath, '/v1/messages?beta=true', {
        'x-api-key': PLACEHOLDER_KEY,
        'content-type': 'application/json',
      });
      const b = await post(socketPath, '/v1/responses', { authorization: `Bearer ${PLACEHOLDER_KEY}` });
      expect(a).toEqual({ status: 200, body: 'data: one\n\ndata: two\n\n' });
      expect(b.status).toBe(200);
      expect(seen.map((s) => s.url)).toEqual(['/v1/messages?beta=true', '/v1/responses']);
      expect(seen[0]?.headers['x-api-key']).toBe('sk-real');
      expect(seen[0]?.headers.authorization).toBeUndefined();
      expect(seen[1]?.headers.authorization).toBe('Bearer sk-real');
      expect(seen[0]?.body).toBe('{"q":1}');
      expect(bridge.forwarded).toBe(2);
    } finally {
      await bridge.close();
      upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 502 with a JSON error when the endpoint is unreachable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-'));
    const socketPath = join(dir, 'model.sock');
    const bridge = await startModelBridge({ socketPath, upstream: 'http://127.0.0.1:1/v1', apiKey: 'k' });
    try {
      const reply = await post(socketPath, '/v1/messages', {});
      expect(reply.status).toBe(502);
      expect(JSON.parse(reply.body).error.type).toBe('bridge_error');
    } finally {
      await bridge.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
