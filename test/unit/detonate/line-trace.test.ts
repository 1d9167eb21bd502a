import { describe, expect, it } from 'vitest';
import { executed, takeLinesRun } from '../../../src/detonate/line-trace.js';

// The lines a run's Python reported, taken out of its stderr so stop reasons and artifacts read as the run wrote them.

describe('takeLinesRun', () => {
  const root = '/home/skill/work/.claude/skills/s';
  it('reads and removes the report, merging processes, keeping files under the skill only', () => {
    const stderr = [
      'Traceback: boom',
      `skillaudit-lines: ${root}/scripts/a.py 1,3,7`,
      `skillaudit-lines: ${root}/scripts/a.py 8`,
      'skillaudit-lines: /usr/lib/python3/x.py 1',
      '',
    ].join('\n');
    const taken = takeLinesRun(stderr, root);
    expect(taken.stderr).toBe('Traceback: boom\n');
    expect(taken.lines).toEqual({ 'scripts/a.py': [1, 3, 7, 8] });
    expect(executed(taken.lines!, 'scripts/a.py', 4, 7)).toBe(true);
    expect(executed(taken.lines!, 'scripts/a.py', 4, 6)).toBe(false);
    expect(executed(taken.lines!, 'scripts/b.py', 1, 1)).toBe(false);
  });

  it('names a file by its path in the skill, however the script was started', () => {
    expect(takeLinesRun(`skillaudit-lines: ${root}/./scripts/x.sh 4,5\n`, root).lines).toEqual({
      'scripts/x.sh': [4, 5],
    });
  });

  it('keeps a file that reported no line as having run none', () => {
    expect(takeLinesRun(`skillaudit-lines: ${root}/x.js \n`, root).lines).toEqual({ 'x.js': [] });
  });

  it('reports nothing when no Python said anything', () => {
    expect(takeLinesRun('plain error\n', root)).toEqual({ stderr: 'plain error\n', lines: null });
  });
});
