import { describe, expect, it } from 'vitest';
import { classifyAddress, isIpLiteral } from '../../../src/server/address-class.js';

// Hosts as the WHATWG URL parser leaves them: decimal, octal and hex IPv4 forms are normalised to dotted
// quads, IPv6 to bracketed lower-case text. The classifier must see through every form.
const hostOf = (url: string) => new URL(url).hostname;

describe('classifyAddress: IPv4', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['140.82.112.3', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.63.255.255', 'public'],
    ['100.64.0.1', 'shared-cgnat'],
    ['100.127.255.255', 'shared-cgnat'],
    ['100.128.0.0', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.0', 'public'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'multicast'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('classifyAddress: IPv6', () => {
  it.each([
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:0:4136:e378::1', 'reserved'], // Teredo
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'], // outside 2000::/3
    ['64:ff9b:1::1', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('judges IPv4 embedded in mapped, compatible, NAT64 and 6to4 forms by the IPv4 address', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('link-local');
    expect(classifyAddress('::ffff:10.1.2.3')).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('::127.0.0.1')).toBe('loopback');
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toBe('link-local');
    expect(classifyAddress('64:ff9b::8.8.8.8')).toBe('public');
    expect(classifyAddress('2002:c0a8:0101::1')).toBe('private'); // 6to4 of 192.168.1.1
    expect(classifyAddress('2002:0808:0808::1')).toBe('public');
  });

  it('accepts brackets and zone ids, and calls anything else invalid', () => {
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('fe80::1%eth0')).toBe('link-local');
    expect(classifyAddress('github.com')).toBe('invalid');
    expect(classifyAddress('1.2.3')).toBe('invalid');
    expect(classifyAddress('::g')).toBe('invalid');
    expect(isIpLiteral('github.com')).toBe(false);
    expect(isIpLiteral('[2001:db8::1]')).toBe(true);
  });
});

describe('host forms the URL parser normalises', () => {
  it.each([
    ['https://2130706433/', 'loopback'], // decimal
    ['https://0x7f.0.0.1/', 'loopback'], // hex part
    ['https://0177.0.0.1/', 'loopback'], // octal part
    ['https://0x7f000001/', 'loopback'],
    ['https://127.1/', 'loopback'], // short form
    ['https://0/', 'unspecified'],
    ['https://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
    ['https://[fd00::1]/', 'unique-local'],
  ])('%s is %s', (url, kind) => {
    expect(classifyAddress(hostOf(url))).toBe(kind);
  });
});
