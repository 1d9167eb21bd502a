import { createServer } from 'node:net';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { looksLikeHttp, parseHttpHead, parseTlsClientHello } from '../../../src/sandbox/sink-protocols.js';

/** The first bytes a real TLS client sends, captured on loopback. */
async function clientHello(servername: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => {
      socket.once('data', (data) => {
        resolve(data);
        socket.destroy();
        server.close();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') return reject(new Error('no port'));
      connect({ host: '127.0.0.1', port: address.port, servername }).on('error', () => undefined);
    });
  });
}

describe('parseHttpHead', () => {
  it('reads method, path, host and content length once the head is complete', () => {
    const req = Buffer.from(
      'POST /upload?x=1 HTTP/1.1\r\nHost: collector.example.com\r\nContent-Length: 5\r\n\r\nhello',
    );
    expect(looksLikeHttp(req)).toBe(true);
    expect(parseHttpHead(req)).toMatchObject({
      method: 'POST',
      path: '/upload?x=1',
      host: 'collector.example.com',
      contentLength: 5,
    });
    expect(req.subarray(parseHttpHead(req)!.bodyStart).toString()).toBe('hello');
  });

  it('waits for the rest of a partial head and rejects what is not HTTP', () => {
    expect(parseHttpHead(Buffer.from('GET / HTTP/1.1\r\nHost: a'))).toBeNull();
    expect(parseHttpHead(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toBeNull();
    expect(looksLikeHttp(Buffer.from([0x16, 3, 1]))).toBe(false);
  });

  it('notices chunked bodies and ignores a malformed content length', () => {
    const head = parseHttpHead(
      Buffer.from('PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: x\r\n\r\n'),
    );
    expect(head).toMatchObject({ chunked: true, contentLength: null, host: null });
  });
});

describe('parseTlsClientHello', () => {
  it('extracts the SNI from a real ClientHello', async () => {
    const hello = await clientHello('tls-sni.exfil-example.org');
    expect(parseTlsClientHello(hello)).toEqual({ complete: true, sni: 'tls-sni.exfil-example.org' });
  });

  it('asks for more bytes while the record is partial, and gives up on garbage', async () => {
    const hello = await clientHello('a.example.com');
    expect(parseTlsClientHello(hello.subarray(0, 40))).toEqual({ complete: false });
    expect(parseTlsClientHello(Buffer.from('GET / HTTP/1.1'))).toEqual({ complete: true, sni: null });
    const corrupt = Buffer.from(hello);
    corrupt.writeUInt16BE(0xffff, 5 + 4 + 2 + 32 + 1 + corrupt[5 + 4 + 2 + 32]!); // absurd cipher-suite length
    expect(parseTlsClientHello(corrupt)).toEqual({ complete: true, sni: null });
  });
});
