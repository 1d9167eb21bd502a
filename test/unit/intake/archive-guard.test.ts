import { describe, expect, it } from 'vitest';
import { safeEntryPath } from '../../../src/intake/archive-guard.js';
import { UserError } from '../../../src/util/errors.js';

describe('safeEntryPath', () => {
  it('normalises harmless names', () => {
    expect(safeEntryPath('skill/SKILL.md')).toBe('skill/SKILL.md');
    expect(safeEntryPath('./skill//scripts/./run.py')).toBe('skill/scripts/run.py');
    expect(safeEntryPath('skill/')).toBe('skill');
    expect(safeEntryPath('./')).toBeNull();
  });

  it.each([
    ['../evil.sh', 'archive entry "../evil.sh" climbs out of the archive with ".."; the archive was refused'],
    [
      'skill/../../evil',
      'archive entry "skill/../../evil" climbs out of the archive with ".."; the archive was refused',
    ],
    ['/etc/cron.d/x', 'archive entry "/etc/cron.d/x" is an absolute path; the archive was refused'],
    ['C:/Windows/x', 'archive entry "C:/Windows/x" starts with a drive letter; the archive was refused'],
    [
      '..\\..\\evil',
      'archive entry "..\\\\..\\\\evil" contains a backslash (a Windows path separator); the archive was refused',
    ],
    ['a\u0000b', 'archive entry "a\\u0000b" contains control characters; the archive was refused'],
  ])('refuses %j', (name, message) => {
    let caught: unknown;
    try {
      safeEntryPath(name);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect(caught).toMatchObject({ code: 'UNSAFE_ARCHIVE', message });
  });
});
