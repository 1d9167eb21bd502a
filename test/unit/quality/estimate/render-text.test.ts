import { describe, expect, it } from 'vitest';
import { estimateSkill } from '../../../../src/quality/estimate/estimate-json.js';
import { Estimator, type ReferenceSkill } from '../../../../src/quality/estimate/estimator.js';
import { RETRIEVAL_METHODS } from '../../../../src/quality/estimate/features.js';
import { renderEstimateText } from '../../../../src/quality/estimate/render-text.js';
import { makeSkill } from '../make-skill.js';

const hostile: ReferenceSkill = {
  skillId: 'h',
  path: 'evil\u001b[2J',
  name: 'pdf\u001b[31m-merge\u202e',
  description: 'merge pdf pages',
  body: '',
  category: 'documents',
  scores: { 'structural-completeness': 0.5, efficiency: 0.25 },
};

describe('renderEstimateText', () => {
  const skill = makeSkill({
    frontmatter: { name: 'pdf-merge', description: 'Merge PDF pages into one file.' },
    body: '# PDF merge\n\n## Steps\n\n1. Merge the pages.\n',
  });
  const result = estimateSkill(skill, new Estimator([hostile], RETRIEVAL_METHODS['tfidf-knn']));

  it('lists measured and estimated scores, where each estimate came from, and the neighbours', () => {
    const text = renderEstimateText([result], ['a shared note']);
    expect(text).toMatch(/\n {2}Structural completeness +\d{1,3}% +50% +1 neighbour\n/);
    expect(text).toMatch(/\n {2}Efficiency +n\/a +25% +1 neighbour\n/);
    expect(text).toMatch(/\n {2}Cross-model robustness +n\/a +n\/a +not estimated \(no reference scores\)\n/);
    expect(text).toContain('documents, same category)  SC 50% EFF 25%');
    expect(text).toContain('key: SC structural completeness, EFF efficiency');
    expect(text).toContain('note: a shared note');
  });

  it('escapes control and bidi characters of reference skills’ names and paths', () => {
    const text = renderEstimateText([result], []);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    expect(text).toContain('pdf\\u{1b}[31m-merge\\u{202e} (evil\\u{1b}[2J;');
  });

  it('prints a skill that failed to load with its error', () => {
    const text = renderEstimateText(
      [{ path: 'broken', error: { code: 'EMPTY_SKILL_MD', message: 'broken: empty' } }],
      [],
    );
    expect(text).toBe('broken: broken: empty\n\n');
  });
});
