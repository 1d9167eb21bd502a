// What the network sink reads from a connection: an HTTP request head, or the SNI of a TLS ClientHello.
// Pure functions over bytes the sandbox sent; hostile by definition, so every read is bounds-checked.

export interface HttpHead {
  method: string;
  path: string;
  host: string | null;
  /** Request line and headers as sent (latin1). */
  headers: string;
  /** Offset of the first body byte. */
  bodyStart: number;
  contentLength: number | null;
  chunked: boolean;
}

const REQUEST_LINE = /^([A-Z]{3,12}) (\S+) HTTP\/\d(?:\.\d)?\r?\n/;

export function looksLikeHttp(data: Buffer): boolean {
  return /^[A-Z]{3,12} \S/.test(data.toString('latin1', 0, Math.min(data.length, 32)));
}

/** The request head once it is complete, or null while more bytes are needed (or it is not HTTP). */
export function parseHttpHead(data: Buffer): HttpHead | null {
  const text = data.toString('latin1');
  let end = text.indexOf('\r\n\r\n');
  let sep = 4;
  if (end < 0) {
    end = text.indexOf('\n\n');
    sep = 2;
  }
  if (end < 0) return null;
  const head = text.slice(0, end);
  const line = REQUEST_LINE.exec(`${head}\n`);
  if (!line) return null;
  const header = (name: string) => new RegExp(`^${name}:[ \\t]*(.*?)\\r?$`, 'im').exec(head)?.[1] ?? null;
  const length = header('content-length');
  return {
    method: line[1]!,
    path: line[2]!,
    host: header('host'),
    headers: head,
    bodyStart: end + sep,
    contentLength: length !== null && /^\d+$/.test(length) ? Number(length) : null,
    chunked: /chunked/i.test(header('transfer-encoding') ?? ''),
  };
}

export type TlsProbe = { complete: false } | { complete: true; sni: string | null };

/** Reads the server_name extension of a TLS ClientHello; `complete: false` while the record is partial. */
export function parseTlsClientHello(data: Buffer): TlsProbe {
  if (data.length < 5) return { complete: false };
  if (data[0] !== 0x16) return { complete: true, sni: null };
  const recordEnd = 5 + data.readUInt16BE(3);
  if (data.length < recordEnd)
    return data.length >= 16_384 ? { complete: true, sni: null } : { complete: false };
  const hello = data.subarray(5, recordEnd);
  if (hello[0] !== 0x01 || hello.length < 42) return { complete: true, sni: null };
  let p = 4 + 2 + 32; // handshake header, version, random
  const need = (n: number) => p + n <= hello.length;
  if (!need(1)) return { complete: true, sni: null };
  p += 1 + hello[p]!; // session id
  if (!need(2)) return { complete: true, sni: null };
  p += 2 + hello.readUInt16BE(p); // cipher suites
  if (!need(1)) return { complete: true, sni: null };
  p += 1 + hello[p]!; // compression methods
  if (!need(2)) return { complete: true, sni: null };
  const extensionsEnd = Math.min(hello.length, p + 2 + hello.readUInt16BE(p));
  p += 2;
  while (p + 4 <= extensionsEnd) {
    const type = hello.readUInt16BE(p);
    const length = hello.readUInt16BE(p + 2);
    const body = p + 4;
    if (type === 0 && body + 5 <= extensionsEnd) {
      // server_name_list: list length (2), name type (1), name length (2), name.
      const nameLength = hello.readUInt16BE(body + 3);
      if (hello[body + 2] === 0 && body + 5 + nameLength <= extensionsEnd) {
        return { complete: true, sni: hello.toString('latin1', body + 5, body + 5 + nameLength) };
      }
    }
    p = body + length;
  }
  return { complete: true, sni: null };
}
