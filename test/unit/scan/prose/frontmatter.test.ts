import { describe, expect, it } from 'vitest';
import { editDistance, typosquatOf } from '../../../../src/scan/detectors/frontmatter-namespace.js';
import { toolGrants } from '../../../../src/scan/detectors/frontmatter-permissions.js';
import { makeSkill, scanFile, strongest } from './make-skill.js';

// SC4 (name, typosquats, false official claims) and PE1 (allowed-tools) from SKILL.md frontmatter.

function skillWith(frontmatter: string, body = 'Use the tool.\n', options = {}) {
  return makeSkill({ 'SKILL.md': `---\n${frontmatter}\n---\n${body}` }, options);
}

describe('fm.name-folder-mismatch (SC4)', () => {
  const rule = 'fm.name-folder-mismatch';

  it('finds a name that differs from the folder, on the name line', async () => {
    const hit = strongest(
      await scanFile(
        skillWith('description: d\nname: pdf-tools', undefined, { folderName: 'invoice-helper' }),
      ),
      rule,
    );
    expect(hit).toMatchObject({ line: 3, evidence: 'name: pdf-tools' });
    expect(hit?.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it('is quiet for a matching folder and low for packaging suffixes or case', async () => {
    expect(strongest(await scanFile(skillWith('name: pdf-tools\ndescription: d')), rule)).toBeUndefined();
    const zip = strongest(
      await scanFile(
        skillWith('name: pdf-tools\ndescription: d', undefined, { folderName: 'pdf-tools-main' }),
      ),
      rule,
    );
    expect(zip?.confidence).toBeLessThan(0.3);
    const cased = strongest(
      await scanFile(skillWith('name: PDF-Tools\ndescription: d', undefined, { folderName: 'pdf-tools' })),
      rule,
    );
    expect(cased?.confidence).toBeLessThan(0.4);
  });
});

describe('fm.typosquat-name (SC4)', () => {
  it.each([
    ['skill-creater', 'skill-creator'],
    ['mcp-bulder', 'mcp-builder'],
    ['clawhubb', 'clawhub'],
    ['c1awhub', 'clawhub'],
    ['playwrigth', 'playwright'],
  ])('%s imitates %s', (name, target) => {
    expect(typosquatOf(name)?.target).toBe(target);
  });

  it.each(['skill-creator', 'pdf', 'csv-insights', 'slack-digest', 'notion-sync', 'weather-brief'])(
    '%s is not a typosquat',
    (name) => {
      expect(typosquatOf(name)).toBeNull();
    },
  );

  it('reports it on the name line', async () => {
    const hit = strongest(
      await scanFile(skillWith('name: skill-creater\ndescription: d')),
      'fm.typosquat-name',
    );
    expect(hit).toMatchObject({ line: 2 });
  });

  it('computes transpositions as one edit', () => {
    expect(editDistance('playwrigth', 'playwright')).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });
});

describe('md.false-official-claim (SC4)', () => {
  const rule = 'md.false-official-claim';

  it.each([
    'description: The official pptx skill by Anthropic, now faster.',
    'description: The official LinkedIn resume skill.',
    'description: Verified by OpenAI for production use.',
  ])('finds %s', async (line) => {
    const hit = strongest(await scanFile(skillWith(`name: demo-skill\n${line}`)), rule);
    expect(hit?.line).toBe(3);
  });

  it('accepts the claim from the vendor itself and ignores disclaimers', async () => {
    const own = await scanFile(
      skillWith('name: demo-skill\ndescription: The official pptx skill by Anthropic.', undefined, {
        owner: 'anthropics',
      }),
    );
    expect(strongest(own, rule)).toBeUndefined();
    const disclaimer = await scanFile(
      skillWith('name: demo-skill\ndescription: Not an official Anthropic skill; community maintained.'),
    );
    expect(strongest(disclaimer, rule)).toBeUndefined();
    const sdk = await scanFile(skillWith('name: demo-skill\ndescription: Calls the official OpenAI SDK.'));
    expect(strongest(sdk, rule)).toBeUndefined();
  });
});

describe('fm.allowed-tools-broad (PE1)', () => {
  const rule = 'fm.allowed-tools-broad';

  it('splits grants, keeping parentheses whole', () => {
    expect(toolGrants('Bash(git add:*), Read Write')).toEqual(['Bash(git add:*)', 'Read', 'Write']);
    expect(toolGrants(['Bash(*)', 'WebFetch'])).toEqual(['Bash(*)', 'WebFetch']);
  });

  it.each([
    ['allowed-tools: "*"', 0.7],
    ['allowed-tools: Bash, WebFetch, Read', 0.55],
    ['allowed-tools: Bash(*) Read', 0.5],
    ['allowed-tools:\n  - Bash\n  - WebSearch', 0.55],
  ])('finds %s', async (line, min) => {
    const hit = strongest(await scanFile(skillWith(`name: demo-skill\ndescription: d\n${line}`)), rule);
    expect(hit?.line).toBe(4);
    expect(hit?.confidence).toBeGreaterThanOrEqual(min);
  });

  it('spans a YAML list under the key', async () => {
    const hit = strongest(
      await scanFile(skillWith('name: demo-skill\ndescription: d\nallowed-tools:\n  - Bash\n  - WebSearch')),
      rule,
    );
    expect(hit).toMatchObject({ line: 4, endLine: 6 });
  });

  it('is quiet for narrow grants and for Bash when the skill uses the shell', async () => {
    expect(
      strongest(
        await scanFile(
          skillWith('name: demo-skill\ndescription: d\nallowed-tools: Bash(python scripts/run.py:*) Read'),
        ),
        rule,
      ),
    ).toBeUndefined();
    const shellBody = 'Run:\n\n```bash\npython scripts/run.py\n```\n';
    expect(
      strongest(
        await scanFile(skillWith('name: demo-skill\ndescription: d\nallowed-tools: Bash Read', shellBody)),
        rule,
      ),
    ).toBeUndefined();
  });

  it('notes unrestricted Bash in a skill that never uses a shell', async () => {
    const hit = strongest(
      await scanFile(skillWith('name: demo-skill\ndescription: d\nallowed-tools: Bash Read')),
      rule,
    );
    expect(hit?.confidence).toBeGreaterThan(0.3);
    expect(hit?.rationale).toContain('no scripts or shell blocks');
  });
});
