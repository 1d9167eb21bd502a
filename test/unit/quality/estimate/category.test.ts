import { describe, expect, it } from 'vitest';
import {
  classifyByKeywords,
  normaliseCategory,
  skillCategory,
} from '../../../../src/quality/estimate/category.js';

const skill = (frontmatter: Record<string, unknown>, description = '', body = '', name = 'x') => ({
  frontmatter,
  name,
  description,
  body,
});

describe('skillCategory', () => {
  it('takes the author’s category from the frontmatter, normalised', () => {
    expect(skillCategory(skill({ category: 'Data Analysis' }))).toEqual({
      name: 'data-analysis',
      source: 'frontmatter',
    });
    expect(skillCategory(skill({ metadata: { category: 'Finance_Tools' } }))).toEqual({
      name: 'finance-tools',
      source: 'frontmatter',
    });
  });

  it('uses a tag that names a known category, else feeds the tags to the keyword classifier', () => {
    expect(skillCategory(skill({ tags: ['pdf', 'Security'] }))).toEqual({ name: 'security', source: 'tags' });
    expect(skillCategory(skill({ tags: 'docker, kubernetes' }))).toEqual({
      name: 'devops',
      source: 'keywords',
    });
  });

  it('classifies by keywords in the name and description, then the body, else the default', () => {
    expect(skillCategory(skill({}, 'Merge and split PDF documents page by page')).name).toBe('documents');
    expect(skillCategory(skill({}, 'Does things', 'Send the email to the slack channel.'))).toEqual({
      name: 'communication',
      source: 'keywords',
    });
    expect(skillCategory(skill({}, 'Does things', 'Nothing to see'))).toEqual({
      name: 'general',
      source: 'default',
    });
  });

  it('ignores frontmatter values that are not strings or normalise to nothing', () => {
    expect(skillCategory(skill({ category: 42, metadata: 'x' }, 'invoice budget')).source).toBe('keywords');
    expect(skillCategory(skill({ category: '!!!' }, '')).source).toBe('default');
  });
});

describe('classifyByKeywords', () => {
  it('counts stemmed keywords and breaks ties by category order', () => {
    expect(classifyByKeywords('deploying containers to the cluster')).toBe('devops');
    // one security keyword, one devops keyword: security comes first in the data
    expect(classifyByKeywords('password docker')).toBe('security');
    expect(classifyByKeywords('')).toBeNull();
  });

  it('normalises separators and strips punctuation', () => {
    expect(normaliseCategory('  Dev / Ops!  ')).toBe('dev-ops');
  });
});
