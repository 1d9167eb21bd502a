import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../../src/intake/discover.js';
import { type Area, makeArea, writeSkill, writeTree } from '../../support/intake/fixtures.js';

let area: Area;
beforeAll(() => {
  area = makeArea('discover');
});
afterAll(() => area.cleanup());

describe('discoverSkills', () => {
  it('finds skill roots in path order, not descending into skills, links or skipped folders', async () => {
    const root = join(area.fixtures, 'corpus');
    writeSkill(join(root, 'b'), 'b', { 'nested/SKILL.md': 'inner' });
    writeSkill(join(root, 'a', 'deep', 'x'), 'x');
    writeTree(root, {
      'node_modules/m/SKILL.md': 'no',
      '.git/SKILL.md': 'no',
      'dir-named/SKILL.md/file': 'no',
    });
    writeSkill(join(area.outside, 'elsewhere'), 'elsewhere');
    symlinkSync(join(area.outside, 'elsewhere'), join(root, 'linked'));
    expect(await discoverSkills(root, 32)).toEqual({
      roots: ['a/deep/x', 'b'],
      depthLimited: false,
      tooManyFolders: false,
      unsearched: [],
    });
    expect(await discoverSkills(join(root, 'b'), 32)).toMatchObject({ roots: ['.'] });
  });

  it('names folders it could not search instead of skipping them silently', async () => {
    const root = join(area.fixtures, 'odd-names');
    writeSkill(join(root, 'fine'), 'fine');
    mkdirSync(Buffer.concat([Buffer.from(`${root}/bad`), Buffer.from([0xfe])]));
    expect(await discoverSkills(root, 32)).toMatchObject({
      roots: ['fine'],
      unsearched: [{ path: 'bad\ufffd', reason: 'name is not valid UTF-8' }],
    });
  });

  it('reports when the depth limit or the folder budget stopped the search', async () => {
    const root = join(area.fixtures, 'wide');
    for (let i = 0; i < 20; i++) mkdirSync(join(root, `d${i}`, 'inner'), { recursive: true });
    expect(await discoverSkills(root, 1)).toMatchObject({
      roots: [],
      depthLimited: true,
      tooManyFolders: false,
    });
    expect(await discoverSkills(root, 32, 10)).toMatchObject({
      roots: [],
      depthLimited: false,
      tooManyFolders: true,
    });
  });
});
