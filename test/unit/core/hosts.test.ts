import { describe, expect, it } from 'vitest';
import { isDeclared, registeredLabel, registrableDomain } from '../../../src/core/hosts.js';

// One reading of host names for every stage, on the Public Suffix List instead of a guess at suffixes.

describe('registrableDomain (who controls a host)', () => {
  it.each([
    ['api.notion.co.uk', 'notion.co.uk'],
    ['api.x.ai', 'x.ai'],
    ['a.b.web.app', 'b.web.app'],
    ['x.github.io', 'x.github.io'],
    ['203.0.113.5', '203.0.113.5'],
    ['Example.COM.', 'example.com'],
  ])('%s → %s', (host, site) => {
    expect(registrableDomain(host)).toBe(site);
  });

  it('keeps two projects on a publishing platform apart, and one vendor’s hosts together', () => {
    // The old guess took x.ai for a suffix like co.uk, and github.io for one site.
    expect(isDeclared('api.x.ai', new Set(['docs.x.ai']))).toBe(true);
    expect(isDeclared('evil.github.io', new Set(['docs-site.github.io']))).toBe(false);
  });
});

describe('isDeclared (the one test of a host the skill declares, for scan and detonation)', () => {
  it('takes a sibling host of a declared site, a port, a trailing dot and the machine itself', () => {
    expect(isDeclared('uploads.acme.io:443', ['api.acme.io'])).toBe(true);
    expect(isDeclared('API.acme.io.', ['api.acme.io'])).toBe(true);
    expect(isDeclared('localhost', [])).toBe(true);
    expect(isDeclared('127.0.0.1', [])).toBe(true);
  });

  it('does not take a look-alike site or a different address', () => {
    expect(isDeclared('acme.io.evil.net', ['api.acme.io'])).toBe(false);
    expect(isDeclared('acme-io.net', ['acme.io'])).toBe(false);
    expect(isDeclared('203.0.113.7', ['203.0.113.8'])).toBe(false);
  });
});

describe('registeredLabel (the organisation at the registry)', () => {
  it.each([
    ['api.notion.co.uk', 'notion'],
    ['notion.web.app', 'web'],
    ['TARGET', ''],
    ['198.51.100.9', ''],
  ])('%s → %j', (host, label) => {
    expect(registeredLabel(host)).toBe(label);
  });
});
