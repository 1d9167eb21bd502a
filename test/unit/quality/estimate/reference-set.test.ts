import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilesOf, readProfiles } from '../../../../src/quality/estimate/import-profiles.js';
import { buildReferenceSet, referenceRecord } from '../../../../src/quality/estimate/reference-set.js';
import { cleanReport } from '../../../support/report-fixtures.js';
import { makeSkill } from '../make-skill.js';

const pdf = makeSkill({
  frontmatter: { name: 'pdf-tools', description: 'Merge and split PDF files page by page.' },
  body: '# PDF tools\n\n## Merge\n\nMerge the PDF files in order.\n\n## Split\n\nSplit a PDF by page ranges.\n',
  folderName: 'pdf-tools',
});
const docker = makeSkill({
  frontmatter: { name: 'docker-clean', description: 'Prune unused Docker images and volumes.' },
  body: '# Docker\n\nRun docker system prune.\n',
  folderName: 'docker-clean',
});

const dims = (scores: Record<string, number | null>) =>
  Object.entries(scores).map(([id, score]) => ({
    id,
    name: id,
    group: 'x',
    status: score === null ? 'not_run' : 'scored',
    score,
  }));

describe('referenceRecord', () => {
  it('stores the static profile, the category and the retrieval text', () => {
    const r = referenceRecord(pdf);
    expect(r).toMatchObject({
      skillId: pdf.id,
      name: 'pdf-tools',
      category: 'documents',
      categorySource: 'keywords',
    });
    expect(r.profile).toHaveLength(9);
    const sc = r.profile.find((d) => d.id === 'structural-completeness')!;
    expect(sc).toMatchObject({ status: 'scored', origin: 'static' });
    expect(sc.score).toBeGreaterThan(0.5);
    expect(r.profile.find((d) => d.id === 'efficiency')).toMatchObject({ status: 'not_run', score: null });
  });

  it('fills only dimensions that were not run with imported scores', () => {
    const r = referenceRecord(pdf, { efficiency: 0.7 });
    expect(r.profile.find((d) => d.id === 'efficiency')).toEqual({
      id: 'efficiency',
      group: 'dynamic',
      status: 'scored',
      score: 0.7,
      origin: 'imported',
    });
  });
});

describe('profile import', () => {
  it('reads dynamic and rubric scores from a report.json, never static or malformed ones', () => {
    const doc = {
      tool: { name: 'skillaudit', version: '0.1.0' },
      skill: { id: pdf.id, name: 'pdf-tools' },
      quality: {
        dimensions: [
          ...dims({ 'structural-completeness': 0.1, efficiency: 0.8, 'cross-model-robustness': null }),
          { id: 'task-abstraction-granularity', status: 'scored', score: 1.5 },
          { id: 'made-up', status: 'scored', score: 0.5 },
          'garbage',
        ],
      },
    };
    expect(profilesOf('r.json', doc)).toEqual([
      { file: 'r.json', skillId: pdf.id, name: 'pdf-tools', scores: { efficiency: 0.8 } },
    ]);
  });

  it('reads the report model as `audit` writes it', () => {
    const report = JSON.parse(JSON.stringify(cleanReport())) as unknown;
    const [profile] = profilesOf('report.json', report)!;
    // The fixture's dynamic and rubric scores, without its static ones or the dimension that was not run.
    expect(profile!.scores).toEqual({
      'intent-perturbation-stability': 0.67,
      'capability-boundary-handling': 0.5,
      efficiency: 0.81,
      'behavior-chain-semantic-consistency': 0.8,
      'task-abstraction-granularity': 0.7,
    });
  });

  it('reads every skill of a quality JSON and refuses other documents', () => {
    const doc = {
      version: 1,
      skills: [
        {
          path: 'a',
          name: 'pdf-tools',
          quality: { dimensions: dims({ 'behavior-chain-semantic-consistency': 0.75 }) },
        },
        { path: 'broken', error: { code: 'X', message: 'y' } },
      ],
    };
    expect(profilesOf('q.json', doc)).toEqual([
      {
        file: 'q.json',
        skillId: null,
        name: 'pdf-tools',
        scores: { 'behavior-chain-semantic-consistency': 0.75 },
      },
    ]);
    expect(profilesOf('x.json', { hello: 'world' })).toBeNull();
    expect(profilesOf('x.json', null)).toBeNull();
  });

  it('matches profiles by content hash, else by a unique name, and reports the rest', () => {
    const copy = { ...pdf, provenance: { ...pdf.provenance, subdir: 'copy' } };
    const build = buildReferenceSet(
      [pdf, docker, copy],
      [
        { file: 'a.json', skillId: docker.id, name: 'renamed', scores: { efficiency: 0.4 } },
        { file: 'b.json', skillId: null, name: 'pdf-tools', scores: { efficiency: 0.9 } },
        { file: 'c.json', skillId: null, name: 'pdf-tools', scores: { efficiency: 0.1 } },
        { file: 'd.json', skillId: null, name: 'nobody', scores: { efficiency: 0.5 } },
      ],
    );
    expect(build.records).toHaveLength(2);
    expect(build.duplicates).toEqual(['copy']);
    expect(build.importedSkills).toBe(2);
    const eff = (id: string) =>
      build.records.find((r) => r.skillId === id)!.profile.find((d) => d.id === 'efficiency')!.score;
    expect(eff(docker.id)).toBe(0.4);
    expect(eff(pdf.id)).toBe(0.9);
    expect(build.warnings).toHaveLength(2);
    expect(build.warnings.join('\n')).toMatch(/c\.json: .* already has imported scores/);
    expect(build.warnings.join('\n')).toMatch(/d\.json: no skill of the corpus matches nobody/);
  });
});

describe('readProfiles', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skillaudit-profiles-'));
    mkdirSync(join(dir, 'runs', 'pdf'), { recursive: true });
    writeFileSync(
      join(dir, 'runs', 'pdf', 'report.json'),
      JSON.stringify({
        tool: { name: 'skillaudit' },
        skill: { id: pdf.id, name: 'pdf-tools' },
        quality: null,
      }),
    );
    writeFileSync(join(dir, 'broken.json'), '{not json');
    writeFileSync(join(dir, 'other.json'), '{"a": 1}');
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    symlinkSync('/etc', join(dir, 'link'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the JSON files of the folder without following links, warning about the unusable ones', () => {
    const { profiles, warnings } = readProfiles(dir);
    expect(profiles).toEqual([
      { file: join('runs', 'pdf', 'report.json'), skillId: pdf.id, name: 'pdf-tools', scores: {} },
    ]);
    expect(warnings).toEqual([
      'broken.json: not valid JSON; skipped',
      'other.json: neither a skillaudit report nor a quality JSON; skipped',
    ]);
  });

  it('refuses a missing folder and a file', () => {
    expect(() => readProfiles(join(dir, 'missing'))).toThrow(/no such folder/);
    expect(() => readProfiles(join(dir, 'notes.txt'))).toThrow(/expects a folder/);
  });
});
