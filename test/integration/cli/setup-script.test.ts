// The README's first command on machines unlike CI's: scripts/setup with the system's package tools replaced by
// recorders on PATH (this machine has every package, and installing for real needs root and the network). What
// is checked is the script's own logic: what it asks apt for, through sudo or not, and that `npm ci` follows.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SETUP = new URL('../../../scripts/setup', import.meta.url).pathname;
// The tools the script itself uses, taken from this machine.
const REAL_TOOLS = ['dirname', 'grep', 'env'];

let root: string;
let bin: string;
let log: string;

interface Machine {
  /** Packages dpkg reports as installed ("*" for all); absent: no dpkg-query or apt-get at all. */
  installed?: readonly string[] | '*';
  uid: number;
  sudo: boolean;
}

/** A command that appends its name and arguments to the log. */
function recorder(name: string, body = '', record = true): void {
  const file = join(bin, name);
  writeFileSync(file, `#!${BASH}\n${record ? `echo "${name} $*" >> "${log}"\n` : ''}${body}`);
  chmodSync(file, 0o755);
}

const BASH = spawnSync('sh', ['-c', 'command -v bash']).stdout.toString().trim();

function run(machine: Machine): { code: number | null; stderr: string; calls: string[] } {
  for (const tool of REAL_TOOLS) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`])
      .stdout.toString()
      .trim();
    symlinkSync(path, join(bin, tool));
  }
  recorder('id', `echo ${machine.uid}\n`, false);
  recorder('npm');
  if (machine.installed !== undefined) {
    const installed = machine.installed === '*' ? '*' : ` ${machine.installed.join(' ')} `;
    // dpkg-query -W -f='${Status}' <package>
    recorder(
      'dpkg-query',
      `p="\${@: -1}"\nif [ "${installed}" = "*" ] || [[ "${installed}" == *" $p "* ]]; then printf 'install ok installed'; else exit 1; fi\n`,
    );
    recorder('apt-get');
  }
  // sudo runs what it is given, as env would.
  if (machine.sudo) recorder('sudo', '"$@"\n');
  const result = spawnSync(BASH, [join(root, 'scripts', 'setup')], {
    env: { PATH: bin, HOME: root },
    encoding: 'utf8',
  });
  let calls: string[] = [];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {}
  // dpkg-query is asked once per package; the order of everything else is what matters.
  return {
    code: result.status,
    stderr: result.stderr,
    calls: calls.filter((c) => !c.startsWith('dpkg-query')),
  };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-setup-'));
  bin = join(root, 'bin');
  log = join(root, 'calls.log');
  mkdirSync(bin);
  mkdirSync(join(root, 'scripts'));
  copyFileSync(SETUP, join(root, 'scripts', 'setup'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('scripts/setup', () => {
  it('asks for nothing when every package is there, then runs npm ci', () => {
    const { code, calls } = run({ installed: '*', uid: 1000, sudo: true });
    expect(code).toBe(0);
    expect(calls).toEqual(['npm ci --no-audit --no-fund']);
  });

  it('installs only the missing packages through sudo for a user, then runs npm ci', () => {
    const { code, calls, stderr } = run({
      installed: ['bubblewrap', 'strace', 'git', 'python3', 'curl', 'coreutils', 'util-linux'],
      uid: 1000,
      sudo: true,
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/installing .*chromium/);
    const install = calls.find((c) => c.startsWith('apt-get install'));
    expect(install).toBeDefined();
    expect(install).toMatch(/ chromium\b/);
    expect(install).toMatch(/ redis-server\b/);
    expect(install).toMatch(/ ripgrep\b/);
    expect(install).not.toMatch(/ bubblewrap\b| git\b| strace\b/);
    expect(calls.filter((c) => c.startsWith('sudo')).length).toBe(2);
    expect(calls.at(-1)).toBe('npm ci --no-audit --no-fund');
    expect(calls.indexOf('apt-get update -qq')).toBeLessThan(calls.indexOf(install!));
  });

  it('as root installs without sudo', () => {
    const { code, calls } = run({ installed: [], uid: 0, sudo: false });
    expect(code).toBe(0);
    expect(calls).toContain('apt-get update -qq');
    expect(calls.some((c) => c.startsWith('apt-get install -y -qq --no-install-recommends bubblewrap'))).toBe(
      true,
    );
    expect(calls.at(-1)).toBe('npm ci --no-audit --no-fund');
  });

  it('without sudo names what is missing and how to install it, and stops before npm ci', () => {
    const { code, calls, stderr } = run({ installed: ['git'], uid: 1000, sudo: false });
    expect(code).toBe(1);
    expect(stderr).toMatch(/missing and there is no sudo: bubblewrap /);
    expect(stderr).toMatch(/install them as root \(apt-get install bubblewrap /);
    expect(calls.some((c) => c.startsWith('npm') || c.startsWith('apt-get'))).toBe(false);
  });

  it('without apt names the packages and still runs npm ci', () => {
    const { code, calls, stderr } = run({ uid: 1000, sudo: true });
    expect(code).toBe(0);
    expect(stderr).toMatch(/no apt here: install bubblewrap strace/);
    expect(calls).toEqual(['npm ci --no-audit --no-fund']);
  });
});
