import { isIPv4, isIPv6 } from 'node:net';
import { ipv6Bytes } from './address-class.js';

// Which client a request is charged to for rate limiting. Behind a reverse proxy (`--trust-proxy`) the peer
// is the proxy; the client is the right-most X-Forwarded-For entry, the one the proxy itself appended (the
// entries before it are whatever the client sent and can be forged). An IPv6 client usually holds a whole
// /64, so its key is the /64: otherwise it could rotate addresses to get fresh buckets.

/** The client's address: the peer, or with a trusted proxy the address the proxy forwarded. */
export function clientAddress(peer: string, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (!trustProxy || !forwardedFor) return peer;
  const last = forwardedFor.split(',').at(-1)?.trim() ?? '';
  return isIPv4(last) || isIPv6(last) ? last : peer;
}

/** The rate-limit key of an address: IPv4 as is (also when mapped into IPv6), IPv6 by its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const bytes = ipv6Bytes(address).slice(0, 8);
  const groups = [0, 2, 4, 6].map((i) => (((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}
