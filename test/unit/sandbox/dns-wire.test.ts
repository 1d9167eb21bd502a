import { describe, expect, it } from 'vitest';
import { buildDnsAnswer, parseDnsQuestion } from '../../../src/sandbox/dns-wire.js';

function query(name: string, type = 1, id = 0x1234): Buffer {
  const labels = name
    .split('.')
    .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')]));
  return Buffer.concat([
    Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]),
    ...labels,
    Buffer.from([0, type >> 8, type & 0xff, 0, 1]),
  ]);
}

describe('parseDnsQuestion', () => {
  it('reads the name and type of a query', () => {
    expect(parseDnsQuestion(query('a1b2.exfil.example.net', 28))).toMatchObject({
      id: 0x1234,
      name: 'a1b2.exfil.example.net',
      type: 'AAAA',
    });
  });

  it('rejects responses, truncated messages and names running past the end', () => {
    const response = query('x.example.com');
    response[2] = 0x81;
    expect(parseDnsQuestion(response)).toBeNull();
    expect(parseDnsQuestion(query('x.example.com').subarray(0, 20))).toBeNull();
    const bad = query('abc.example.com');
    bad[12] = 60; // label length beyond the message
    expect(parseDnsQuestion(bad)).toBeNull();
  });

  it('does not loop on a compression pointer to itself', () => {
    const loop = Buffer.from([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
    expect(parseDnsQuestion(loop)).toBeNull();
  });
});

describe('buildDnsAnswer', () => {
  it('answers an A query with the sinkhole address', () => {
    const q = query('collector.example.com');
    const answer = buildDnsAnswer(q, parseDnsQuestion(q)!, '192.0.2.1');
    expect(answer.readUInt16BE(0)).toBe(0x1234);
    expect(answer[2]! & 0x80).toBe(0x80); // a response
    expect(answer.readUInt16BE(6)).toBe(1); // one answer
    expect([...answer.subarray(-4)]).toEqual([192, 0, 2, 1]);
  });

  it('answers other types with no records so clients fall back to IPv4', () => {
    const q = query('collector.example.com', 28);
    const answer = buildDnsAnswer(q, parseDnsQuestion(q)!, '192.0.2.1');
    expect(answer.readUInt16BE(6)).toBe(0);
    expect(answer.readUInt16BE(2) & 0x000f).toBe(0); // NOERROR
  });
});
