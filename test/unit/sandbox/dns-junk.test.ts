import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { looksMadeUp } from '../../../src/sandbox/dns-junk.js';
import { buildDnsAnswer, parseDnsQuestion } from '../../../src/sandbox/dns-wire.js';

function query(name: string): Buffer {
  const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
  return Buffer.concat([
    Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]),
    ...labels,
    Buffer.from([0, 0, 1, 0, 1]),
  ]);
}

describe('made-up DNS names', () => {
  it('calls random registrable labels and single labels made up', () => {
    for (let i = 0; i < 20; i++) {
      expect(looksMadeUp(`${randomBytes(10).toString('hex')}.com`)).toBe(true);
      expect(looksMadeUp(`${randomUUID()}.net`)).toBe(true);
      expect(looksMadeUp(`www.${randomBytes(8).toString('hex')}.co.uk`)).toBe(true);
    }
    expect(looksMadeUp('x7k2p9q4m1z8.org')).toBe(true);
    expect(looksMadeUp('intranet')).toBe(true);
  });

  it('resolves real-looking hosts, and any label under a real-looking domain (exfiltration still arrives)', () => {
    for (const name of [
      'api.github.com',
      'raw.githubusercontent.com',
      'login.microsoftonline.com',
      'cdn.jsdelivr.net',
      'metrics-collector.example-telemetry.net',
      's3.us-west-2.amazonaws.com',
      'files.pythonhosted.org',
      'www.bbc.co.uk',
      `${randomBytes(20).toString('hex')}.exfil-collector.com`,
    ])
      expect(looksMadeUp(name), name).toBe(false);
  });

  it('answers NXDOMAIN without an address when asked to', () => {
    const msg = query('a1b2c3d4e5f6a7b8.com');
    const question = parseDnsQuestion(msg)!;
    const nx = buildDnsAnswer(msg, question, '192.0.2.1', true);
    expect(nx.readUInt16BE(2) & 0xf).toBe(3);
    expect(nx.readUInt16BE(6)).toBe(0);
    const ok = buildDnsAnswer(msg, question, '192.0.2.1');
    expect(ok.readUInt16BE(2) & 0xf).toBe(0);
    expect(ok.readUInt16BE(6)).toBe(1);
  });
});
