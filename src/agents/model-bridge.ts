// How a harness inside the sandbox reaches the model endpoint and nothing else. The sandbox has no network
// (its own namespace, loopback only), so the harness talks plain HTTP to a relay on the sandbox's loopback;
// the relay forwards each connection over a unix socket bound into the sandbox HOME to this host-side proxy,
// which forwards the request to the real endpoint. The proxy also puts the real API key on the request, so
// the key never enters the sandbox where a skill's code could read it.
import { chmodSync, mkdirSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname } from 'node:path';

/** The key the harness is given; the proxy swaps it for the real one. */
export const PLACEHOLDER_KEY = 'sk-skillaudit-sandboxed-placeholder';
/** Port of the relay on the sandbox's own loopback (its network namespace is private, so any port is free). */
export const RELAY_PORT = 48_080;

export interface ModelBridge {
  /** Model requests forwarded so far. */
  readonly forwarded: number;
  close(): Promise<void>;
}

/** Request headers that describe one hop, not the request. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

function forwardHeaders(incoming: IncomingMessage, upstream: URL, apiKey: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers[name] = value;
  }
  headers.host = upstream.host;
  if (apiKey) {
    if ('x-api-key' in headers) headers['x-api-key'] = apiKey;
    if ('authorization' in headers) headers.authorization = `Bearer ${apiKey}`;
    if (!('x-api-key' in headers) && !('authorization' in headers))
      headers.authorization = `Bearer ${apiKey}`;
  }
  return headers;
}

/**
 * Starts the host-side proxy on `socketPath` (a path inside the sandbox HOME on the host). Requests keep their
 * path and query and go to the origin of `upstream`; the harness is configured with the upstream's path.
 */
export async function startModelBridge(options: {
  socketPath: string;
  upstream: string;
  apiKey: string;
  /** The sandbox uid must be able to connect. */
  socketOwner?: number;
}): Promise<ModelBridge> {
  const upstream = new URL(options.upstream);
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  let forwarded = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    forwarded++;
    const target = new URL(req.url ?? '/', upstream.origin);
    const out = send(
      target,
      { method: req.method, headers: forwardHeaders(req, upstream, options.apiKey) },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'bridge_error', message: error.message } }));
    });
    req.pipe(out);
  });
  mkdirSync(dirname(options.socketPath), { recursive: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  chmodSync(options.socketPath, 0o666);
  return {
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The relay, run by node inside the sandbox: listens on the sandbox loopback, pipes each connection to the
 * unix socket, starts the harness once listening, and exits with the harness's status.
 * Arguments: <socket> <port> <command> [args...].
 */
export const RELAY_SCRIPT = `import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
const [socket, port, command, ...args] = process.argv.slice(2);
const server = createServer((client) => {
  const upstream = connect(socket);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write('relay: cannot start ' + command + ': ' + error.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
});
`;
