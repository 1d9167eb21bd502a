// Minimal DNS wire format: read the question of a query (for evidence) and build the sink's answer.
// Input is hostile: every read is bounds-checked and compression loops are cut off.

const TYPE_NAMES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  64: 'SVCB',
  65: 'HTTPS',
  255: 'ANY',
};

export interface DnsQuestion {
  id: number;
  name: string;
  type: string;
  typeCode: number;
  /** Offset just past the question (type and class included). */
  end: number;
}

function readName(msg: Buffer, start: number): { name: string; end: number } | null {
  const labels: string[] = [];
  let offset = start;
  let end = -1;
  for (let jumps = 0; jumps < 32; ) {
    const len = msg[offset];
    if (len === undefined) return null;
    if (len === 0) {
      if (end < 0) end = offset + 1;
      return { name: labels.join('.'), end };
    }
    if ((len & 0xc0) === 0xc0) {
      const low = msg[offset + 1];
      if (low === undefined) return null;
      if (end < 0) end = offset + 2;
      offset = ((len & 0x3f) << 8) | low;
      jumps++;
      continue;
    }
    if (len > 63 || offset + 1 + len > msg.length) return null;
    labels.push(msg.toString('latin1', offset + 1, offset + 1 + len));
    offset += 1 + len;
    if (labels.length > 128) return null;
  }
  return null;
}

/** The first question of a DNS query message, or null when the bytes are not one. */
export function parseDnsQuestion(msg: Buffer): DnsQuestion | null {
  if (msg.length < 17) return null;
  const flags = msg.readUInt16BE(2);
  const questions = msg.readUInt16BE(4);
  // A query (QR bit clear) with at least one question.
  if ((flags & 0x8000) !== 0 || questions < 1) return null;
  const name = readName(msg, 12);
  if (!name || name.end + 4 > msg.length) return null;
  const typeCode = msg.readUInt16BE(name.end);
  return {
    id: msg.readUInt16BE(0),
    name: name.name,
    type: TYPE_NAMES[typeCode] ?? `TYPE${typeCode}`,
    typeCode,
    end: name.end + 4,
  };
}

/**
 * An answer to `query`: every A question gets `ipv4`; other types get an empty NOERROR answer. With
 * `nxdomain`, the name does not exist (RCODE 3, no answer).
 */
export function buildDnsAnswer(query: Buffer, question: DnsQuestion, ipv4: string, nxdomain = false): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(question.id, 0);
  // QR=1, opcode copied, AA=1, RD copied, RA=1, RCODE=0 or 3.
  const requestFlags = query.readUInt16BE(2);
  header.writeUInt16BE(0x8000 | (requestFlags & 0x7900) | 0x0400 | 0x0080 | (nxdomain ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  const answers = question.typeCode === 1 && !nxdomain ? 1 : 0;
  header.writeUInt16BE(answers, 6);
  const questionBytes = query.subarray(12, question.end);
  if (answers === 0) return Buffer.concat([header, questionBytes]);
  const answer = Buffer.alloc(16);
  answer.writeUInt16BE(0xc00c, 0); // pointer to the question name
  answer.writeUInt16BE(1, 2); // A
  answer.writeUInt16BE(1, 4); // IN
  answer.writeUInt32BE(5, 6); // short TTL
  answer.writeUInt16BE(4, 10);
  const octets = ipv4.split('.').map(Number);
  for (let i = 0; i < 4; i++) answer[12 + i] = octets[i] ?? 0;
  return Buffer.concat([header, questionBytes, answer]);
}
