import { describe, expect, it } from 'vitest';
import {
  type Access,
  ownerOf,
  parseTenants,
  readScope,
  viewerOf,
  visible,
} from '../../../src/server/tenancy.js';
import type { AuditRow } from '../../../src/store/audits.js';

const ADMIN = 'admin-token-0123456789';
const ACME = 'acme-token-0123456789';
const access: Access = { token: ADMIN, tenants: [{ name: 'acme', token: ACME }], public: false };

describe('tenancy', () => {
  it('knows a token as the admin, a tenant or nobody; without authentication everyone is the admin', () => {
    expect(viewerOf(ADMIN, access)).toEqual({ role: 'admin' });
    expect(viewerOf(ACME, access)).toEqual({ role: 'tenant', name: 'acme' });
    expect(viewerOf('nope', access)).toEqual({ role: 'anonymous' });
    expect(viewerOf(null, access)).toEqual({ role: 'anonymous' });
    expect(viewerOf(null, { ...access, token: null })).toEqual({ role: 'admin' });
  });

  it('scopes reads: all for the admin and a public service, own for a tenant, none for nobody', () => {
    expect(readScope({ role: 'admin' }, access)).toBeUndefined();
    expect(readScope({ role: 'tenant', name: 'acme' }, access)).toBe('acme');
    expect(() => readScope({ role: 'anonymous' }, access)).toThrow(/needs a token/);
    expect(readScope({ role: 'anonymous' }, { ...access, public: true })).toBeUndefined();
    const row = { tenant: 'globex' } as AuditRow;
    expect(visible(row, 'acme')).toBe(false);
    expect(visible(row, 'globex')).toBe(true);
    expect(visible(row, undefined)).toBe(true);
  });

  it('records the owner of a submission', () => {
    expect(ownerOf({ role: 'tenant', name: 'acme' }, access)).toBe('acme');
    expect(ownerOf({ role: 'admin' }, access)).toBe('admin');
    expect(ownerOf({ role: 'admin' }, { ...access, token: null })).toBeNull();
  });

  it('reads a tenants file and names the line it cannot use', () => {
    expect(parseTenants(`# tenants\nacme ${ACME}\n\nglobex  ${ACME}x # second\n`, 16)).toEqual([
      { name: 'acme', token: ACME },
      { name: 'globex', token: `${ACME}x` },
    ]);
    expect(() => parseTenants('acme short', 16)).toThrow(/line 1: the token must be at least 16/);
    expect(() => parseTenants(`acme ${ACME}\nacme ${ACME}`, 16)).toThrow(
      /line 2: tenant acme is listed twice/,
    );
    expect(() => parseTenants(`admin ${ACME}`, 16)).toThrow(/not "admin"/);
    expect(() => parseTenants('acme', 16)).toThrow(/expected "<name> <token>"/);
  });
});
