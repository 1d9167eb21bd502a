// Trojan Source: bidi overrides and isolates in left-to-right code show a reviewer other code than runs.
// Right-to-left text (Hebrew, Arabic) in strings may carry bidi marks for display and is left alone.
import { describe, it } from 'vitest';
import { type Case, check } from './cases.js';

const RLO = '\u202e';
const LRI = '\u2066';
const PDI = '\u2069';

const cases: Case[] = [
  {
    name: 'a python condition that looks closed by a comment but is not',
    path: 'scripts/check.py',
    text: `level = "user"\nif level != "none${RLO} ${LRI}# admins only${PDI} ${LRI}":\n    print("granted")\n`,
    expect: [['SC3', 2]],
  },
  {
    name: 'a javascript early return hidden inside what displays as a comment',
    path: 'scripts/auth.js',
    text: `function isAdmin(user) {\n  /* check role ${RLO} ${LRI}*/ return true; /*${PDI} ${LRI}*/\n  return user.role === 'admin';\n}\n`,
    expect: [['SC3', 2]],
  },
  {
    name: 'a right-to-left string with its own direction marks',
    path: 'scripts/greet.py',
    text: `GREETING = "${LRI}\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd${PDI}"\nprint(GREETING)\n`,
    absent: ['SC3'],
  },
  {
    name: 'plain left-to-right code with no controls',
    path: 'scripts/plain.py',
    text: 'level = "user"\nif level != "none":  # admins only\n    print("granted")\n',
    absent: ['SC3'],
  },
];

describe('bidi controls in code (code.trojan-source)', () => {
  for (const c of cases) it(c.name, () => check(c));
});
