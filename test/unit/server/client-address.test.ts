import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from '../../../src/server/client-address.js';

describe('client address', () => {
  it('uses the peer unless the proxy is trusted, then the right-most forwarded entry', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.7', false)).toBe('10.0.0.2');
    // A client-supplied first entry is ignored: the proxy appended the last one.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.7', true)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', undefined, true)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'garbage', true)).toBe('10.0.0.2');
  });

  it('keys IPv6 clients by their /64 and IPv4 ones by address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::ffff:192.0.2.9')).toBe('192.0.2.9');
    expect(addressKey('192.0.2.9')).toBe('192.0.2.9');
  });
});
