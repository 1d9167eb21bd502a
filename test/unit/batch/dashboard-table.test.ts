import { describe, expect, it } from 'vitest';
import { compact, gain, seconds, share, tokens, usd } from '../../../src/batch/dashboard-app/numbers.js';
import {
  filterSkills,
  reportHref,
  type SkillFilter,
  searchText,
  sortSkills,
} from '../../../src/batch/dashboard-app/skill-table.js';
import { generatedSummary, utilitySummary } from '../../support/dashboard-fixtures.js';

// The dashboard's skill-table logic and number formats, in Node (the page itself is tested in Chromium).

describe('reportHref', () => {
  it('links a plain relative run folder, each segment URI-encoded', () => {
    expect(reportHref('runs/pdf-merge')).toBe('runs/pdf-merge/report.html');
    expect(reportHref('runs/k8s deploy#1/')).toBe('runs/k8s%20deploy%231/report.html');
    expect(reportHref('runs/a?b=%41&c')).toBe('runs/a%3Fb%3D%2541%26c/report.html');
    expect(reportHref('runs/naïve/日本')).toBe('runs/na%C3%AFve/%E6%97%A5%E6%9C%AC/report.html');
  });

  it('refuses anything that is not a plain relative path down from the dashboard', () => {
    for (const runDir of [
      '',
      '/etc/passwd',
      '//evil.example/x',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'https://evil.example/run',
      'data:text/html,<script>',
      'C:/runs/x',
      'file:///etc',
      '../outside',
      'runs/../../etc',
      'runs/./x',
      'runs//x',
      'runs\\..\\x',
      'runs/\ud800',
      null,
      42,
    ]) {
      expect(reportHref(runDir), String(runDir)).toBeNull();
    }
  });
});

describe('filterSkills', () => {
  const { skills } = utilitySummary();
  const texts = skills.map(searchText);
  const names = (filter: Partial<SkillFilter>) =>
    filterSkills(skills, texts, { text: '', status: '', category: '', ...filter }).map((s) => s.name);

  it('keeps rows whose name, source, category or patterns hold every word, case-insensitively', () => {
    expect(names({ text: 'PDF' })).toEqual(['pdf-merge']);
    expect(names({ text: 'devops pe1' })).toEqual(['k8s-deploy']);
    expect(names({ text: 'sc2' })).toEqual(['doc-sync']);
    expect(names({ text: 'nothing-matches-this' })).toEqual([]);
    expect(names({})).toHaveLength(skills.length);
  });

  it('combines the text with the status and category selects', () => {
    expect(names({ status: 'pass' })).toEqual(['pdf-merge', 'ci-fixer']);
    expect(names({ status: 'caution', category: 'devops' })).toEqual(['k8s-deploy']);
    expect(names({ text: 'doc', status: 'risky' })).toEqual(['doc-sync']);
  });
});

describe('sortSkills', () => {
  const { skills } = utilitySummary();

  it('sorts by score either way, stable among equals', () => {
    expect(sortSkills(skills, 'score', 'desc').map((s) => s.score)).toEqual([96, 88, 71, 64, 22, 15]);
    expect(sortSkills(skills, 'score', 'asc').map((s) => s.score)).toEqual([15, 22, 64, 71, 88, 96]);
  });

  it('puts unknown values last in both directions', () => {
    const desc = sortSkills(skills, 'prg', 'desc').map((s) => s.prg);
    const asc = sortSkills(skills, 'prg', 'asc').map((s) => s.prg);
    expect(desc).toEqual([0.4, 0.25, 0.1, -0.05, null, null]);
    expect(asc).toEqual([-0.05, 0.1, 0.25, 0.4, null, null]);
  });

  it('orders statuses by risk and findings by severity first', () => {
    expect(sortSkills(skills, 'status', 'desc').map((s) => s.status)).toEqual([
      'risky',
      'risky',
      'caution',
      'caution',
      'pass',
      'pass',
    ]);
    // doc-sync has 3 high; the hostile one 2 high: any high outweighs many medium or low.
    expect(sortSkills(skills, 'findings', 'desc').map((s) => s.findings.high)).toEqual([3, 2, 0, 0, 0, 0]);
  });

  it('sorts names in natural order and 10,000 rows quickly', () => {
    const big = generatedSummary(10_000).skills;
    const started = performance.now();
    const sorted = sortSkills(big, 'name', 'desc');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(sorted[0]!.name).toBe('skill-09999');
    expect(sorted.at(-1)!.name).toBe('skill-00000');
  });
});

describe('dashboard numbers', () => {
  it('says — for an unknown value and writes the rest in human form', () => {
    for (const f of [share, gain, seconds, tokens, compact, usd]) expect(f(null)).toBe('—');
    expect(share(0.425)).toBe('43%');
    expect(gain(0.12)).toBe('+12%');
    expect(gain(-0.05)).toBe('−5%');
    expect(seconds(42.5)).toBe('42.5 s');
    expect(tokens(812)).toBe('812 tokens');
    expect(tokens(12_400)).toBe('12K tokens');
    expect(compact(4_240)).toBe('4.2K');
    expect(compact(1_240_000)).toBe('1.2M');
    expect(usd(1.27)).toBe('$1.27');
    expect(usd(0.004)).toBe('< $0.01');
  });
});
