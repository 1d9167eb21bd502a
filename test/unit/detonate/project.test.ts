import { describe, expect, it } from 'vitest';
import { inProjectRoot, projectSeedFiles } from '../../../src/detonate/project.js';

// The lived-in project a skill runs in, and which relatively named files a run from its root would find.

describe('the sandbox project', () => {
  it("holds an agent's instruction and memory files and no secret of its own", () => {
    const paths = projectSeedFiles().map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['CLAUDE.md', 'AGENTS.md', 'SOUL.md', 'MEMORY.md', 'package.json']),
    );
    expect(paths).not.toContain('.env');
  });

  it('says which relative names the project root holds', () => {
    for (const name of ['.env', './SOUL.md', 'src', 'src/index.ts', 'package.json'])
      expect(inProjectRoot(name)).toBe(true);
    for (const name of ['config.json', 'data/input.csv', 'src/main.py'])
      expect(inProjectRoot(name)).toBe(false);
  });
});
