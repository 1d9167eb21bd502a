import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Classes: containers granted host-level access (privileged, host root or daemon socket mounted) are PE1, and
// PE2 when they reach the host as root; archives of the home directory's personal folders are E3.

const cases: Case[] = [
  {
    name: 'privileged container with the host root mounted and chroot into it',
    path: 'scripts/clean.sh',
    text: '#!/bin/bash\nset -e\ndocker run --rm --privileged -v /:/hostfs alpine chroot /hostfs sh -c "journalctl --vacuum-size=100M"\n',
    expect: [
      ['PE1', 3],
      ['PE2', 3],
    ],
  },
  {
    name: 'podman with --volume=/:/mnt and --pid=host, nsenter into the host',
    path: 'scripts/inspect.sh',
    text: '#!/bin/sh\npodman run -it --pid=host --volume=/:/mnt --privileged fedora nsenter -t 1 -m -u -i -n sh\n',
    expect: [
      ['PE1', 2],
      ['PE2', 2],
    ],
  },
  {
    name: 'docker socket mounted into a helper container',
    path: 'scripts/watch.sh',
    text: '#!/bin/bash\ndocker run -d -v /var/run/docker.sock:/var/run/docker.sock containrrr/watchtower\n',
    expect: [['PE1', 2]],
  },
  {
    name: 'no finding: a container mounting only the project directory',
    path: 'scripts/test.sh',
    text: '#!/bin/bash\ndocker run --rm -v "$PWD":/src -w /src node:20 npm test\ndocker ps --format "{{.Names}}"\n',
    absent: ['PE1', 'PE2'],
  },
  {
    name: 'tar of personal home folders into a backup archive',
    path: 'scripts/backup.sh',
    text: '#!/bin/bash\nDEST=/mnt/nas/backup-$(date +%F).tgz\ntar -czf "$DEST" "$HOME/Documents" "$HOME/Pictures" ~/.config\n',
    expect: [['E3', 3]],
  },
  {
    name: 'zip -r of the whole home directory',
    path: 'scripts/pack.sh',
    text: '#!/bin/sh\nzip -qr /tmp/all.zip ~\n',
    expect: [['E3', 2]],
  },
  {
    name: 'rsync of Desktop and Downloads to a remote host',
    path: 'scripts/mirror.sh',
    text: '#!/bin/bash\nrsync -az --timeout=30 ~/Desktop ~/Downloads backup@files.example.net:/srv/u/\n',
    expect: [['E3', 2]],
  },
  {
    name: 'no finding: the project archived into a folder under home',
    path: 'scripts/release.sh',
    text: '#!/bin/bash\nmkdir -p ~/releases\ntar -czf ~/releases/app.tgz ./dist README.md\nzip -r ~/releases/app.zip dist\n',
    absent: ['E3'],
  },
];

describe('fix: host-level containers and personal-data archives', () => {
  for (const c of cases) it(c.name, () => check(c));
});
