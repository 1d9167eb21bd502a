import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EstimatedSkill, HoldoutEvaluation } from '../../../src/quality/estimate/index.js';
import { REPO_ROOT, requireBuild, runBuilt } from '../../support/built-cli.js';

// `skillaudit reference build|eval` and `skillaudit estimate` as users run them: the built bin in a child
// process, a real SQLite reference set built from the repository's own skills, and hostile reference files.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');
let work: string;

const run = (args: string[]) => runBuilt(args, work);

const labeledSkills = readdirSync(labeled).filter((d) => existsSync(join(labeled, d, 'SKILL.md')));

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-reference-cli-'));
  // Dynamic and rubric scores a marketplace already has, in `skillaudit quality --format json` form.
  mkdirSync(join(work, 'profiles'));
  const dims = (efficiency: number, tag: number) => ({
    dimensions: [
      { id: 'efficiency', name: 'Efficiency', group: 'dynamic', status: 'scored', score: efficiency },
      { id: 'task-abstraction-granularity', name: 'T', group: 'rubric', status: 'scored', score: tag },
    ],
  });
  writeFileSync(
    join(work, 'profiles', 'quality.json'),
    JSON.stringify({
      version: 1,
      skills: [
        { path: 'csv-insights', name: 'csv-insights', quality: dims(0.9, 0.75) },
        { path: 'csv-to-chart', name: 'csv-to-chart', quality: dims(0.7, 0.5) },
        { path: 'docker-cleanup', name: 'docker-cleanup', quality: dims(0.2, 0.25) },
      ],
    }),
  );
  const built = await run(['reference', 'build', labeled, '--out', 'ref.db', '--profiles', 'profiles']);
  if (built.status !== 0) throw new Error(`reference build failed: ${built.stderr}`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('skillaudit reference build', () => {
  it('stores every skill of the corpus with its profile, category and schema version', () => {
    const db = new Database(join(work, 'ref.db'), { readonly: true });
    try {
      const meta = Object.fromEntries(
        (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      );
      expect(meta).toMatchObject({ format: 'skillaudit-reference', schema_version: '1', source: labeled });
      const rows = db.prepare('SELECT path, name, category, profile FROM skills').all() as {
        path: string;
        name: string;
        category: string;
        profile: string;
      }[];
      expect(rows.map((r) => r.path).sort()).toEqual([...labeledSkills].sort());
      const csv = rows.find((r) => r.name === 'csv-insights')!;
      const profile = JSON.parse(csv.profile) as { id: string; score: number | null; origin: string }[];
      expect(profile.find((d) => d.id === 'efficiency')).toMatchObject({ score: 0.9, origin: 'imported' });
      expect(profile.find((d) => d.id === 'conciseness')?.origin).toBe('static');
    } finally {
      db.close();
    }
  });

  it('reports what it stored and imported', async () => {
    const r = await run(['reference', 'build', labeled, '--out', 'again.db', '--profiles', 'profiles']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`again.db: ${labeledSkills.length} skills`);
    expect(r.stdout).toContain('imported dynamic/rubric scores: 3 skills');
  });

  it('replaces an earlier reference set but never overwrites another file', async () => {
    writeFileSync(join(work, 'precious.txt'), 'keep me');
    const r = await run(['reference', 'build', join(labeled, 'pdf-toolkit'), '--out', 'precious.txt']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/precious\.txt exists and is not a skillaudit reference set; not overwritten/);
    expect(readFileSync(join(work, 'precious.txt'), 'utf8')).toBe('keep me');
    const again = await run(['reference', 'build', join(labeled, 'pdf-toolkit'), '--out', 'again.db']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('again.db: 1 skills');
  });

  it('stores the loadable skills of a corpus with a broken one and exits 2', async () => {
    mkdirSync(join(work, 'mixed', 'broken'), { recursive: true });
    cpSync(join(labeled, 'pdf-toolkit'), join(work, 'mixed', 'pdf-toolkit'), { recursive: true });
    writeFileSync(join(work, 'mixed', 'broken', 'SKILL.md'), '');
    const r = await run(['reference', 'build', 'mixed', '--out', 'mixed.db']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/warning: broken: .*empty/);
    expect(r.stdout).toContain('mixed.db: 1 skills');
  });

  it('refuses a missing corpus or profiles folder with exit 2', async () => {
    expect((await run(['reference', 'build', 'nowhere', '--out', 'x.db'])).status).toBe(2);
    const r = await run(['reference', 'build', labeled, '--out', 'x.db', '--profiles', 'nowhere']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/nowhere: no such folder/);
    expect(existsSync(join(work, 'x.db'))).toBe(false);
  });
});

describe('skillaudit estimate', () => {
  it('estimates each dimension from the nearest reference skills, listing them as evidence', async () => {
    const r = await run([
      'estimate',
      join(repo, 'examples', 'csv-summary'),
      '--reference',
      'ref.db',
      '--format',
      'json',
    ]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { skills: EstimatedSkill[]; notes: string[]; k: number };
    expect(json.k).toBe(5);
    const [s] = json.skills;
    expect(s!.category).toEqual({ name: 'data', source: 'keywords' });
    expect(s!.neighbours).toHaveLength(5);
    const sims = s!.neighbours.map((n) => n.weight);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(s!.neighbours[0]!.name).toBe('csv-insights');
    expect(s!.confidence).toBeGreaterThan(0);
    const byId = new Map(s!.dimensions.map((d) => [d.id, d]));
    // Static: measured from the skill and estimated from the neighbours; the measured value is the score.
    const sc = byId.get('structural-completeness')!;
    expect(sc.scoreFrom).toBe('measured');
    expect(sc.score).toBe(sc.measured);
    expect(sc.estimate.source).toBe('neighbours');
    // Imported dynamic score: the two CSV skills are the nearest ones that have it.
    const eff = byId.get('efficiency')!;
    expect(eff.scoreFrom).toBe('estimate');
    expect(eff.estimate.neighbours.slice(0, 2).sort()).toEqual(['csv-insights', 'csv-to-chart']);
    expect(eff.estimate.score).toBeGreaterThan(0.2);
    expect(eff.estimate.score).toBeLessThan(0.9);
    expect(byId.get('cross-model-robustness')!.estimate).toMatchObject({
      status: 'not_estimated',
      score: null,
    });
    // Every reference skill has the static scores, so each static estimate is recomputable from the evidence.
    for (const d of s!.dimensions.filter((x) => x.group === 'static')) {
      const w = s!.neighbours.reduce((sum, n) => sum + n.weight, 0);
      const mean = s!.neighbours.reduce((sum, n) => sum + n.weight * n.scores[d.id]!, 0) / w;
      expect(d.estimate.score, d.id).toBeCloseTo(mean, 3);
    }
    expect(json.notes.join(' ')).toMatch(/Not estimated: Cross-model robustness/);
  });

  it('prints a text table with the neighbours, and leaves a skill of the set out of its own neighbours', async () => {
    const r = await run(['estimate', join(labeled, 'csv-insights'), '--reference', 'ref.db', '-k', '3']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Structural completeness +\d{1,3}% +\d{1,3}% +3 neighbours/);
    expect(r.stdout).toContain('neighbours (evidence):');
    expect(r.stdout).toContain('left out of its own neighbours');
    expect(r.stdout).not.toMatch(/\d\.\d{3} +csv-insights \(/);
  });

  it('refuses hostile or missing reference files with exit 2 and a clear message', async () => {
    writeFileSync(join(work, 'random.db'), Buffer.alloc(4096, 0x5a));
    const other = new Database(join(work, 'other.db'));
    other.exec('CREATE TABLE t (x)');
    other.close();
    cpSync(join(work, 'ref.db'), join(work, 'future.db'));
    const future = new Database(join(work, 'future.db'));
    future.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    future.close();
    cpSync(join(work, 'ref.db'), join(work, 'damaged.db'));
    const damaged = new Database(join(work, 'damaged.db'));
    damaged.prepare('UPDATE skills SET profile = \'[{"id":"efficiency","score":7}]\' WHERE row = 2').run();
    damaged.close();
    const csv = join(repo, 'examples', 'csv-summary');
    const cases: [string, RegExp][] = [
      ['missing.db', /missing\.db: no such reference set/],
      ['random.db', /random\.db: not a skillaudit reference set/],
      ['other.db', /other\.db: not a skillaudit reference set/],
      ['future.db', /schema version 99 is not supported/],
      ['damaged.db', /skill row 2 is damaged/],
      ['profiles', /not a regular file/],
    ];
    for (const [file, message] of cases) {
      const r = await run(['estimate', csv, '--reference', file]);
      expect(r.status, file).toBe(2);
      expect(r.stderr, file).toMatch(message);
      expect(r.stderr, file).not.toMatch(/internal error/);
      const e = await run(['reference', 'eval', '--reference', file]);
      expect(e.status, file).toBe(2);
      expect(e.stderr, file).toMatch(message);
    }
  });

  it('refuses -k 0 as a usage error', async () => {
    expect((await run(['estimate', join(repo, 'examples'), '--reference', 'ref.db', '-k', '0'])).status).toBe(
      2,
    );
  });
});

describe('skillaudit reference eval', () => {
  it('prints the per-dimension and per-method tables, the same for the same seed', async () => {
    const a = await run(['reference', 'eval', '--reference', 'ref.db', '--holdout', '0.2', '--seed', '3']);
    const b = await run(['reference', 'eval', '--reference', 'ref.db', '--holdout', '0.2', '--seed', '3']);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain(`Held out 9 of ${labeledSkills.length} skills`);
    expect(a.stdout).toMatch(
      /held-out skills, per dimension[^\n]*\nDimension +n +MAE +RMSE +Bias +Pearson r +Spearman ρ/,
    );
    expect(a.stdout).toMatch(/\nConciseness +9 /);
    expect(a.stdout).toMatch(/\nword-overlap retrieval \(default\) +\d /);
  });

  it('writes JSON with null, never NaN, for undefined correlations', async () => {
    const r = await run([
      'reference',
      'eval',
      '--reference',
      'ref.db',
      '--format',
      'json',
      '--out',
      'out/eval.json',
    ]);
    expect(r.status).toBe(0);
    const text = readFileSync(join(work, 'out', 'eval.json'), 'utf8');
    expect(text).not.toContain('NaN');
    const json = JSON.parse(text) as HoldoutEvaluation;
    expect(json.methods.map((m) => m.id)).toEqual(['category-mean', 'char-ngram-knn', 'tfidf-knn']);
    // Every labeled skill is under 2,000 tokens with no repetition: conciseness is constant, r undefined.
    const conciseness = json.perDimension.find((d) => d.id === 'conciseness')!;
    expect(conciseness.pearson).toBeNull();
    expect(conciseness.mae).toBe(0);
  });

  it('refuses a holdout outside (0, 1) and a set of one skill', async () => {
    const r = await run(['reference', 'eval', '--reference', 'ref.db', '--holdout', '1.5']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/fraction between 0 and 1/);
    const one = await run(['reference', 'eval', '--reference', 'again.db']);
    expect(one.status).toBe(2);
    expect(one.stderr).toMatch(/at least two skills/);
  });
});
