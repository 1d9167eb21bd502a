// A throwaway certificate authority per network sink, so the sink can read HTTPS: the sandbox trusts it
// (its CA bundle is the host's plus this one), nothing else does, and it is deleted with the sink.
import { execFile } from 'node:child_process';
import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findTool } from './host-tools.js';

const run = promisify(execFile);
/** Where Debian-family systems (and OpenSSL's default cafile symlink) keep the trusted bundle. */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

export interface SinkCa {
  /** Directory with ca.pem, ca.key, leaf.key (readable by the sink after it drops to `uid`). */
  dir: string;
  /** The host's trusted certificates plus this CA, to bind over SYSTEM_CA_BUNDLE inside the sandbox. */
  bundle: string;
}

/** Makes the CA in `dir`, or returns null (with why) when openssl or the system bundle is missing. */
export async function createSinkCa(dir: string, uid: number): Promise<SinkCa | { error: string }> {
  const openssl = findTool('openssl');
  if (!openssl) return { error: 'openssl not found: HTTPS is logged by SNI only' };
  let system: string;
  try {
    system = readFileSync(SYSTEM_CA_BUNDLE, 'utf8');
  } catch {
    return { error: `${SYSTEM_CA_BUNDLE} not found: HTTPS is logged by SNI only` };
  }
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  // Valid well past now: detonation may run code with the clock a year ahead (src/detonate/clock.ts), and a
  // certificate that has expired by then would stop its download before the payload.
  await run(
    openssl,
    ['req', '-x509', ...ec, '-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.pem')].concat([
      '-subj',
      '/CN=Local Development Root CA',
      '-days',
      '800',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ]),
  );
  await run(openssl, [
    'genpkey',
    '-algorithm',
    'EC',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-out',
    join(dir, 'leaf.key'),
  ]);
  for (const name of ['ca.key', 'ca.pem', 'leaf.key']) chownSync(join(dir, name), uid, uid);
  const bundle = join(dir, 'bundle.pem');
  writeFileSync(bundle, `${system.trimEnd()}\n${readFileSync(join(dir, 'ca.pem'), 'utf8')}`, { mode: 0o644 });
  return { dir, bundle };
}
