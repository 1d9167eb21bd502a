// The network sink: runs inside the sink network namespace (started by network-sink.ts through
// `ip netns exec`), where every IPv4 address is local, so whatever a sandboxed process dials lands here.
// DNS answers every A query with the sink's address, but made-up names NXDOMAIN (dns-junk.ts) unless the skill's
// own files name them (knownHosts). TCP connections are read and answered harmlessly: HTTP (head and first body
// bytes, answered 200 with a second-stage marker or JSON: sink-payloads.ts), TLS (decrypted with a certificate
// issued on the fly by the sink's own CA, which only the sandbox trusts, then read as HTTP; logged by SNI and
// closed when the client refuses it), or raw bytes. One JSON line per record on stdout. It drops root after
// binding and
// exits when its stdin closes (its parent is gone).
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { Duplex } from 'node:stream';
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls';
import { looksMadeUp } from './dns-junk.js';
import { buildDnsAnswer, parseDnsQuestion } from './dns-wire.js';
import type { SinkRecord } from './evidence.js';
import { httpResponse } from './sink-payloads.js';
import { type HttpHead, looksLikeHttp, parseHttpHead, parseTlsClientHello } from './sink-protocols.js';

const BODY_BYTES = 4096;
const MAX_BUFFER = 32 * 1024;
const IDLE_MS = 400;

const [sinkAddress = '192.0.2.1', dropToUid = '65534', portList = '', caDir = ''] = process.argv.slice(2);
const ports = portList.split(',').filter(Boolean).map(Number);

function emit(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const record = (r: SinkRecord) => emit({ type: 'record', record: r });
const localAddress = (s: Socket) => (s.localAddress ?? '?').replace(/^::ffff:/, '');

function answerDns(message: Buffer, address: string, port: number, client: string): Buffer | null {
  const question = parseDnsQuestion(message);
  if (!question) return null;
  record({
    kind: 'dns',
    client,
    address,
    port,
    protocol: 'dns',
    host: question.name,
    queryType: question.type,
    bytes: message.length,
  });
  // A made-up name does not exist, as on a real resolver: resolving everything gives the sandbox away. Names
  // the skill's own files mention resolve whatever they look like, so its code reaches the sink (issue 13).
  return buildDnsAnswer(
    message,
    question,
    sinkAddress,
    looksMadeUp(question.name) && !isKnown(question.name),
  );
}

/** Per sandbox (by its address): the JSON its API calls are answered with, when it was given one. */
const answers = new Map<string, Buffer>();
const knownHosts = new Set<string>();

function isKnown(name: string): boolean {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) if (knownHosts.has(labels.slice(i).join('.'))) return true;
  return false;
}

// Certificates for intercepted TLS, one per name, signed by the CA network-sink.ts made for this sink.
const leafKey = caDir ? readFileSync(`${caDir}/leaf.key`, 'utf8') : null;
const contexts = new Map<string, Promise<SecureContext | null>>();

function certificateName(sni: string | null, address: string): string | null {
  // Names reach openssl's command line: only plain DNS names or the IPv4 address dialled.
  if (sni && sni.length <= 253 && /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(sni)) return `DNS:${sni}`;
  if (!sni && /^\d{1,3}(\.\d{1,3}){3}$/.test(address)) return `IP:${address}`;
  return null;
}

function contextFor(san: string): Promise<SecureContext | null> {
  let ctx = contexts.get(san);
  if (!ctx) {
    const cn = san.slice(san.indexOf(':') + 1);
    ctx = new Promise((resolve) => {
      execFile(
        'openssl',
        [
          ...[
            'req',
            '-x509',
            '-new',
            '-key',
            `${caDir}/leaf.key`,
            '-CA',
            `${caDir}/ca.pem`,
            '-CAkey',
            `${caDir}/ca.key`,
          ],
          ...['-subj', `/CN=${cn}`, '-addext', `subjectAltName=${san}`, '-days', '800'],
        ],
        { timeout: 5_000 },
        (error, certificate) =>
          resolve(error || !leafKey ? null : createSecureContext({ key: leafKey, cert: certificate })),
      );
    });
    if (contexts.size < 512) contexts.set(san, ctx);
  }
  return ctx;
}

interface StreamMeta {
  client: string;
  address: string;
  port: number;
  /** SNI of an intercepted TLS connection. */
  sni?: string;
}

