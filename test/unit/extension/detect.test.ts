import { describe, expect, it } from 'vitest';
import { detectSkill, type PageView } from '../../../extension/lib/detect.js';

// Detection over plain page data: which URLs are skills, which links confirm a folder, what goes to the server.

interface FakeLink {
  href: string;
  className?: string;
}

/** A page as the detectors see it: links (matched by the selectors the detectors use) and breadcrumb text. */
function page(links: FakeLink[], breadcrumb: string | null = null): PageView {
  return {
    linkHrefs: (selector) =>
      links
        .filter((link) => {
          if (selector === 'a[href*="/SKILL.md"]') return link.href.includes('/SKILL.md');
          if (selector === 'a[href^="https://github.com/"]')
            return link.href.startsWith('https://github.com/');
          if (selector === 'main a.plugin-external-link') return link.className === 'plugin-external-link';
          throw new Error(`unexpected selector ${selector}`);
        })
        .map((link) => link.href),
    text: (selector) => {
      if (selector !== 'nav[aria-label="Skill breadcrumbs"] [aria-current="page"]') {
        throw new Error(`unexpected selector ${selector}`);
      }
      return breadcrumb;
    },
  };
}

const NO_LINKS = page([]);

describe('GitHub', () => {
  it('a folder whose listing links its own SKILL.md is a skill; the folder URL is the source', () => {
    const listing = page([{ href: 'https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md' }]);
    expect(
      detectSkill('https://github.com/acme/skills/tree/main/skills/pdf-tools?tab=x#readme', listing),
    ).toEqual({
      site: 'github',
      name: 'pdf-tools',
      source: 'https://github.com/acme/skills/tree/main/skills/pdf-tools',
    });
  });

  it('a folder that only links other folders’ SKILL.md files is not a skill', () => {
    const readme = page([
      { href: 'https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md' },
      { href: 'https://github.com/acme/skills/blob/main/skills/csv-tools/SKILL.md' },
      { href: 'https://github.com/other/repo/blob/main/skills/SKILL.md' },
    ]);
    expect(detectSkill('https://github.com/acme/skills/tree/main/skills', readme)).toBeNull();
  });

  it('a SKILL.md file view is a skill without reading the page', () => {
    expect(
      detectSkill('https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md', NO_LINKS),
    ).toEqual({
      site: 'github',
      name: 'pdf-tools',
      source: 'https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md',
    });
    expect(detectSkill('https://github.com/acme/one/blob/v2/SKILL.md', NO_LINKS)?.name).toBe('one');
  });

  it('other files and pages are not skills', () => {
    for (const url of [
      'https://github.com/acme/skills/blob/main/skills/pdf-tools/README.md',
      'https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md.bak',
      'https://github.com/acme/skills/issues/3',
      'https://github.com/acme',
      'https://github.com/',
    ]) {
      expect(detectSkill(url, page([{ href: `${url}/SKILL.md` }])), url).toBeNull();
    }
  });

  it('a repository root is a skill when the listing links SKILL.md at the root; the ref comes from that link', () => {
    const root = page([
      { href: 'https://github.com/acme/one/blob/trunk/docs/SKILL.md' },
      { href: 'https://github.com/acme/one/blob/trunk/SKILL.md' },
    ]);
    expect(detectSkill('https://github.com/acme/one', root)).toEqual({
      site: 'github',
      name: 'one',
      source: 'https://github.com/acme/one/tree/trunk',
    });
    expect(
      detectSkill(
        'https://github.com/acme/one',
        page([{ href: 'https://github.com/acme/one/blob/trunk/docs/SKILL.md' }]),
      ),
    ).toBeNull();
  });

  it('a link to the same path on another host does not count', () => {
    const elsewhere = page([{ href: 'https://evil.example/acme/skills/blob/main/x/SKILL.md' }]);
    expect(detectSkill('https://github.com/acme/skills/tree/main/x', elsewhere)).toBeNull();
  });

  it('names from the URL are decoded for display and kept encoded in the source', () => {
    const url = 'https://github.com/acme/skills/blob/main/%3Cb%3Ebold%3C%2Fb%3E/SKILL.md';
    expect(detectSkill(url, NO_LINKS)).toMatchObject({ name: '<b>bold</b>', source: url });
  });
});

describe('skills.sh', () => {
  it('an owner/repo/skill page linking its repository is a skill; the page URL is the source', () => {
    const skillPage = page([
      { href: 'https://github.com/vercel-labs/skills' },
      { href: 'https://github.com/acme/skills' },
    ]);
    expect(detectSkill('https://skills.sh/acme/skills/csv-tools', skillPage)).toEqual({
      site: 'skills.sh',
      name: 'csv-tools',
      source: 'https://skills.sh/acme/skills/csv-tools',
    });
  });

  it('the home page, owner pages and pages not linking their repository are not skills', () => {
    const header = page([{ href: 'https://github.com/vercel-labs/skills' }]);
    expect(detectSkill('https://skills.sh/', header)).toBeNull();
    expect(
      detectSkill('https://skills.sh/acme/skills', page([{ href: 'https://github.com/acme/skills' }])),
    ).toBeNull();
    expect(detectSkill('https://skills.sh/acme/skills/csv-tools', header)).toBeNull();
  });
});

describe('ClawHub', () => {
  it('a skill page sends the GitHub repository it links and its slug', () => {
    const skillPage = page(
      [
        { href: 'https://github.com/openclaw/clawhub' },
        { href: 'https://github.com/acme/skills', className: 'plugin-external-link' },
      ],
      'pdf-tools',
    );
    expect(detectSkill('https://clawhub.ai/acme/pdf-tools', skillPage)).toEqual({
      site: 'clawhub',
      name: 'pdf-tools',
      source: 'https://github.com/acme/skills',
      skill: 'pdf-tools',
    });
  });

  it('a skill uploaded without a GitHub source is detected with no source', () => {
    expect(detectSkill('https://clawhub.ai/acme/pdf-tools', page([], 'pdf-tools'))).toMatchObject({
      name: 'pdf-tools',
      source: null,
    });
  });

  it('pages without the skill breadcrumb are not skills', () => {
    expect(
      detectSkill('https://clawhub.ai/skills', page([{ href: 'https://github.com/acme/skills' }])),
    ).toBeNull();
  });
});

it('other hosts are never skills', () => {
  expect(detectSkill('https://gitlab.com/acme/skills/-/blob/main/SKILL.md', NO_LINKS)).toBeNull();
  expect(
    detectSkill('https://github.com.evil.example/acme/skills/blob/main/x/SKILL.md', NO_LINKS),
  ).toBeNull();
});
