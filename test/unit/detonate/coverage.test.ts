import { describe, expect, it } from 'vitest';
import { missingDependency } from '../../../src/detonate/coverage.js';

// The dependency a run died on, by name, from what interpreters and shells print.

describe('missingDependency', () => {
  it('names the module, program or interpreter', () => {
    expect(missingDependency("ModuleNotFoundError: No module named 'requests'")).toEqual({
      kind: 'module',
      name: 'requests',
    });
    expect(missingDependency("Error: Cannot find module 'axios'\nRequire stack:")).toEqual({
      kind: 'module',
      name: 'axios',
    });
    expect(missingDependency('bash: line 1: ffmpeg: command not found')).toEqual({
      kind: 'program',
      name: 'ffmpeg',
    });
    expect(missingDependency('/bin/sh: 1: jq: not found')).toEqual({ kind: 'program', name: 'jq' });
    expect(
      missingDependency(
        'pwsh: PowerShell (pwsh) is not installed in the sandbox; the command was recorded, not run',
      ),
    ).toEqual({ kind: 'interpreter', name: 'PowerShell (pwsh)' });
    expect(missingDependency('Traceback: KeyError: 1')).toBeNull();
  });

  it('does not blame a missing command the shell went on past', () => {
    const stderr =
      'x.sh: line 10: attrib: command not found\nx.sh: line 21: /etc/sudoers: Read-only file system';
    expect(missingDependency(stderr, { stderr, exitCode: 1 })).toBeNull();
    expect(missingDependency(stderr, { stderr, exitCode: 127 })).toEqual({ kind: 'program', name: 'attrib' });
    const last = 'x.sh: line 3: uv: command not found';
    expect(missingDependency(last, { stderr: last, exitCode: 1 })).toEqual({ kind: 'program', name: 'uv' });
  });
});
