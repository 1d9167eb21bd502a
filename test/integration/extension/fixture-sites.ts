import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// GitHub, skills.sh and ClawHub as Chromium sees them in these tests: one local HTTPS server with a self-signed
// certificate for the three names, reached through Chromium's host mapping, so the production manifest's
// https://github.com/* etc. matches apply unchanged. Pages are the fixtures in test/fixtures/extension.

export const SITE_HOSTS = ['github.com', 'skills.sh', 'clawhub.ai'] as const;

const FIXTURES = fileURLToPath(new URL('../../fixtures/extension/', import.meta.url));

const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css' };

// As strict as GitHub's own: no inline script or style. The badge must work under it.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'";

export interface FixtureSites {
  port: number;
  /** Chromium flags: map the site names to this server and trust its certificate (and no other bad one). */
  chromiumArgs: string[];
  close(): Promise<void>;
}

/** routes: "host/path" -> fixture file name. */
export async function startFixtureSites(
  workDir: string,
  routes: Record<string, string>,
): Promise<FixtureSites> {
  const key = join(workDir, 'key.pem');
  const cert = join(workDir, 'cert.pem');
  const names = SITE_HOSTS.map((host) => `DNS:${host}`).join(',');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=skillaudit-fixtures'],
      ...['-keyout', key, '-out', cert, '-addext', `subjectAltName=${names}`],
    ],
    { stdio: 'ignore' },
  );
  const publicKey = execFileSync('openssl', ['x509', '-in', cert, '-pubkey', '-noout']);
  const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: publicKey });
  const spki = execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: der }).toString('base64');

  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'https://fixture.invalid').pathname;
    const asset = path.startsWith('/_fixture/') ? path.slice('/_fixture/'.length) : null;
    const file = asset && /^[a-z-]+\.(js|css)$/.test(asset) ? asset : routes[`${host}${path}`];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = ASSET_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'text/html; charset=utf-8';
    res
      .writeHead(200, {
        'content-type': type,
        'cache-control': 'no-store',
        'content-security-policy': PAGE_CSP,
      })
      .end(readFileSync(join(FIXTURES, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    chromiumArgs: [
      `--host-resolver-rules=${SITE_HOSTS.map((host) => `MAP ${host} 127.0.0.1:${port}`).join(',')}`,
      `--ignore-certificate-errors-spki-list=${spki}`,
    ],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
