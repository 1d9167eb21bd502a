// What of the host the bubblewrap sandbox sees: an allowlist, never `/` minus a list. A host holds other
// users' audits (the service's data folder, `--out` folders), the checkout, sockets and world-readable files
// nobody thought to hide; none of it is on the list, so a new folder on the host is invisible by default.
// The list is the system's programs and libraries, and the few /etc entries interpreters read.
import { randomBytes } from 'node:crypto';
import { lstatSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Top-level system folders, read-only (on merged-/usr hosts most are symlinks into /usr and stay symlinks). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * /etc entries interpreters and common tools read: the dynamic loader, name-service and locale settings,
 * TLS trust, MIME and magic databases, shell start-up files, Python's and Perl's site settings. Host
 * credentials-bearing entries (npmrc, pip.conf, gitconfig, ssl/private, shadow) are not on it.
 */
export const ETC_ENTRIES = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'environment',
  'fonts',
  'gai.conf',
  'host.conf',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'localtime',
  'login.defs',
  'lsb-release',
  'magic',
  'magic.mime',
  'mime.types',
  'networks',
  'nsswitch.conf',
  'os-release',
  'perl',
  'pki',
  'profile',
  'profile.d',
  'protocols',
  'python3',
  'rpc',
  'services',
  'shells',
  'ssl/certs',
  'ssl/openssl.cnf',
  'terminfo',
  'timezone',
  'xdg',
];

/** Programs skills run, looked up on the sandbox's PATH; where one lives outside the system folders, its
 * install prefix is shown too (a Node or Python installed under /opt and linked from /usr/local/bin). */
const INTERPRETERS = ['node', 'npm', 'npx', 'python3', 'python', 'pip3', 'pip', 'perl', 'ruby', 'bash', 'sh'];
const SANDBOX_BIN_DIRS = ['/usr/local/bin', '/usr/bin', '/bin'];

/** Install prefixes (`<prefix>/bin/<program>`) of interpreters reached through a link out of the allowlist. */
export function interpreterPrefixes(binDirs: readonly string[] = SANDBOX_BIN_DIRS): string[] {
  const out = new Set<string>();
  for (const name of INTERPRETERS) {
    for (const dir of binDirs) {
      let real: string;
      try {
        real = realpathSync(join(dir, name));
      } catch {
        continue;
      }
      if (!isVisibleInSandbox(real)) out.add(dirname(dirname(real)));
      break;
    }
  }
  // A program linked straight from a home folder's bin/ would show the whole home: such a one is not shown.
  const home = /^\/(root|home\/[^/]+)$/;
  return [...out].filter((p) => p !== '/' && !home.test(p) && !isVisibleInSandbox(p));
}

/** Host folders shown inside as they are. */
export function visiblePaths(readOnlyPaths: readonly string[]): string[] {
  return [...SYSTEM_DIRS, ...ETC_ENTRIES.map((e) => `/etc/${e}`), ...readOnlyPaths];
}

/** True when the sandbox shows `path` from the host (a system folder, an allowlisted /etc entry). */
export function isVisibleInSandbox(path: string, readOnlyPaths: readonly string[] = []): boolean {
  const abs = resolve(path);
  return visiblePaths(readOnlyPaths).some((dir) => abs === dir || abs.startsWith(`${dir}/`));
}

/** bwrap arguments mounting one host path at the same place: a symlink stays a symlink, a missing one is skipped. */
function showHostPath(path: string): string[] {
  try {
    if (lstatSync(path).isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
  } catch {
    return [];
  }
  return ['--ro-bind', path, path];
}

/** A plausible host name (a cloud VM's default), different for every sandbox. */
export function plausibleHostname(): string {
  const [a, b] = randomBytes(2);
  return `ip-172-31-${a! % 64}-${b! % 254}`;
}

export interface SyntheticEtc {
  hostname: string;
  /** bwrap arguments for the generated files (passwd, group, hosts, hostname, machine-id). */
  args: string[];
}

/**
 * Writes the identity files the sandbox gets instead of the host's: a user table with the sandbox's own
 * user, hosts and hostname for `hostname`, a fresh machine-id (the host's would tie runs together).
 */
export function writeSyntheticEtc(
  dir: string,
  user: { name: string; uid: number },
  hostname: string,
): SyntheticEtc {
  const { name, uid } = user;
  const files: Record<string, string> = {
    passwd: `root:x:0:0:root:/root:/bin/bash\n${name}:x:${uid}:${uid}:${name}:/home/skill:/bin/bash\n`,
    group: `root:x:0:\n${name}:x:${uid}:\n`,
    hostname: `${hostname}\n`,
    hosts: `127.0.0.1\tlocalhost\n127.0.1.1\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`,
    'machine-id': `${randomBytes(16).toString('hex')}\n`,
  };
  const args: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content, { mode: 0o644 });
    args.push('--ro-bind', join(dir, name), `/etc/${name}`);
  }
  return { hostname, args };
}

/** bwrap arguments for the allowlisted host view: system folders and /etc entries that exist here. */
export function systemViewArgs(): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) out.push(...showHostPath(dir));
  // Parents bwrap would otherwise make 0700: another uid could not traverse them.
  for (const dir of ['/etc', '/etc/ssl', '/var']) out.push('--perms', '0755', '--dir', dir);
  for (const entry of ETC_ENTRIES) out.push(...showHostPath(`/etc/${entry}`));
  return out;
}
