import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../extension/lib/audit.js';
import type { DetectedSkill } from '../../../extension/lib/detect.js';
import { age, nameSource, provenance } from '../../../extension/lib/provenance.js';

// What the badge says a verdict is for: which source, which commit, how old, and whether the page shows it.

const NOW = Date.parse('2026-03-10T12:00:00Z');
const SHA = 'fccb81a0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6';

function done(source: string | undefined, extra: Partial<Audit> = {}): Audit {
  return { id: 'a', status: 'done', ...(source ? { source } : {}), ...extra };
}

const githubPage = (source: string): DetectedSkill => ({ site: 'github', name: 'pdf', source });

describe('nameSource', () => {
  it('names the tree, blob and intake forms of one skill alike', () => {
    const expected = { label: 'github.com/acme/skills@main#skills/pdf', ref: 'main' };
    expect(nameSource('https://github.com/Acme/Skills/tree/main/skills/pdf')).toEqual(expected);
    expect(nameSource('https://github.com/acme/skills/blob/main/skills/pdf/SKILL.md')).toEqual(expected);
    expect(nameSource('https://github.com/acme/skills.git@main#skills/pdf')).toEqual(expected);
    expect(nameSource('https://github.com/acme/skills')).toEqual({ label: 'github.com/acme/skills' });
    expect(nameSource('https://github.com/acme/skills#skills/pdf')).toEqual({
      label: 'github.com/acme/skills#skills/pdf',
    });
    expect(nameSource('https://github.com/acme/skills/tree/main/skills/pdf#readme')?.label).toBe(
      'github.com/acme/skills@main#skills/pdf',
    );
    expect(nameSource('https://skills.sh/acme/skills/pdf/')).toEqual({ label: 'skills.sh/acme/skills/pdf' });
    expect(nameSource('not a url')).toBeUndefined();
  });
});

describe('provenance', () => {
  it('says nothing more than commit and age when the audit is of the page itself', () => {
    const page = 'https://github.com/acme/skills/tree/main/skills/pdf';
    const audit = done('https://github.com/acme/skills.git@main#skills/pdf', {
      commit: SHA,
      finishedAt: '2026-03-08T11:00:00Z',
    });
    expect(provenance(githubPage(page), audit, NOW)).toEqual({
      linkedRepository: false,
      commit: 'fccb81a',
      age: '2 days ago',
      auditRef: 'main',
    });
  });

  it('names the audited source when the lookup answered with another one', () => {
    const skill: DetectedSkill = {
      site: 'skills.sh',
      name: 'pdf',
      source: 'https://skills.sh/acme/skills/pdf',
    };
    const result = provenance(skill, done('https://github.com/acme/skills/tree/main/skills/pdf'), NOW);
    expect(result.verdictFor).toBe('github.com/acme/skills@main#skills/pdf');
    expect(result.pageRef).toBeUndefined();
  });

  it('on ClawHub always names the linked repository, even when the audit is of exactly that link', () => {
    const skill: DetectedSkill = {
      site: 'clawhub',
      name: 'md-lint',
      source: 'https://github.com/acme/md-lint',
      skill: 'md-lint',
    };
    const result = provenance(skill, done('https://github.com/acme/md-lint'), NOW);
    expect(result).toMatchObject({ linkedRepository: true, verdictFor: 'github.com/acme/md-lint' });
  });

  it('flags a page at another ref than the audit, including the server’s fall-back to the default branch', () => {
    const page = githubPage('https://github.com/acme/skills/tree/v2/skills/pdf');
    expect(provenance(page, done('https://github.com/acme/skills/tree/v1/skills/pdf'), NOW)).toMatchObject({
      pageRef: 'v2',
      auditRef: 'v1',
      verdictFor: 'github.com/acme/skills@v1#skills/pdf',
    });
    const fallBack = provenance(page, done('https://github.com/acme/skills', { commit: SHA }), NOW);
    expect(fallBack).toMatchObject({ pageRef: 'v2', commit: 'fccb81a' });
    expect(fallBack.auditRef).toBeUndefined();
  });

  it('believes the server on where the page’s ref points now, whatever ref the audit was submitted under', () => {
    const release = githubPage('https://github.com/acme/skills/tree/release/skills/pdf');
    const atTag = done('https://github.com/acme/skills.git@v1#skills/pdf', { commit: SHA });
    // The tag's audit is of the commit the release branch shows: the same version.
    expect(provenance(release, atTag, NOW, SHA).pageRef).toBeUndefined();
    expect(provenance(release, atTag, NOW).pageRef).toBe('release');
    // The branch moved on after its audit: the audit is of an older version, though both say "main".
    const main = githubPage('https://github.com/acme/skills/tree/main/skills/pdf');
    const atMain = done('https://github.com/acme/skills.git@main#skills/pdf', { commit: SHA });
    const moved = provenance(main, atMain, NOW, 'a'.repeat(40));
    expect(moved).toMatchObject({ pageRef: 'main', commit: 'fccb81a', auditRef: 'main' });
    // An audit still queued has no commit yet: the page's ref decides, as before.
    expect(
      provenance(main, done('https://github.com/acme/skills.git@main#skills/pdf'), NOW, SHA).pageRef,
    ).toBe(undefined);
  });

  it('a page at the audited commit shows the audited version; an answer without a source proves nothing', () => {
    const atCommit = githubPage('https://github.com/acme/skills/tree/fccb81a0/skills/pdf');
    const audit = done('https://github.com/acme/skills/tree/main/skills/pdf', { commit: SHA });
    expect(provenance(atCommit, audit, NOW).pageRef).toBeUndefined();
    const page = githubPage('https://github.com/acme/skills/tree/main/skills/pdf');
    expect(provenance(page, done(undefined, { commit: SHA }), NOW).pageRef).toBe('main');
  });
});

it('age reads minutes, hours and days', () => {
  expect(age('2026-03-10T11:59:30Z', NOW)).toBe('just now');
  expect(age('2026-03-10T11:15:00Z', NOW)).toBe('45 min ago');
  expect(age('2026-03-09T00:00:00Z', NOW)).toBe('36 h ago');
  expect(age('2026-01-01T00:00:00Z', NOW)).toBe('68 days ago');
  expect(age('2026-03-11T00:00:00Z', NOW)).toBe('just now');
});
