import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  BatchSummary,
  CategoryRow,
  CategoryStratumRow,
  SkillRow,
  StratumRow,
} from '../../src/batch/summary-model.js';
import { SUMMARY_VERSION } from '../../src/batch/summary-model.js';
import { PATTERNS } from '../../src/core/taxonomy.js';
import type { PatternId, SafetyStatus, Severity } from '../../src/core/types.js';
import { buildPageTemplate } from './report-fixtures.js';

// Batch summaries written by hand for the dashboard tests: a small corpus with utility results (figures worked
// out below), the same corpus keyless, and a generated corpus of any size for the large-table checks. The
// aggregates of the small ones are hand-computed from their skill rows so the page can be checked against them.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The dashboard template built from the current app source (into dist/dashboard-template by default). */
export function buildDashboardTemplate(outDir = join(ROOT, 'dist', 'dashboard-template')): Promise<string> {
  return buildPageTemplate('vite.dashboard.config.ts', outDir);
}

export const HOSTILE_NAME = '<img src=x onerror="globalThis.__pwned=1">';
/** A category from a skill's frontmatter: it becomes a table cell, an SVG label and a select option. */
export const HOSTILE_CATEGORY = '<svg onload="globalThis.__pwned=2">\u202Eevil';

const findings = (high: number, medium: number, low: number): Record<Severity, number> => ({
  high,
  medium,
  low,
});

function skill(
  name: string,
  category: string,
  status: SafetyStatus,
  score: number,
  found: Record<Severity, number>,
  patterns: PatternId[],
  prg: number | null,
  ecg: number | null,
  auditMs: number,
  runDir: string,
): SkillRow {
  return {
    id: `${name.length.toString(16).padStart(2, '0')}${'ab'.repeat(31)}`,
    name,
    source: `./corpus/${category}/${name}`,
    category,
    status,
    score,
    findings: found,
    patterns,
    prg,
    ecg,
    auditMs,
    runDir,
  };
}

/** Six audited skills in three categories; one is named with markup that must never become markup. */
const SKILLS: SkillRow[] = [
  skill('pdf-merge', 'documents', 'pass', 96, findings(0, 0, 1), ['R2'], 0.25, 0.12, 1800, 'runs/pdf-merge'),
  skill(
    'invoice-ocr',
    'documents',
    'caution',
    71,
    findings(0, 2, 1),
    ['E3', 'R2'],
    0.1,
    0.05,
    2400,
    'runs/invoice-ocr',
  ),
  skill(
    'doc-sync',
    'documents',
    'risky',
    22,
    findings(3, 1, 0),
    ['E2', 'SC2'],
    -0.05,
    -0.1,
    5200,
    'runs/doc-sync',
  ),
  skill(
    'k8s-deploy',
    'devops',
    'caution',
    64,
    findings(0, 1, 2),
    ['PE1'],
    0.4,
    0.3,
    3100,
    'runs/k8s deploy#1',
  ),
  skill('ci-fixer', 'devops', 'pass', 88, findings(0, 0, 2), ['R1'], null, null, 900, 'runs/ci-fixer'),
  skill(
    HOSTILE_NAME,
    HOSTILE_CATEGORY,
    'risky',
    15,
    findings(2, 0, 0),
    ['P1'],
    null,
    null,
    700,
    'javascript:alert(1)',
  ),
];

