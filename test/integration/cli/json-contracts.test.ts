import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateReport } from '../../../src/report/schema.js';
import { REPO_ROOT, requireBuild, runBuilt, withoutProgress } from '../../support/built-cli.js';
import {
  INJECTED_REWRITE,
  isOptimize,
  STRONG_REWRITE,
  WEAK_SKILL,
  writeSkill,
} from '../../support/fake-model/optimize-script.js';
import { startFakeModelServer } from '../../support/fake-model-server.js';

// Every CLI command that prints JSON, run as users run it (the built bin in a child process), its output
// validated against the schema published in docs/: the audit report (report.schema.json, through
// validateReport), the scan contract (scan.schema.json), the quality profile (quality.schema.json), the
// execution-free estimate (estimate.schema.json), its holdout evaluation (reference-eval.schema.json) and
// optimize.json (optimize.schema.json, driven by the fake model server).
// `inspect` prints the internal skill model: its schema (inspect.schema.json) is open to new skill keys and
// borrows provenance and diagnostics from the report schema. `eval-scanner` has eval-scanner.schema.json,
// `eval-verdicts` eval-verdicts.schema.json.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');
let work: string;

const ajv = new Ajv2020({ allErrors: true, strict: true });
// The report schema uses `date-time` (ajv-formats is not a dependency); the shape is what is checked here.
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T/);
for (const name of [
  'scan',
  'quality',
  'report',
  'estimate',
  'reference-eval',
  'optimize',
  'inspect',
  'eval-scanner',
  'eval-verdicts',
])
  ajv.addSchema(JSON.parse(readFileSync(join(repo, 'docs', `${name}.schema.json`), 'utf8')) as object);

