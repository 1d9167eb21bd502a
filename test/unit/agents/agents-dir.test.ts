// Where harnesses are installed: SKILLAUDIT_AGENTS_DIR, the machine-wide cache when this user can write it,
// then $XDG_CACHE_HOME, then ~/.cache. Real folders on disk decide "can write" (an ancestor that is a file
// cannot hold a folder, whoever runs the test).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentsDir, SYSTEM_AGENTS_DIR } from '../../../src/agents/install.js';

const root = mkdtempSync(join(tmpdir(), 'skillaudit-agents-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const blocked = join(root, 'a-file');
writeFileSync(blocked, 'not a folder');
const unusableSystem = join(blocked, 'skillaudit', 'agents');

describe('agentsDir resolution order', () => {
  it('defaults to the machine-wide cache', () => {
    expect(SYSTEM_AGENTS_DIR).toBe('/var/cache/skillaudit/agents');
  });

  it('SKILLAUDIT_AGENTS_DIR wins over everything, made absolute', () => {
    const system = mkdtempSync(join(root, 'sys-'));
    expect(agentsDir({ SKILLAUDIT_AGENTS_DIR: '/opt/sa/agents', XDG_CACHE_HOME: '/x' }, system)).toBe(
      '/opt/sa/agents',
    );
    expect(agentsDir({ SKILLAUDIT_AGENTS_DIR: 'rel/agents' }, system)).toBe(
      join(process.cwd(), 'rel/agents'),
    );
  });

  it('the machine-wide cache when it exists and is writable, or can be created', () => {
    const system = mkdtempSync(join(root, 'sys-'));
    expect(agentsDir({ XDG_CACHE_HOME: '/x' }, system)).toBe(system);
    const notYet = join(system, 'skillaudit', 'agents');
    expect(agentsDir({ XDG_CACHE_HOME: '/x' }, notYet)).toBe(notYet);
  });

  it('falls back to $XDG_CACHE_HOME/skillaudit/agents when the machine-wide cache is unusable', () => {
    expect(agentsDir({ XDG_CACHE_HOME: '/srv/cache', HOME: '/home/u' }, unusableSystem)).toBe(
      '/srv/cache/skillaudit/agents',
    );
  });

  it('then to ~/.cache/skillaudit/agents', () => {
    const home = join(root, 'home');
    mkdirSync(home);
    expect(agentsDir({ HOME: home }, unusableSystem)).toBe(join(home, '.cache', 'skillaudit', 'agents'));
    expect(agentsDir({ HOME: home, XDG_CACHE_HOME: '' }, unusableSystem)).toBe(
      join(home, '.cache', 'skillaudit', 'agents'),
    );
  });
});
