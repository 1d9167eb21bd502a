import { describe, expect, it } from 'vitest';
import {
  BadResponse,
  parseAudit,
  parseErrorBody,
  parseLookup,
  reportHref,
} from '../../../extension/lib/audit.js';
import { hostPermissionPattern, InvalidServerUrl, serverOrigin } from '../../../extension/lib/server-url.js';

// What the extension accepts from the server: field checks, same-origin report links, bounded text.

const ORIGIN = 'http://127.0.0.1:8787';

describe('parseAudit', () => {
  it('keeps the contract fields and makes the report link absolute on the server', () => {
    const audit = parseAudit(
      {
        id: 'a1',
        status: 'done',
        source: 'https://github.com/acme/skills/tree/main/x',
        createdAt: '2026-01-01T00:00:00Z',
        finishedAt: '2026-01-01T00:02:00Z',
        commit: 'FCCB81A0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6',
        verdict: {
          status: 'caution',
          rating: 51.6,
          reason: 'caution because: excessive permissions (SKILL.md:4)',
          safetyScore: 71.6,
          advice: '<b>not shown</b>',
        },
        reportUrl: '/audits/a1',
      },
      ORIGIN,
    );
    expect(audit).toEqual({
      id: 'a1',
      status: 'done',
      source: 'https://github.com/acme/skills/tree/main/x',
      commit: 'fccb81a0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6',
      finishedAt: '2026-01-01T00:02:00.000Z',
      verdict: {
        status: 'caution',
        rating: 52,
        reason: 'caution because: excessive permissions (SKILL.md:4)',
      },
      reportHref: 'http://127.0.0.1:8787/audits/a1',
    });
  });

  it('drops a rating outside 0-100 and keeps the verdict', () => {
    const audit = parseAudit(
      { id: 'a', status: 'done', verdict: { status: 'risky', rating: 900, reason: '' } },
      ORIGIN,
    );
    expect(audit.verdict).toEqual({ status: 'risky' });
  });

  it('refuses answers without an id or with an unknown status', () => {
    expect(() => parseAudit({ status: 'done' }, ORIGIN)).toThrow(BadResponse);
    expect(() => parseAudit({ id: 'a', status: 'pwned' }, ORIGIN)).toThrow(BadResponse);
    expect(() => parseAudit('<html>', ORIGIN)).toThrow(BadResponse);
  });

  it('drops a verdict that does not follow the contract instead of showing half of it', () => {
    const audit = parseAudit(
      { id: 'a', status: 'done', verdict: { status: 'great', safetyScore: 99 } },
      ORIGIN,
    );
    expect(audit.verdict).toBeUndefined();
  });

  it('drops a commit that is not a sha and a time that is not a date, which the badge would show as fact', () => {
    const audit = parseAudit(
      { id: 'a', status: 'done', commit: 'main; rm -rf', finishedAt: 'yesterday', source: 42 },
      ORIGIN,
    );
    expect(audit).toEqual({ id: 'a', status: 'done' });
  });

  it('keeps at most 300 characters of any text', () => {
    const audit = parseAudit(
      { id: 'a', status: 'failed', error: { code: 'X', message: 'm'.repeat(10_000) } },
      ORIGIN,
    );
    expect(audit.error?.message).toHaveLength(300);
  });
});

describe('reportHref', () => {
  it('accepts paths and absolute URLs on the server origin only', () => {
    expect(reportHref('/audits/x', ORIGIN)).toBe('http://127.0.0.1:8787/audits/x');
    expect(reportHref('http://127.0.0.1:8787/audits/x', ORIGIN)).toBe('http://127.0.0.1:8787/audits/x');
    expect(reportHref('https://evil.example/audits/x', ORIGIN)).toBeUndefined();
    expect(reportHref('//evil.example/audits/x', ORIGIN)).toBeUndefined();
    expect(reportHref('javascript:alert(1)', ORIGIN)).toBeUndefined();
    expect(reportHref(42, ORIGIN)).toBeUndefined();
  });
});

it('parseLookup tells found from not found and refuses anything else', () => {
  expect(parseLookup({ found: false }, ORIGIN)).toEqual({ found: false });
  expect(parseLookup({ found: true, audit: { id: 'a', status: 'queued' } }, ORIGIN)).toEqual({
    found: true,
    audit: { id: 'a', status: 'queued' },
  });
  expect(() => parseLookup({ found: 'yes' }, ORIGIN)).toThrow(BadResponse);
  const commit = 'ABCDEF0123456789abcdef0123456789abcdef01';
  const audit = { id: 'a', status: 'done' };
  expect(parseLookup({ found: true, audit, pageCommit: commit }, ORIGIN)).toEqual({
    found: true,
    audit,
    pageCommit: commit.toLowerCase(),
  });
  // Anything but a hash is dropped, not shown: the server is a remote party.
  expect(parseLookup({ found: true, audit, pageCommit: '<b>main</b>' }, ORIGIN)).toEqual({
    found: true,
    audit,
  });
});

it('parseErrorBody reads the API error shape', () => {
  expect(parseErrorBody({ error: { code: 'RATE_LIMITED', message: 'slow down' } })).toEqual({
    code: 'RATE_LIMITED',
    message: 'slow down',
  });
  expect(parseErrorBody('Internal Server Error')).toBeUndefined();
});

describe('server URL', () => {
  it('keeps the origin only', () => {
    expect(serverOrigin(' http://127.0.0.1:8787/ ')).toBe('http://127.0.0.1:8787');
    expect(serverOrigin('https://audit.example.com/some/path?q=1')).toBe('https://audit.example.com');
  });

  it('refuses other schemes, credentials and non-URLs', () => {
    for (const input of [
      'ftp://x.example',
      'javascript:alert(1)',
      'https://user:pw@x.example',
      'x.example',
      '',
    ]) {
      expect(() => serverOrigin(input), input).toThrow(InvalidServerUrl);
    }
  });

  it('takes http only on loopback, where the token never crosses a network', () => {
    expect(serverOrigin('http://localhost:8787')).toBe('http://localhost:8787');
    expect(serverOrigin('http://[::1]:8787')).toBe('http://[::1]:8787');
    for (const input of [
      'http://audit.example.com',
      'http://192.168.1.5:8787',
      'http://127.0.0.1.example.com',
    ]) {
      expect(() => serverOrigin(input), input).toThrow(/https/);
    }
  });

  it('asks for one host (any port: match patterns cannot name one)', () => {
    expect(hostPermissionPattern('http://127.0.0.1:8787')).toBe('http://127.0.0.1/*');
    expect(hostPermissionPattern('https://audit.example.com')).toBe('https://audit.example.com/*');
  });
});
