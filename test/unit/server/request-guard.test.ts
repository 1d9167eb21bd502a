import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/api-error.js';
import {
  DEFAULT_ALLOWED_ORIGINS,
  isLoopbackHostHeader,
  isLoopbackListen,
  originAllowed,
  requestGuard,
} from '../../../src/server/request-guard.js';

/** A one-route app behind the guard: the status a POST with these headers gets. */
async function postStatus(headers: Record<string, string>): Promise<number> {
  const app = new Hono();
  app.use('*', requestGuard({ allowedOrigins: DEFAULT_ALLOWED_ORIGINS, loopbackOnly: false }));
  app.onError((e, c) => c.text(e.message, e instanceof ApiError ? e.status : 500));
  app.post('/submit', (c) => c.text('ok'));
  const response = await app.request('http://audit.example/submit', { method: 'POST', headers });
  return response.status;
}

describe('request guard', () => {
  it('allows the extension origins by default and no web origin', () => {
    expect(originAllowed('chrome-extension://abcdefghijklmnop', DEFAULT_ALLOWED_ORIGINS)).toBe(true);
    for (const origin of ['https://evil.example', 'null', 'chrome-extension://', 'http://127.0.0.1:8787']) {
      expect(originAllowed(origin, DEFAULT_ALLOWED_ORIGINS), origin).toBe(false);
    }
    expect(originAllowed('chrome-extension://abc', ['chrome-extension://def'])).toBe(false);
    expect(originAllowed('chrome-extension://def', ['chrome-extension://def'])).toBe(true);
  });

  it('accepts only loopback names in the Host header', () => {
    for (const host of [
      '127.0.0.1:8787',
      'localhost',
      'LOCALHOST:1',
      '[::1]:8787',
      'app.localhost',
      '127.1.2.3',
    ]) {
      expect(isLoopbackHostHeader(host), host).toBe(true);
    }
    for (const host of ['evil.example:8787', '', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1']) {
      expect(isLoopbackHostHeader(host), host).toBe(false);
    }
    expect(isLoopbackListen('127.0.0.1')).toBe(true);
    expect(isLoopbackListen('0.0.0.0')).toBe(false);
  });

  it("lets the service's own pages post and refuses other sites", async () => {
    expect(await postStatus({ Host: 'audit.example', Origin: 'https://audit.example' })).toBe(200);
    expect(await postStatus({ Host: 'audit.example', Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).toBe(
      200,
    );
    expect(await postStatus({ Host: 'audit.example', Origin: 'https://evil.example' })).toBe(403);
    expect(await postStatus({ Host: 'audit.example', Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).toBe(
      403,
    );
    expect(await postStatus({ Host: 'audit.example', Origin: 'https://audit.example.evil.example' })).toBe(
      403,
    );
  });
});
