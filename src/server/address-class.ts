import { isIPv4, isIPv6 } from 'node:net';

// Which IP addresses the service may make git connect to. A submitted URL is attacker-chosen, so anything
// that is not a public unicast address (loopback, private, link-local, unique-local, CGNAT, multicast,
// documentation, reserved) is refused, including IPv4 addresses hidden inside IPv6 forms (mapped, NAT64,
// 6to4). The ranges are data (RFC 6890 and the IANA special-purpose registries).

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared-cgnat'
  | 'multicast'
  | 'documentation'
  | 'reserved'
  | 'invalid';

interface Range {
  prefix: string;
  bits: number;
  kind: Exclude<AddressClass, 'public' | 'invalid'>;
}

const IPV4_RANGES: Range[] = [
  { prefix: '0.0.0.0', bits: 8, kind: 'unspecified' },
  { prefix: '10.0.0.0', bits: 8, kind: 'private' },
  { prefix: '100.64.0.0', bits: 10, kind: 'shared-cgnat' },
  { prefix: '127.0.0.0', bits: 8, kind: 'loopback' },
  { prefix: '169.254.0.0', bits: 16, kind: 'link-local' },
  { prefix: '172.16.0.0', bits: 12, kind: 'private' },
  { prefix: '192.0.0.0', bits: 24, kind: 'reserved' },
  { prefix: '192.0.2.0', bits: 24, kind: 'documentation' },
  { prefix: '192.88.99.0', bits: 24, kind: 'reserved' },
  { prefix: '192.168.0.0', bits: 16, kind: 'private' },
  { prefix: '198.18.0.0', bits: 15, kind: 'reserved' },
  { prefix: '198.51.100.0', bits: 24, kind: 'documentation' },
  { prefix: '203.0.113.0', bits: 24, kind: 'documentation' },
  { prefix: '224.0.0.0', bits: 4, kind: 'multicast' },
  { prefix: '240.0.0.0', bits: 4, kind: 'reserved' },
];

// IPv6 outside 2000::/3 (global unicast) is never public; these are the special ranges inside or beside it.
const IPV6_RANGES: Range[] = [
  { prefix: '::', bits: 128, kind: 'unspecified' },
  { prefix: '::1', bits: 128, kind: 'loopback' },
  { prefix: '64:ff9b:1::', bits: 48, kind: 'private' },
  { prefix: '100::', bits: 64, kind: 'reserved' },
  { prefix: '2001::', bits: 23, kind: 'reserved' },
  { prefix: '2001:db8::', bits: 32, kind: 'documentation' },
  { prefix: '3fff::', bits: 20, kind: 'documentation' },
  { prefix: 'fc00::', bits: 7, kind: 'unique-local' },
  { prefix: 'fe80::', bits: 10, kind: 'link-local' },
  { prefix: 'fec0::', bits: 10, kind: 'unique-local' },
  { prefix: 'ff00::', bits: 8, kind: 'multicast' },
];

// IPv6 forms that carry an IPv4 address: the embedded address decides. Byte offset of the IPv4 part.
const EMBEDDED_IPV4: { prefix: string; bits: number; offset: number }[] = [
  { prefix: '::ffff:0:0', bits: 96, offset: 12 }, // IPv4-mapped
  { prefix: '::', bits: 96, offset: 12 }, // IPv4-compatible (deprecated, still routed by some stacks)
  { prefix: '64:ff9b::', bits: 96, offset: 12 }, // NAT64 well-known prefix
  { prefix: '2002::', bits: 16, offset: 2 }, // 6to4
];

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (with `::` and a trailing dotted IPv4 part); the caller checked isIPv6. */
export function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(dotted[1]);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

function matches(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIPv4(bytes: number[]): AddressClass {
  if (bytes.every((b) => b === 255)) return 'multicast'; // limited broadcast
  const range = IPV4_RANGES.find((r) => matches(bytes, ipv4Bytes(r.prefix), r.bits));
  return range?.kind ?? 'public';
}

function classifyIPv6(bytes: number[]): AddressClass {
  const exact = IPV6_RANGES.find((r) => r.bits === 128 && matches(bytes, ipv6Bytes(r.prefix), 128));
  if (exact) return exact.kind;
  const embedded = EMBEDDED_IPV4.find((e) => matches(bytes, ipv6Bytes(e.prefix), e.bits));
  if (embedded) return classifyIPv4(bytes.slice(embedded.offset, embedded.offset + 4));
  const range = IPV6_RANGES.find((r) => matches(bytes, ipv6Bytes(r.prefix), r.bits));
  if (range) return range.kind;
  // Only 2000::/3 is global unicast; everything else is unassigned or special.
  return matches(bytes, [0x20], 3) ? 'public' : 'reserved';
}

/**
 * The class of an IP address in the textual form DNS and the WHATWG URL parser produce (dotted IPv4, IPv6
 * with or without brackets). Anything else (a host name, a malformed address) is 'invalid'.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(bare)) return classifyIPv4(ipv4Bytes(bare));
  if (isIPv6(bare)) return classifyIPv6(ipv6Bytes(bare));
  return 'invalid';
}

/** Whether `host` is an IP literal (as URL.hostname gives it) rather than a name. */
export function isIpLiteral(host: string): boolean {
  return classifyAddress(host) !== 'invalid';
}
