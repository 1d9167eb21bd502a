import { describe, expect, it } from 'vitest';
import { registeredLabel, registrableDomain } from '../../../src/core/hosts.js';
import { isDeclared } from '../../../src/scan/code/network.js';

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
