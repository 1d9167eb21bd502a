import { describe, expect, it } from 'vitest';
import { declaredTools, toolOf } from '../../../src/detonate/tool-credentials.js';

const proc = (executable: string, argv: string[]) => ({ pid: 1, ppid: null, executable, argv, exit: null });

describe('toolOf: which tool a process is, from its own program', () => {
  it('knows installed package managers and git helpers', () => {
    expect(toolOf(proc('/usr/bin/node', ['node', '/usr/bin/npm', 'install']))).toBe('npm');
    expect(toolOf(proc('/usr/local/bin/python3.12', ['python3', '/usr/local/bin/pip', 'install', 'x']))).toBe(
      'pip',
    );
    expect(toolOf(proc('/usr/bin/pip3.11', ['pip3.11', 'download', 'x']))).toBe('pip');
    expect(toolOf(proc('/usr/lib/git-core/git-remote-https', ['git-remote-https', 'origin']))).toBe('git');
  });

  it("never takes the skill's own files for a tool, nor a script npm runs for npm", () => {
    const skill = '/home/skill/work/.claude/skills/x';
    expect(toolOf(proc(`${skill}/bin/npm`, ['npm', 'install']))).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', `${skill}/npm`, 'install']))).toBeNull();
    expect(toolOf(proc('/usr/bin/node', ['node', 'npm']))).toBeNull();
    // A lifecycle script (`node install.js` under node_modules) is the package's code, not npm.
    expect(toolOf(proc('/usr/bin/node', ['node', 'install.js']))).toBeNull();
    // python -m imports from the working directory first, which the skill controls.
    expect(toolOf(proc('/usr/bin/python3', ['python3', '-m', 'pip', 'install', 'x']))).toBeNull();
  });

  it('counts other CLIs only when the skill declares them', () => {
    expect(declaredTools('description: Manage issues').has('gh')).toBe(false);
    expect(declaredTools('{"requires":{"bins":["gh"]}}').has('gh')).toBe(true);
    expect(declaredTools('').has('npm')).toBe(true);
  });
});