function errorsAgainst(id: string, json: unknown): string[] {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

const SCAN = 'https://skillaudit.dev/schemas/scan/v1.json';
const QUALITY = 'https://skillaudit.dev/schemas/quality/v1.json';
const REPORT = 'https://skillaudit.dev/schemas/report/v1.json';
const ESTIMATE = 'https://skillaudit.dev/schemas/estimate/v1.json';
const REFERENCE_EVAL = 'https://skillaudit.dev/schemas/reference-eval/v1.json';
const OPTIMIZE = 'https://skillaudit.dev/schemas/optimize/v1.json';
const INSPECT = 'https://skillaudit.dev/schemas/inspect/v1.json';
const EVAL_SCANNER = 'https://skillaudit.dev/schemas/eval-scanner/v1.json';
const EVAL_VERDICTS = 'https://skillaudit.dev/schemas/eval-verdicts/v1.json';

const run = (args: string[], cwd = work) => runBuilt(args, cwd);

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-json-'));
  // A corpus with a risky skill, a clean one and one that cannot be loaded: every branch of each contract.
  mkdirSync(join(work, 'corpus'));
  for (const name of ['web-scraper-pro', 'weather-brief'])
    cpSync(join(labeled, name), join(work, 'corpus', name), { recursive: true });
  mkdirSync(join(work, 'corpus', 'broken'));
  writeFileSync(join(work, 'corpus', 'broken', 'SKILL.md'), Buffer.from([0x00, 0x01, 0xff, 0x00]));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('JSON the CLI prints validates against its published schema', () => {
  it('scan --format json (scanned, failed and suppressed entries) matches docs/scan.schema.json', async () => {
    await run(['scan', 'corpus/web-scraper-pro', '--write-baseline', 'baseline.json', '--fail-on', 'none']);
    const accepted = JSON.parse(readFileSync(join(work, 'baseline.json'), 'utf8'));
    // Accept only some findings, so suppressed and active findings both appear.
    accepted.accepted = accepted.accepted.slice(0, 2);
    writeFileSync(join(work, 'baseline.json'), JSON.stringify(accepted));
    const r = await run(['scan', 'corpus', '--format', 'json', '--baseline', 'baseline.json']);
    expect(r.status).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(SCAN, json)).toEqual([]);
    const findings = json.skills.flatMap(
      (s: { findings: { line: number; endLine: number }[] }) => s.findings,
    );
    expect(json.skills.some((s: { error?: string }) => s.error)).toBe(true);
    expect(findings.some((f: { suppressed?: unknown }) => f.suppressed)).toBe(true);
    expect(findings.some((f: { suppressed?: unknown }) => !f.suppressed)).toBe(true);
    for (const f of findings) expect(f.endLine).toBeGreaterThanOrEqual(f.line);
  });

  it('the scan schema rejects what the contract forbids', () => {
    const skill = { path: 'a', name: 'a', status: 'pass', rating: 100, safetyScore: 100, findings: [] };
    expect(errorsAgainst(SCAN, { version: 1, skills: [skill] })).toEqual([]);
    expect(errorsAgainst(SCAN, { version: 2, skills: [] })).not.toEqual([]);
    expect(errorsAgainst(SCAN, { version: 1, skills: [{ ...skill, extra: 1 }] })).not.toEqual([]);
    expect(errorsAgainst(SCAN, { version: 1, skills: [{ ...skill, error: 'NO_SKILL: x' }] })).not.toEqual([]);
    expect(errorsAgainst(SCAN, { version: 1, skills: [{ ...skill, status: 'ok' }] })).not.toEqual([]);
    expect(errorsAgainst(SCAN, { version: 1, skills: [{ ...skill, rating: 101 }] })).not.toEqual([]);
  });

  it('scan --changed-since with nothing changed prints an empty, valid scan', async () => {
    const dir = join(work, 'git-repo');
    cpSync(join(labeled, 'weather-brief'), join(dir, 'weather-brief'), { recursive: true });
    const git = (...args: string[]) =>
      new Promise<void>((done, fail) =>
        spawn('git', args, { cwd: dir, stdio: 'ignore' }).on('close', (c) =>
          c === 0 ? done() : fail(new Error(`git ${args[0]}`)),
        ),
      );
    await git('init', '-q');
    await git('add', '.');
    await git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '-m', 'x');
    const r = await run(['scan', '--changed-since', 'HEAD', '--format', 'json'], dir);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: 1, skills: [] });
    expect(errorsAgainst(SCAN, JSON.parse(r.stdout))).toEqual([]);
  });

  it('audit --format json (keyless, with detonation) matches docs/report.schema.json', async () => {
    const r = await run([
      'audit',
      join(repo, 'examples', 'csv-summary'),
      '--format',
      'json',
      '--out',
      'runs',
      '-q',
    ]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(validateReport(report)).toEqual([]);
    expect(errorsAgainst(REPORT, report)).toEqual([]);
    expect(report.skill.name).toBe('csv-summary');
    expect(report.runtime, 'the sandbox (bubblewrap) must be usable for a detonated audit').not.toBeNull();
    // The report.json in the run folder is the same object.
    const runDir = join(work, 'runs', readdirOne(join(work, 'runs')));
    expect(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'))).toEqual(report);
  });

  it('audit --format json on several skills prints JSON Lines, one valid report per line', async () => {
    const r = await run(['audit', 'corpus', '--format', 'json', '--no-detonate', '--out', 'runs-many', '-q']);
    // The broken skill is reported on stderr and makes the exit code 2; the others are still reported.
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/broken/);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(validateReport(JSON.parse(line))).toEqual([]);
  });

  it('quality --format json matches docs/quality.schema.json', async () => {
    const r = await run(['quality', 'corpus', '--format', 'json']);
    expect(r.status).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(QUALITY, json)).toEqual([]);
    expect(json.skills).toHaveLength(3);
  });

  it('estimate --format json (estimated and failed skills) matches docs/estimate.schema.json', async () => {
    await buildReference();
    const r = await run(['estimate', 'corpus', '--reference', 'ref.db', '--format', 'json']);
    expect(r.status).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(ESTIMATE, json)).toEqual([]);
    const estimated = json.skills.filter((s: { error?: unknown }) => !s.error);
    expect(estimated).toHaveLength(2);
    // The corpus skills are in the reference set too, so each has neighbours and imported dynamic scores.
    const dims = estimated.flatMap((s: { dimensions: { scoreFrom: unknown }[] }) => s.dimensions);
    expect(dims.some((d: { scoreFrom: unknown }) => d.scoreFrom === 'measured')).toBe(true);
    expect(dims.some((d: { scoreFrom: unknown }) => d.scoreFrom === 'estimate')).toBe(true);
    expect(estimated.some((s: { neighbours: unknown[] }) => s.neighbours.length > 0)).toBe(true);
  });

  it('reference eval --format json matches docs/reference-eval.schema.json', async () => {
    await buildReference();
    const r = await run([
      'reference',
      'eval',
      '--reference',
      'ref.db',
      '--holdout',
      '0.2',
      '--format',
      'json',
    ]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(REFERENCE_EVAL, json)).toEqual([]);
    expect(json.perDimension.length).toBeGreaterThan(0);
    expect(json.methods.map((m: { id: string }) => m.id).sort()).toEqual([
      'category-mean',
      'char-ngram-knn',
      'tfidf-knn',
    ]);
  });

  it('the estimate and reference-eval schemas reject what the contracts forbid', () => {
    const reference = { path: 'r', skills: 1, source: 's', createdAt: '' };
    const top = {
      version: 1,
      reference,
      method: 'tfidf-knn',
      k: 5,
      categoryBoost: 1.5,
      skills: [],
      notes: [],
    };
    expect(errorsAgainst(ESTIMATE, top)).toEqual([]);
    expect(errorsAgainst(ESTIMATE, { ...top, version: 2 })).not.toEqual([]);
    expect(errorsAgainst(ESTIMATE, { ...top, method: 'bm25' })).not.toEqual([]);
    expect(errorsAgainst(ESTIMATE, { ...top, skills: [{ path: 'a', error: 'x' }] })).not.toEqual([]);
    const evaluation = {
      version: 1,
      holdout: 0.2,
      seed: 1,
      k: 5,
      train: 4,
      test: 1,
      perDimension: [],
      methods: [],
      notes: [],
    };
    expect(errorsAgainst(REFERENCE_EVAL, evaluation)).toEqual([]);
    expect(errorsAgainst(REFERENCE_EVAL, { ...evaluation, holdout: 1 })).not.toEqual([]);
    expect(errorsAgainst(REFERENCE_EVAL, { ...evaluation, extra: 1 })).not.toEqual([]);
  });

  it('optimize --format json (a rejected and an improved round) matches docs/optimize.schema.json', async () => {
    const server = await startFakeModelServer();
    try {
      server.setScripts([
        {
          name: 'optimize',
          match: isOptimize,
          turns: [{ json: INJECTED_REWRITE }, { json: STRONG_REWRITE }, { json: STRONG_REWRITE }],
        },
      ]);
      const dir = writeSkill(join(work, 'to-optimize'), WEAK_SKILL);
      const args = ['optimize', dir, '--out', 'optimized', '--format', 'json', '--quiet', '--no-cache'];
      const model = ['--model', 'anthropic/claude-sonnet-4-6', '--base-url', server.baseUrl];
      const r = await runBuilt([...args, ...model], work, { ANTHROPIC_API_KEY: 'test-key' });
      expect(withoutProgress(r.stderr)).toBe('');
      expect(r.status).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(errorsAgainst(OPTIMIZE, json)).toEqual([]);
      expect(json.rounds.map((round: { outcome: string }) => round.outcome).slice(0, 2)).toEqual([
        'rejected',
        'improved',
      ]);
      // optimize.json in the output folder is the same document.
      expect(JSON.parse(readFileSync(join(work, 'optimized', 'optimize.json'), 'utf8'))).toEqual(json);
    } finally {
      await server.close();
    }
  });

  it('inspect --format json (loaded skills, a link and a failed skill) matches docs/inspect.schema.json', async () => {
    const dir = join(work, 'inspect-corpus');
    cpSync(join(work, 'corpus'), dir, { recursive: true });
    symlinkSync('/etc/hostname', join(dir, 'weather-brief', 'outside.txt'));
    const r = await run(['inspect', dir, '--format', 'json']);
    expect(r.status).toBe(2);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(INSPECT, json)).toEqual([]);
    const loaded = json.skills.filter((s: { error?: unknown }) => !s.error);
    expect(loaded).toHaveLength(2);
    for (const skill of loaded)
      expect(skill.files.every((f: { text?: unknown }) => f.text === undefined)).toBe(true);
    expect(loaded.flatMap((s: { links: unknown[] }) => s.links)).toEqual([
      { path: 'outside.txt', target: '/etc/hostname', inside: false },
    ]);
    expect(json.skills.find((s: { error?: unknown }) => s.error)).toEqual({
      path: 'broken',
      error: { code: expect.any(String), message: expect.any(String) },
    });
    // The printed model never carries the local folder or file text.
    const skill = { ...loaded[0], root: '/tmp/x' };
    expect(errorsAgainst(INSPECT, { version: 1, skills: [skill] })).not.toEqual([]);
  });

  it('eval-scanner --format json (with an unscannable skill) matches docs/eval-scanner.schema.json', async () => {
    const set = join(work, 'labeled-set');
    const labels = JSON.parse(readFileSync(join(labeled, 'labels.json'), 'utf8'));
    const names = ['web-scraper-pro', 'weather-brief'];
    for (const name of names) cpSync(join(labeled, name), join(set, name), { recursive: true });
    writeFileSync(
      join(set, 'labels.json'),
      JSON.stringify({ ...labels, skills: Object.fromEntries(names.map((n) => [n, labels.skills[n]])) }),
    );
    const r = await run(['eval-scanner', set, '--format', 'json']);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(EVAL_SCANNER, json)).toEqual([]);
    expect(json).toMatchObject({ version: 1, skills: 2, errors: {}, unscanned: [] });
    expect(errorsAgainst(EVAL_SCANNER, { ...json, version: 2 })).not.toEqual([]);
    expect(json.table4[0].name).toBe('Overall');
    expect(json.tableA4.length).toBeGreaterThan(0);
    const extraColumn = { ...json, tableA4: [{ ...json.tableA4[0], extra: 1 }] };
    expect(errorsAgainst(EVAL_SCANNER, extraColumn)).not.toEqual([]);
    // A labeled skill that cannot be loaded: listed under errors, its labels counted as misses, exit code 2.
    writeFileSync(join(set, 'web-scraper-pro', 'SKILL.md'), Buffer.from([0x00, 0x01, 0xff, 0x00]));
    const degraded = await run(['eval-scanner', set, '--format', 'json']);
    expect(degraded.status).toBe(2);
    const withError = JSON.parse(degraded.stdout);
    expect(errorsAgainst(EVAL_SCANNER, withError)).toEqual([]);
    expect(Object.keys(withError.errors)).toEqual(['web-scraper-pro']);
    expect(withError.misses.length).toBeGreaterThan(0);
  });
});

