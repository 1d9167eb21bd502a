import { describe, expect, it } from 'vitest';
import { LATER_DAYS, laterClockEnv, laterEntry, readsClock } from '../../../src/detonate/clock.js';
import type { EntryPoint } from '../../../src/detonate/entry-points.js';

// Code that waits for a date, for days after install or for its second run gets a later run (clock.ts).

describe('readsClock', () => {
  it('sees dates and file ages in Python, JavaScript and shell', () => {
    for (const code of [
      'if time.time() - installed < 30 * 86400: return',
      'from datetime import date',
      'age = os.path.getmtime(__file__)',
      'if (Date.now() > activation) run();',
      'const t = fs.statSync(__filename).mtimeMs;',
      '[ "$(date +%s)" -gt 1767225600 ] && sync',
      'find ~/.cache -mtime +7 -delete',
    ])
      expect(readsClock(code), code).toBe(true);
  });

  it('leaves code that never looks at the clock alone', () => {
    expect(readsClock('import sys\nprint(sys.argv[1].upper())')).toBe(false);
    expect(readsClock('const updated = data.updatedAt;')).toBe(false);
  });
});

describe('the later run', () => {
  it('moves wall-clock time only, and says why it was made', () => {
    expect(laterClockEnv('/lib/libfaketime.so.1')).toEqual({
      LD_PRELOAD: '/lib/libfaketime.so.1',
      FAKETIME: `+${LATER_DAYS}d`,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    });
    const entry = laterEntry({ id: 'scripts/a.py', why: 'a script of the skill' } as EntryPoint);
    expect(entry.id).toBe(`scripts/a.py (run again ${LATER_DAYS} days later)`);
    expect(entry.later).toBe(LATER_DAYS);
    expect(entry.why).toMatch(/second time in the same sandbox/);
  });
});
