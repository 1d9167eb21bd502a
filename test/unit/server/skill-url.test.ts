import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/api-error.js';
import {
  checkSubmittable,
  intakeSource,
  parseSkillUrl,
  repoKey,
  sourceKey,
} from '../../../src/server/skill-url.js';

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseSkillUrl', () => {
  it('reads intake-style git URLs with .git, @ref and #subdir', () => {
    expect(parseSkillUrl('https://github.com/acme/skills.git@v1.2#skills/pdf')).toEqual({
      host: 'github.com',
      repo: 'acme/skills',
      ref: 'v1.2',
      subdir: 'skills/pdf',
      skill: null,
    });
    expect(parseSkillUrl('https://github.com/acme/skills/', 'pdf')).toEqual({
      host: 'github.com',
      repo: 'acme/skills',
      ref: null,
      subdir: null,
      skill: 'pdf',
    });
  });

  it('reads GitHub tree and blob pages as repository, ref and folder', () => {
    const tree = parseSkillUrl('https://github.com/acme/skills/tree/main/skills/pdf');
    expect(tree).toMatchObject({ repo: 'acme/skills', ref: 'main', subdir: 'skills/pdf' });
    const blob = parseSkillUrl('https://www.github.com/acme/skills/blob/main/skills/pdf/SKILL.md?plain=1');
    expect(blob).toMatchObject({ host: 'github.com', ref: 'main', subdir: 'skills/pdf' });
    // A blob of another file means the folder that holds it; a tree path keeps dots in folder names.
    expect(parseSkillUrl('https://github.com/a/r/blob/v2/skills/pdf/scripts/run.py').subdir).toBe(
      'skills/pdf/scripts',
    );
    expect(parseSkillUrl('https://github.com/a/r/tree/main/skills/v1.2').subdir).toBe('skills/v1.2');
    expect(parseSkillUrl('https://github.com/a/r/tree/main')).toMatchObject({ ref: 'main', subdir: null });
  });

  it('reads GitLab, Codeberg and Bitbucket page URLs', () => {
    expect(parseSkillUrl('https://gitlab.com/grp/sub/repo/-/tree/dev/skills/x')).toMatchObject({
      repo: 'grp/sub/repo',
      ref: 'dev',
      subdir: 'skills/x',
    });
    expect(parseSkillUrl('https://codeberg.org/o/r/src/branch/main/s/x')).toMatchObject({
      ref: 'main',
      subdir: 's/x',
    });
    expect(parseSkillUrl('https://bitbucket.org/o/r/src/main/s/x/SKILL.md')).toMatchObject({
      ref: 'main',
      subdir: 's/x',
    });
  });

  it('maps a skills.sh page to the GitHub repository and the skill name', () => {
    expect(parseSkillUrl('https://skills.sh/acme/skills/pdf-tools')).toEqual({
      host: 'github.com',
      repo: 'acme/skills',
      ref: null,
      subdir: null,
      skill: 'pdf-tools',
    });
    expect(refusal(() => parseSkillUrl('https://skills.sh/acme/skills')).code).toBe('BAD_SOURCE');
  });

  it('refuses other schemes, credentials, odd ports and paths that leave the repository', () => {
    expect(refusal(() => parseSkillUrl('http://github.com/a/r')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('ssh://git@github.com/a/r')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('file:///etc/passwd')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('https://user:tok@github.com/a/r')).message).toMatch(/credentials/);
    const port = refusal(() => parseSkillUrl('https://github.com:8443/a/r'));
    expect([port.status, port.code]).toEqual([403, 'FORBIDDEN_PORT']);
    expect(parseSkillUrl('https://github.com:443/a/r').repo).toBe('a/r');
    expect(refusal(() => parseSkillUrl('https://github.com/a/r#../../etc')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('https://github.com/a/r/tree/main/a%2F..%2F..%2Fetc')).status).toBe(
      400,
    );
    expect(refusal(() => parseSkillUrl('https://github.com/a/r@--upload-pack=x')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('https://github.com/onlyowner')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('https://github.com/acme/skills/issues/5')).status).toBe(400);
    expect(parseSkillUrl('https://gitlab.com/grp/sub/repo').repo).toBe('grp/sub/repo');
    expect(refusal(() => parseSkillUrl('not a url')).status).toBe(400);
    expect(refusal(() => parseSkillUrl('https://github.com/a/r', 'bad name!')).status).toBe(400);
    expect(refusal(() => parseSkillUrl(`https://github.com/a/${'r'.repeat(3000)}`)).status).toBe(400);
  });
});

describe('canonical keys', () => {
  it('gives a submission and every page URL of the same skill one key', () => {
    const forms = [
      'https://github.com/Acme/Skills/tree/main/skills/pdf',
      'https://github.com/acme/skills.git@main#skills/pdf',
      'https://github.com/acme/skills/blob/main/skills/pdf/SKILL.md',
    ];
    const keys = new Set(forms.map((f) => sourceKey(parseSkillUrl(f))));
    expect([...keys]).toEqual(['github.com/acme/skills@main#skills/pdf']);
    expect(sourceKey(parseSkillUrl('https://skills.sh/acme/skills/pdf'))).toBe(
      'github.com/acme/skills?skill=pdf',
    );
    expect(repoKey(parseSkillUrl('https://skills.sh/Acme/Skills/pdf'))).toBe('github.com/acme/skills');
  });

  it('keeps case where the host may not fold it, and builds the intake source from the written path', () => {
    const target = parseSkillUrl('https://git.example.org/Team/Repo@v1#a/b');
    expect(repoKey(target)).toBe('git.example.org/Team/Repo');
    expect(intakeSource(parseSkillUrl('https://github.com/Acme/Skills/tree/main/skills/pdf'))).toBe(
      'https://github.com/Acme/Skills@main#skills/pdf',
    );
  });

  it('refuses control characters, and submissions intake could not fetch as written', () => {
    for (const raw of [
      'https://github.com/o/r#a\nb',
      'https://github.com/o/r\t',
      'https://github.com/o/\u0085r',
    ]) {
      expect(refusal(() => parseSkillUrl(raw)).code, JSON.stringify(raw)).toBe('BAD_SOURCE');
    }
    const submittable = (raw: string) => () => checkSubmittable(raw, parseSkillUrl(raw));
    expect(refusal(submittable('https://github.com/o/r?x=1')).message).toMatch(/query string/);
    expect(refusal(submittable('https://github.com/o/r@a%2Fb')).message).toMatch(/refs containing/);
    expect(refusal(submittable('https://github.com/o/r/tree/a%2Fb/x')).message).toMatch(/refs containing/);
    expect(refusal(submittable('https://github.com/o/r#x%23y')).message).toMatch(/"#"/);
    expect(submittable('https://github.com/o/r/tree/v1.2/skills/pdf')).not.toThrow();
    // Lookups of page URLs with a query (GitHub adds ?tab=…) still parse.
    expect(parseSkillUrl('https://github.com/o/r?tab=readme-ov-file').repo).toBe('o/r');
  });
});
