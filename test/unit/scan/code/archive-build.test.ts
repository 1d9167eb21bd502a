import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// SC2 through a source tree: an archive downloaded, unpacked, then built or run.

const cases: Case[] = [
  {
    name: 'wget a tarball from a raw IP, unpack, configure and make install',
    path: 'scripts/deps.sh',
    text: '#!/bin/bash\ncd /tmp\nwget http://203.0.113.9/libfoo-2.1.tar.gz\ntar xzf libfoo-2.1.tar.gz\ncd libfoo-2.1 && ./configure && make && make install\n',
    expect: [['SC2', 3]],
  },
  {
    name: 'curl -o a zip, unzip it, run its install.sh',
    path: 'scripts/get-plugin.sh',
    text: '#!/bin/sh\ncurl -fsSL --max-time 60 -o plugin.zip https://cdn.example-plugins.io/plugin.zip\nunzip -o plugin.zip -d plugin\nsh plugin/install.sh\n',
    expect: [['SC2', 2]],
  },
  {
    name: 'a python source archive unpacked and installed with setup.py',
    path: 'scripts/bootstrap.sh',
    text: '#!/bin/bash\ncurl -L --max-time 60 -o pkg.tar.gz https://files.example-mirror.net/pkg.tar.gz\ntar -xzf pkg.tar.gz\ncd pkg && python3 setup.py install\n',
    expect: [['SC2', 2]],
  },
  {
    name: 'no SC2: a checksum-verified release archive whose binary is only copied',
    path: 'scripts/install.sh',
    text: '#!/bin/bash\nset -euo pipefail\ncurl -fL --max-time 60 -o rg.tar.gz https://github.com/BurntSushi/ripgrep/releases/download/14.1.0/ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz\necho "f84757b07f425fe5cf11d87df6644691c644a5cd2348a2c670894272999d3ba7  rg.tar.gz" | sha256sum --check\ntar -xzf rg.tar.gz\ninstall -m 755 ripgrep-14.1.0-x86_64-unknown-linux-musl/rg ~/.local/bin/rg\n',
    absent: ['SC2'],
  },
  {
    name: 'the word "checksum" in a comment is no check: the archive build is still reported',
    path: 'scripts/deps.sh',
    text: '#!/bin/bash\n# checksum verified upstream\ncurl -fsSL --max-time 60 -o tool.tar.gz https://cdn.example-plugins.io/tool.tar.gz\ntar xzf tool.tar.gz\ncd tool && make install\n',
    expect: [['SC2', 3]],
  },
  {
    name: 'a download run after a check that names it, with no digest pinned anywhere, is reported',
    path: 'scripts/run.sh',
    text: '#!/bin/bash\ncurl -fsSL --max-time 60 -o helper.sh https://cdn.example-plugins.io/helper.sh\nsha256sum helper.sh\nbash helper.sh\n',
    expect: [['SC2', 4]],
  },
  {
    name: 'no SC2: a download run only after it is checked against a digest the file pins',
    path: 'scripts/fonts.sh',
    text: '#!/bin/bash\nSUM=3b1f0c9a5e2d4f6a8b7c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c\ncurl -fsSLo fonts.sh https://releases.example-fonts.io/v1/fonts.sh\necho "$SUM  fonts.sh" | sha256sum -c -\nbash fonts.sh\n',
    absent: ['SC2'],
  },
  {
    name: 'no SC2: a data archive downloaded and unpacked, nothing run from it',
    path: 'scripts/data.sh',
    text: '#!/bin/bash\ncurl -fL --max-time 60 -o data.zip https://example.org/dataset.zip\nunzip -o data.zip -d data\nmake report\n',
    absent: ['SC2'],
  },
];

describe('SC2: downloaded archive built or run', () => {
  it.each(cases)('$name', (c) => check(c));
});