/** Reads an HTTP request or raw bytes from a (possibly decrypted) stream, logs it once and answers. */
function readPlain(stream: Duplex, meta: StreamMeta, first: Buffer): void {
  let data = Buffer.alloc(0);
  let total = 0;
  let logged = false;
  const secure = meta.sni !== undefined;
  const finish = (extra: Partial<SinkRecord>, reply: Buffer | null) => {
    if (logged) return;
    logged = true;
    record({
      kind: 'tcp',
      client: meta.client,
      address: meta.address,
      port: meta.port,
      protocol: 'raw',
      bytes: total,
      ...extra,
    });
    if (reply) stream.end(reply);
    else stream.destroy();
  };
  const flushRaw = () =>
    finish(
      { bodyBase64: data.subarray(0, BODY_BYTES).toString('base64'), ...(secure ? { host: meta.sni } : {}) },
      null,
    );
  const respondHttp = (head: HttpHead) =>
    finish(
      {
        protocol: secure ? 'https' : 'http',
        host: head.host ?? meta.sni,
        method: head.method,
        path: head.path,
        headers: head.headers.slice(0, 8192),
        bodyBase64: data.subarray(head.bodyStart, head.bodyStart + BODY_BYTES).toString('base64'),
        bodyBytes: Math.max(head.contentLength ?? 0, total - head.bodyStart),
      },
      httpResponse(head, answers.get(meta.client)),
    );
  // Idle or half-closed: log what arrived, as HTTP when the head is complete.
  const flushAny = () => {
    const head = looksLikeHttp(data) ? parseHttpHead(data) : null;
    if (head) respondHttp(head);
    else flushRaw();
  };
  const onData = (chunk: Buffer) => {
    total += chunk.length;
    if (logged) return;
    if (data.length < MAX_BUFFER) data = Buffer.concat([data, chunk]).subarray(0, MAX_BUFFER);
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
  };
  const idle = setTimeout(flushAny, IDLE_MS);
  stream.on('data', (chunk: Buffer) => {
    idle.refresh();
    onData(chunk);
  });
  stream.on('end', flushAny);
  stream.on('close', () => clearTimeout(idle));
  stream.on('error', () => stream.destroy());
  if (first.length > 0) onData(first);
}

function interceptTls(socket: Socket, hello: Buffer, sni: string | null, meta: StreamMeta): void {
  const logRefused = () => {
    record({
      kind: 'tcp',
      client: meta.client,
      address: meta.address,
      port: meta.port,
      protocol: 'tls',
      host: sni ?? undefined,
      bytes: hello.length,
      bodyBase64: hello.subarray(0, 512).toString('base64'),
    });
    socket.destroy();
  };
  const san = caDir ? certificateName(sni, meta.address) : null;
  if (!san) {
    logRefused();
    return;
  }
  // TLS runs over a relay stream that starts with the ClientHello already read from the socket and
  // buffers what follows while the certificate is made.
  const relay = new Duplex({
    read() {},
    write(chunk, _encoding, done) {
      socket.write(chunk, done);
    },
    final(done) {
      socket.end();
      done();
    },
  });
  relay.push(hello);
  socket.on('data', (chunk: Buffer) => relay.push(chunk));
  socket.on('end', () => relay.push(null));
  socket.on('close', () => relay.destroy());
  void contextFor(san).then((secureContext) => {
    if (!secureContext || socket.destroyed) {
      logRefused();
      return;
    }
    const tls = new TLSSocket(relay, { isServer: true, secureContext });
    let secured = false;
    tls.once('secure', () => {
      secured = true;
      readPlain(tls, { ...meta, sni: sni ?? meta.address }, Buffer.alloc(0));
    });
    // A client that refuses the certificate (pinning, its own CA store) is logged by its SNI.
    tls.once('error', () => (secured ? tls.destroy() : logRefused()));
  });
}

function handleTcp(socket: Socket): void {
  const meta: StreamMeta = {
    client: (socket.remoteAddress ?? '?').replace(/^::ffff:/, ''),
    address: localAddress(socket),
    port: socket.localPort ?? 0,
  };
  let data = Buffer.alloc(0);
  socket.on('error', () => socket.destroy());
  // Closed or silent before saying anything recognisable: log the attempt with what arrived.
  socket.setTimeout(IDLE_MS, () => {
    socket.removeListener('data', onFirst);
    readPlain(socket, meta, data);
    socket.emit('end');
  });
  const onFirst = (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]).subarray(0, MAX_BUFFER);
    if (meta.port === 53 && data.length >= 2) {
      const length = data.readUInt16BE(0);
      if (data.length < 2 + length && data.length < MAX_BUFFER) return;
      socket.removeListener('data', onFirst);
      socket.setTimeout(0);
      const answer = answerDns(data.subarray(2, 2 + length), meta.address, meta.port, meta.client);
      if (!answer) return void socket.destroy();
      const framed = Buffer.alloc(2 + answer.length);
      framed.writeUInt16BE(answer.length, 0);
      answer.copy(framed, 2);
      socket.end(framed);
      return;
    }
    if (data[0] === 0x16) {
      const hello = parseTlsClientHello(data);
      if (!hello.complete) return;
      socket.removeListener('data', onFirst);
      socket.setTimeout(0);
      interceptTls(socket, data, hello.sni, meta);
      return;
    }
    socket.removeListener('data', onFirst);
    socket.setTimeout(0);
    readPlain(socket, meta, data);
  };
  socket.on('data', onFirst);
  socket.once('end', () => {
    if (socket.listeners('data').includes(onFirst)) {
      socket.removeListener('data', onFirst);
      readPlain(socket, meta, data);
      socket.emit('end');
    }
  });
}

async function main(): Promise<void> {
  const udp = createSocket('udp4');
  udp.on('message', (message, remote) => {
    const answer = answerDns(message, sinkAddress, 53, remote.address);
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
    const known = /^known ([a-z0-9_.-]{1,253})$/.exec(line);
    if (known) knownHosts.add(known[1]!.replace(/\.$/, ''));
    const answer = /^answer ([0-9.]{7,15}) ([A-Za-z0-9+/=]+|-)$/.exec(line);
    if (answer?.[2] === '-') answers.delete(answer[1]!);
    else if (answer) answers.set(answer[1]!, Buffer.from(answer[2]!, 'base64'));
  });
  input.on('close', () => process.exit(0));
}

main().catch((error: unknown) => {
  emit({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
