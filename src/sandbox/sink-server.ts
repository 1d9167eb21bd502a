// The network sink: runs inside the sink network namespace (started by network-sink.ts through
// `ip netns exec`), where every IPv4 address is local, so whatever a sandboxed process dials lands here.
// DNS answers every A query with the sink's address; TCP connections are read (HTTP head and the first body
// bytes, TLS SNI, or raw bytes), answered harmlessly and closed. One JSON line per record on stdout.
// It drops root after binding and exits when its stdin closes (its parent is gone).
import { createSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { buildDnsAnswer, parseDnsQuestion } from './dns-wire.js';
import type { SinkRecord } from './evidence.js';
import { type HttpHead, looksLikeHttp, parseHttpHead, parseTlsClientHello } from './sink-protocols.js';

const BODY_BYTES = 4096;
const MAX_BUFFER = 32 * 1024;
const IDLE_MS = 400;
const HTTP_OK =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';

const [sinkAddress = '192.0.2.1', dropToUid = '65534', portList = ''] = process.argv.slice(2);
const ports = portList.split(',').filter(Boolean).map(Number);

function emit(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const record = (r: SinkRecord) => emit({ type: 'record', record: r });
const localAddress = (s: Socket) => (s.localAddress ?? '?').replace(/^::ffff:/, '');

function answerDns(message: Buffer, address: string, port: number): Buffer | null {
  const question = parseDnsQuestion(message);
  if (!question) return null;
  record({
    kind: 'dns',
    address,
    port,
    protocol: 'dns',
    host: question.name,
    queryType: question.type,
    bytes: message.length,
  });
  return buildDnsAnswer(message, question, sinkAddress);
}

function handleTcp(socket: Socket): void {
  let data = Buffer.alloc(0);
  let total = 0;
  let logged = false;
  const address = localAddress(socket);
  const port = socket.localPort ?? 0;
  const finish = (extra: Partial<SinkRecord>, reply: string | Buffer | null) => {
    if (logged) return;
    logged = true;
    record({ kind: 'tcp', address, port, protocol: 'raw', bytes: total, ...extra });
    if (reply) socket.end(reply);
    else socket.destroy();
  };
  const flushRaw = () => finish({ bodyBase64: data.subarray(0, BODY_BYTES).toString('base64') }, null);
  const respondHttp = (head: HttpHead) =>
    finish(
      {
        protocol: 'http',
        host: head.host ?? undefined,
        method: head.method,
        path: head.path,
        headers: head.headers.slice(0, 8192),
        bodyBase64: data.subarray(head.bodyStart, head.bodyStart + BODY_BYTES).toString('base64'),
      },
      HTTP_OK,
    );
  // Idle or half-closed: log what arrived, as HTTP when the head is complete.
  const flushAny = () => {
    const head = looksLikeHttp(data) ? parseHttpHead(data) : null;
    if (head) respondHttp(head);
    else flushRaw();
  };
  socket.setTimeout(IDLE_MS, flushAny);
  socket.on('end', flushAny);
  socket.on('error', () => socket.destroy());

  socket.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (logged) return;
    if (data.length < MAX_BUFFER) data = Buffer.concat([data, chunk]).subarray(0, MAX_BUFFER);
    if (port === 53 && data.length >= 2) {
      const length = data.readUInt16BE(0);
      if (data.length < 2 + length) return;
      const answer = answerDns(data.subarray(2, 2 + length), address, port);
      logged = true;
      if (!answer) return void socket.destroy();
      const framed = Buffer.alloc(2 + answer.length);
      framed.writeUInt16BE(answer.length, 0);
      answer.copy(framed, 2);
      socket.end(framed);
      return;
    }
    if (data[0] === 0x16) {
      const tls = parseTlsClientHello(data);
      // Log the ClientHello and hang up: no certificate could satisfy a client anyway.
      if (tls.complete)
        finish(
          {
            protocol: 'tls',
            host: tls.sni ?? undefined,
            bodyBase64: data.subarray(0, 512).toString('base64'),
          },
          null,
        );
      return;
    }
    if (looksLikeHttp(data)) {
      const head = parseHttpHead(data);
      if (!head) return data.length >= MAX_BUFFER ? flushRaw() : undefined;
      const body = data.length - head.bodyStart;
      const wanted = head.contentLength ?? (head.chunked ? BODY_BYTES : 0);
      const chunkedDone = head.chunked && data.includes('\r\n0\r\n\r\n');
      if (body >= Math.min(wanted, BODY_BYTES) || chunkedDone || data.length >= MAX_BUFFER) respondHttp(head);
      return;
    }
    if (data.length >= BODY_BYTES) flushRaw();
  });
}

async function main(): Promise<void> {
  const udp = createSocket('udp4');
  udp.on('message', (message, remote) => {
    const answer = answerDns(message, sinkAddress, 53);
    if (answer) udp.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(53, '0.0.0.0', () => resolve());
  });
  const failed: number[] = [];
  await Promise.all(
    ports.map(
      (port) =>
        new Promise<void>((resolve) => {
          const server = createServer(handleTcp);
          server.once('error', () => {
            failed.push(port);
            resolve();
          });
          server.listen({ port, host: '0.0.0.0', backlog: 64 }, () => resolve());
        }),
    ),
  );
  // Everything is bound: the sink has no further use for root.
  process.setgroups?.([]);
  process.setgid?.(Number(dropToUid));
  process.setuid?.(Number(dropToUid));
  emit({ type: 'ready', ports: ports.length - failed.length, failed });
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    const sync = /^sync (\d+)$/.exec(line);
    if (sync) emit({ type: 'sync', n: Number(sync[1]) });
  });
  input.on('close', () => process.exit(0));
}

main().catch((error: unknown) => {
  emit({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