describe('eval-verdicts', () => {
  // Two sources, each with a malicious and a benign skill from the team's reproduced verdict set.
  const picks = [
    { id: 'csv-insights', from: 'malicious', label: 'malicious', repo: 'team/a' },
    { id: 'pdf', from: 'benign', label: 'benign', repo: 'team/a' },
    { id: 'env-doctor', from: 'malicious', label: 'malicious', repo: 'team/b' },
    { id: 'xlsx', from: 'benign', label: 'benign', repo: 'team/b' },
  ];

  it('--format json --cross-source matches docs/eval-verdicts.schema.json and scores every labelled skill', async () => {
    const corpus = join(work, 'verdict-corpus');
    for (const p of picks)
      cpSync(join(repo, 'eval', 'verdicts', p.from, p.id), join(corpus, 'skills', p.id), { recursive: true });
    writeFileSync(
      join(corpus, 'manifest.json'),
      JSON.stringify(picks.map(({ id, label, repo: r }) => ({ id, label, repo: r, kind: 'fixture' }))),
    );
    const r = await run(['eval-verdicts', corpus, '--cross-source', '--format', 'json']);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(errorsAgainst(EVAL_VERDICTS, json)).toEqual([]);
    expect(json.skills).toBe(4);
    const { byLabel } = json.overall;
    const total = (l: 'malicious' | 'benign') => byLabel[l].pass + byLabel[l].caution + byLabel[l].risky;
    expect([total('malicious'), total('benign')]).toEqual([2, 2]);
    expect(json.bySource.map((s: { source: string }) => s.source)).toEqual(['team/a', 'team/b']);
    expect(json.crossSource.perSource).toHaveLength(2);
    expect(json.crossSource.pooled.skills).toBe(4);
    // No source reaches 5 skills, so none is named worst.
    expect(json.crossSource.worst).toBeNull();
    // Every misclassified skill is listed with its label and the decision's reasons.
    for (const m of [...json.misses, ...json.falseAlarms]) expect(m.because.length).toBeGreaterThan(0);
    expect(json.misses.length).toBe(json.overall.fn);
    expect(json.falseAlarms.length).toBe(json.overall.fp);
    expect(errorsAgainst(EVAL_VERDICTS, { ...json, overall: { ...json.overall, extra: 1 } })).not.toEqual([]);
  });

  it('reads labels from malicious/ and benign/ folders, and refuses a folder with no labels', async () => {
    const set = join(work, 'verdict-folders');
    for (const p of picks.slice(0, 2))
      cpSync(join(repo, 'eval', 'verdicts', p.from, p.id), join(set, p.label, p.id), { recursive: true });
    const r = await run(['eval-verdicts', set]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Checked-in decision {2}n 2 /);
    expect(r.stdout).toContain('local/verdict-folders');
    mkdirSync(join(work, 'unlabelled'));
    const bad = await run(['eval-verdicts', join(work, 'unlabelled')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/no manifest\.json and no malicious\/, risky\/ or benign\/ folders/);
  });
});

let referenceBuilt: Promise<void> | undefined;

/** A reference set of the labeled skills, with dynamic scores imported for two of them; built once. */
function buildReference(): Promise<void> {
  referenceBuilt ??= (async () => {
    mkdirSync(join(work, 'profiles'));
    const quality = (efficiency: number) => ({
      dimensions: [
        { id: 'efficiency', name: 'Efficiency', group: 'dynamic', status: 'scored', score: efficiency },
      ],
    });
    writeFileSync(
      join(work, 'profiles', 'quality.json'),
      JSON.stringify({
        version: 1,
        skills: [
          { path: 'web-scraper-pro', name: 'web-scraper-pro', quality: quality(0.4) },
          { path: 'weather-brief', name: 'weather-brief', quality: quality(0.8) },
        ],
      }),
    );
    const r = await run(['reference', 'build', labeled, '--out', 'ref.db', '--profiles', 'profiles']);
    if (r.status !== 0) throw new Error(`reference build failed: ${r.stderr}`);
  })();
  return referenceBuilt;
}

function readdirOne(dir: string): string {
  const entries = readdirSync(dir);
  expect(entries).toHaveLength(1);
  return entries[0]!;
}