function categoryRow(
  category: string,
  rows: SkillRow[],
  utility: Pick<
    CategoryRow,
    'skillsWithUtility' | 'scenarios' | 'passRate' | 'prg' | 'eg' | 'cg' | 'ecg' | 'timeS' | 'tokens'
  >,
): CategoryRow {
  const sum = (f: (r: SkillRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    category,
    skills: rows.length,
    statuses: {
      pass: rows.filter((r) => r.status === 'pass').length,
      caution: rows.filter((r) => r.status === 'caution').length,
      risky: rows.filter((r) => r.status === 'risky').length,
    },
    safetyScore: sum((r) => r.score) / rows.length,
    findings: findings(
      sum((r) => r.findings.high),
      sum((r) => r.findings.medium),
      sum((r) => r.findings.low),
    ),
    ...utility,
  };
}

const NO_UTILITY = {
  skillsWithUtility: 0,
  scenarios: 0,
  passRate: { withSkill: null, noSkill: null },
  prg: null,
  eg: null,
  cg: null,
  ecg: null,
  timeS: { withSkill: null, noSkill: null },
  tokens: { withSkill: null, noSkill: null },
};

function histogram(rows: SkillRow[]): BatchSummary['scoreHistogram'] {
  return Array.from({ length: 9 }, (_, i) => {
    const from = 10 + i * 10;
    const to = i === 8 ? 100 : from + 9;
    return { from, to, count: rows.filter((r) => r.score >= from && r.score <= to).length };
  });
}

function patternRows(rows: SkillRow[]): BatchSummary['patterns'] {
  return PATTERNS.map((p) => {
    const having = rows.filter((r) => r.patterns.includes(p.id));
    // The fixture's skills have one severity per pattern: the pattern's own.
    return {
      pattern: p.id,
      name: p.name,
      skills: { high: 0, medium: 0, low: 0, [p.severity]: having.length },
      any: having.length,
    };
  });
}

const STRATA_WITH_UTILITY: StratumRow[] = [
  { stratum: 'low', n: 2, rate: 2 / 7, meanPrg: 0.35, medianPrg: 0.35, zero: 0, negative: 0 },
  { stratum: 'mid', n: 3, rate: 3 / 7, meanPrg: 0.1, medianPrg: 0.1, zero: 1 / 3, negative: 0 },
  { stratum: 'high', n: 2, rate: 2 / 7, meanPrg: -0.02, medianPrg: -0.02, zero: 0, negative: 0.5 },
  { stratum: 'all', n: 7, rate: 1, meanPrg: 0.14, medianPrg: 0.1, zero: 1 / 7, negative: 1 / 7 },
];

const STRATA_BY_CATEGORY: CategoryStratumRow[] = [
  { category: 'documents', low: 0.3, mid: 0.05, high: -0.05, all: 0.1 },
  { category: 'devops', low: 0.4, mid: null, high: null, all: 0.4 },
];

const base = (skills: SkillRow[]) => ({
  version: SUMMARY_VERSION as typeof SUMMARY_VERSION,
  generatedAt: '2026-12-02T03:00:00.000Z',
  tool: { name: 'skillaudit' as const, version: '0.1.0' },
  counts: { total: skills.length + 2, audited: skills.length, failed: 2, otherConfiguration: 0 },
  statuses: {
    pass: skills.filter((r) => r.status === 'pass').length,
    caution: skills.filter((r) => r.status === 'caution').length,
    risky: skills.filter((r) => r.status === 'risky').length,
  },
  scoreHistogram: histogram(skills),
  patterns: patternRows(skills),
  skills,
  rules: [
    { rule: 'code.env-harvest', pattern: 'E2' as const, findings: 3, skills: 1 },
    { rule: 'prose.override', pattern: 'P1' as const, findings: 2, skills: 1 },
  ],
  errors: [
    {
      code: 'intake.not-a-skill',
      count: 2,
      examples: [
        { source: './corpus/broken/empty', message: 'no SKILL.md in ./corpus/broken/empty' },
        { source: './corpus/broken/</script>', message: `folder named ${HOSTILE_NAME}` },
      ],
    },
  ],
  failures: [
    {
      source: './corpus/broken/empty',
      name: null,
      code: 'intake.not-a-skill',
      message: 'no SKILL.md',
      attempts: 1,
    },
    {
      source: './corpus/broken/</script>',
      name: `<!-- ${HOSTILE_NAME}\u2028`,
      code: 'intake.not-a-skill',
      message: 'no SKILL.md',
      attempts: 1,
    },
  ],
  time: {
    totalMs: skills.reduce((n, r) => n + r.auditMs, 0),
    meanMs: skills.reduce((n, r) => n + r.auditMs, 0) / skills.length,
    p50Ms: 2100,
    p95Ms: 5200,
    byStage: { scan: 2100, detonate: 9800, utility: 2200 },
  },
});

/** Scores 96, 71, 22, 64, 88, 15: mean 59.3, median 67.5. */
export function utilitySummary(): BatchSummary {
  const docs = SKILLS.filter((s) => s.category === 'documents');
  const devops = SKILLS.filter((s) => s.category === 'devops');
  const other = SKILLS.filter((s) => s.category === HOSTILE_CATEGORY);
  const util = (
    skillsWithUtility: number,
    prg: number,
    seconds: [number, number],
    tok: [number, number],
  ) => ({
    skillsWithUtility,
    scenarios: skillsWithUtility * 2,
    passRate: { withSkill: 0.8, noSkill: 0.8 - prg },
    prg,
    eg: 0.1,
    cg: 0.05,
    ecg: prg / 2,
    timeS: { withSkill: seconds[0], noSkill: seconds[1] },
    tokens: { withSkill: tok[0], noSkill: tok[1] },
  });
  return {
    ...base(SKILLS),
    configuration: {
      key: 'cfg-1a2b3c',
      stages: ['scan', 'detonate', 'utility'],
      model: 'fake-model',
      agents: ['claude-code'],
      trials: 2,
    },
    scoreMean: 356 / 6,
    scoreMedian: 67.5,
    categories: [
      categoryRow('documents', docs, util(3, 0.1, [42.5, 61], [12_400, 18_900])),
      categoryRow('devops', devops, util(1, 0.4, [30, 35.5], [8_000, 9_500])),
      categoryRow(HOSTILE_CATEGORY, other, NO_UTILITY),
    ],
    overall: categoryRow('all', SKILLS, util(4, 0.175, [39.4, 54.6], [11_300, 16_550])),
    strata: STRATA_WITH_UTILITY,
    strataByCategory: STRATA_BY_CATEGORY,
    cost: { usd: 1.27, inputTokens: 1_240_000, outputTokens: 86_000, calls: 412 },
  };
}

/** The same corpus audited keyless: no model ran, so nothing about utility is known. */
export function keylessSummary(): BatchSummary {
  const skills = SKILLS.map((s) => ({ ...s, prg: null, ecg: null }));
  const byCategory = ['documents', 'devops', HOSTILE_CATEGORY].map((c) =>
    categoryRow(
      c,
      skills.filter((s) => s.category === c),
      NO_UTILITY,
    ),
  );
  return {
    ...base(skills),
    configuration: { key: 'cfg-keyless', stages: ['scan', 'detonate'] },
    scoreMean: 356 / 6,
    scoreMedian: 67.5,
    categories: byCategory,
    overall: categoryRow('all', skills, NO_UTILITY),
    strata: STRATA_WITH_UTILITY.map((s) => ({
      stratum: s.stratum,
      n: 0,
      rate: null,
      meanPrg: null,
      medianPrg: null,
      zero: null,
      negative: null,
    })),
    strataByCategory: [],
    cost: { usd: 0, inputTokens: 0, outputTokens: 0, calls: 0 },
  };
}

/** A generated keyless-and-model corpus of `n` skills in 23 categories, for size and speed checks. */
export function generatedSummary(n: number): BatchSummary {
  const statuses: SafetyStatus[] = ['pass', 'caution', 'risky'];
  const ids = PATTERNS.map((p) => p.id);
  const skills = Array.from({ length: n }, (_, i) => {
    const category = `category-${String(i % 23).padStart(2, '0')}`;
    const score = 10 + ((i * 37) % 91);
    const withUtility = i % 3 === 0;
    return skill(
      `skill-${String(i).padStart(5, '0')}`,
      category,
      statuses[score >= 80 ? 0 : score >= 50 ? 1 : 2]!,
      score,
      findings(i % 4 === 0 ? 1 : 0, i % 3, i % 5),
      [ids[i % ids.length]!, ids[(i * 7) % ids.length]!],
      withUtility ? ((i % 11) - 4) / 10 : null,
      withUtility ? ((i % 7) - 2) / 10 : null,
      500 + ((i * 131) % 9000),
      `runs/skill-${String(i).padStart(5, '0')}`,
    );
  });
  const names = [...new Set(skills.map((s) => s.category))];
  const scores = skills.map((s) => s.score).sort((a, b) => a - b);
  return {
    ...base(skills),
    configuration: { key: 'cfg-generated', stages: ['scan', 'utility'] },
    scoreMean: scores.reduce((a, b) => a + b, 0) / n,
    scoreMedian: scores[Math.floor(n / 2)] ?? null,
    categories: names.map((c) =>
      categoryRow(
        c,
        skills.filter((s) => s.category === c),
        NO_UTILITY,
      ),
    ),
    overall: categoryRow('all', skills, NO_UTILITY),
    strata: STRATA_WITH_UTILITY,
    strataByCategory: STRATA_BY_CATEGORY,
    cost: { usd: 0, inputTokens: 0, outputTokens: 0, calls: 0 },
  };
}
