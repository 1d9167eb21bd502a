import { describe, expect, it } from 'vitest';
import { decodedCodeRuns, privilegeUse } from '../../../src/detonate/process-signals.js';
import type { ProcessRecord, SensitiveRead } from '../../../src/sandbox/evidence.js';

// Behaviour read off a run's process tree: decoded code that ran, and privileged commands told apart by what
// they touch.

let nextPid = 100;
const proc = (ppid: number | null, argv: string[], executable = `/usr/bin/${argv[0]}`): ProcessRecord => ({
  pid: nextPid++,
  ppid,
  executable,
  argv,
  exit: { code: 0, signal: null },
});

describe('decodedCodeRuns', () => {
  it('reports what an interpreter fed by a decoder in the same pipeline started', () => {
    const script = proc(1, ['bash', 'tidy.sh']);
    const decoder = proc(script.pid, ['base64', '-d']);
    const shell = proc(script.pid, ['bash']);
    const rm = proc(shell.pid, ['rm', '-rf', '/home/u/.ssh']);
    const runs = decodedCodeRuns([script, decoder, shell, rm]);
    expect(runs).toEqual(['decoded code ran: `base64 -d | bash` started `rm -rf /home/u/.ssh`']);
  });

  it('looks through a shell shim (zsh → bash) and accepts macOS and openssl spellings', () => {
    const script = proc(1, ['sh', 'x.sh']);
    const decoder = proc(script.pid, ['openssl', 'base64', '-d']);
    const zsh = proc(script.pid, ['zsh'], '/home/u/.local/bin/zsh');
    const bash = proc(zsh.pid, ['/bin/bash']);
    const curl = proc(bash.pid, ['curl', '-s', 'http://203.0.113.9/x']);
    expect(decodedCodeRuns([script, decoder, zsh, bash, curl])).toEqual([
      'decoded code ran: `openssl base64 -d | zsh` started `curl -s http://203.0.113.9/x`',
    ]);
  });

  it('says nothing for a quiet payload, a script run by name, or a decoder writing a file', () => {
    const script = proc(1, ['bash', 'x.sh']);
    const quiet = [script, proc(script.pid, ['base64', '-d']), proc(script.pid, ['bash'])];
    expect(decodedCodeRuns(quiet)).toEqual([]);
    const byName = proc(script.pid, ['bash', 'other.sh']);
    expect(
      decodedCodeRuns([script, proc(script.pid, ['base64', '-d']), byName, proc(byName.pid, ['ls'])]),
    ).toEqual([]);
    const encode = proc(script.pid, ['base64']);
    const sh = proc(script.pid, ['sh']);
    expect(decodedCodeRuns([script, encode, sh, proc(sh.pid, ['ls'])])).toEqual([]);
  });
});

describe('privilegeUse', () => {
  const sudo = (...argv: string[]) => proc(1, ['sudo', ...argv], '/home/u/.local/bin/sudo');

  it('confirms root used on account, sudo and setuid targets, and a root shell', () => {
    const { escalations, other } = privilegeUse(
      [
        sudo('tee', '-a', '/etc/sudoers.d/deploy'),
        sudo('chmod', '4755', '/usr/local/bin/helper'),
        sudo('usermod', '-aG', 'sudo', 'bob'),
        sudo('-s'),
        sudo('bash'),
      ],
      [],
    );
    expect(escalations).toHaveLength(5);
    expect(other).toEqual([]);
  });

  it("keeps an installer's privileged steps apart, and counts a write to a system secret file", () => {
    const write: SensitiveRead = {
      pid: 1,
      argv: ['sh'],
      path: '/etc/sudoers',
      rule: 'system-secrets',
      canary: null,
      write: true,
      error: 'EROFS',
    };
    const { escalations, other } = privilegeUse(
      [sudo('apt-get', 'install', '-y', 'jq'), sudo('systemctl', 'restart', 'nginx'), proc(1, ['ls'])],
      [write, { ...write, write: false }],
    );
    expect(escalations).toEqual(['tried to write /etc/sudoers (refused: EROFS)']);
    expect(other).toEqual([
      'ran sudo apt-get install -y jq (no account, sudo or setuid target)',
      'ran sudo systemctl restart nginx (no account, sudo or setuid target)',
    ]);
  });
});
