import { count, duration, STATUS_LABEL } from '../core/format.js';
import { codeSpan, prose } from '../report/index.js';
import type { BatchSummary, CategoryRow, StratumName } from './summary-model.js';

// summary.md: the batch summary as Markdown, Table 3 and Table A2 laid out as in seed 000 (three decimals for
// rates and gains, whole seconds, tokens in K, one decimal for scores). Names, sources, categories, rule ids
// and messages come from skills or their mapping: untrusted, so they pass through `prose` or `codeSpan`
// (no markup, link, mention or table cell break can come out of them). A figure nobody measured is "—".

const NONE = '—';
const SKILL_ROWS = 200;
const FAILED_ROWS = 100;

const fixed = (x: number | null, digits: number) =>
  x === null || !Number.isFinite(x) ? NONE : x.toFixed(digits);
const rate = (x: number | null) => fixed(x, 3);
/** A gain as in the seed's tables: +0.055, −0.270. */
const gain = (x: number | null) =>
  x === null || !Number.isFinite(x) ? NONE : `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(3)}`;
const share = (x: number | null) => (x === null ? NONE : `${(x * 100).toFixed(1)}%`);
const seconds = (x: number | null) => (x === null ? NONE : String(Math.round(x)));

/** Token counts as the seed prints them: 812, 1.5K, 55K, 1.2M. */
export function tokens(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return NONE;
  const abs = Math.abs(x);
  if (abs < 1000) return String(Math.round(x));
  if (abs < 10_000) return `${(x / 1000).toFixed(1)}K`;
  if (abs < 1_000_000) return `${Math.round(x / 1000)}K`;
  return `${(x / 1_000_000).toFixed(1)}M`;
}

/** A table whose first `text` columns are left-aligned and the rest (figures) right-aligned. */
const table = (header: string[], rows: string[][], text = 1): string[] => [
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < text ? '---|' : '---:|')).join('')}`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
];

function categoryCells(row: CategoryRow, label: string): string[] {
  return [
    label,
    String(row.skills),
    String(row.scenarios),
    rate(row.passRate.withSkill),
    rate(row.passRate.noSkill),
    rate(row.prg),
    seconds(row.timeS.withSkill),
    seconds(row.timeS.noSkill),
    tokens(row.tokens.withSkill),
    tokens(row.tokens.noSkill),
    gain(row.eg),
    gain(row.cg),
    gain(row.ecg),
    fixed(row.safetyScore, 1),
    String(row.findings.high),
    String(row.findings.medium),
    String(row.findings.low),
  ];
}

const STRATUM_LABEL: Record<StratumName, string> = {
  low: 'Low (wo < 0.5)',
  mid: 'Mid (0.5 ≤ wo ≤ 0.8)',
  high: 'High (wo > 0.8)',
  all: 'All (unstratified)',
};

function header(s: BatchSummary): string[] {
  const config = s.configuration;
  return [
    '# SkillAudit batch summary',
    '',
    `Generated ${s.generatedAt} by skillaudit ${s.tool.version}. ` +
      (config
        ? `Configuration ${codeSpan(config.key, 40)}, stages ${config.stages.map((st) => codeSpan(st, 20)).join(', ')}.`
        : 'The folder has no batch-config.json: every finished run folder counts.'),
    '',
    ...table(
      ['Skills', 'Audited', 'Failed', 'Other configuration', 'Pass', 'Caution', 'Risky'],
      [
        [
          s.counts.total,
          s.counts.audited,
          s.counts.failed,
          s.counts.otherConfiguration,
          s.statuses.pass,
          s.statuses.caution,
          s.statuses.risky,
        ].map(String),
      ],
    ),
  ];
}

function table3(s: BatchSummary): string[] {
  return [
    '## By category: utility, time, cost and safety (Table 3 of the SkillAudit paper)',
    '',
    'wi = with the skill; wo = without it. Pass rates, time (s) and tokens (effective input tokens) are means over ' +
      'valid scenarios; PRG (pass-rate gain), EG (time gain), CG (token gain) and ECG (time and token gain ' +
      'combined) are means of the skills’ own means; Safety is the mean safety rating (0–100 in the verdict’s bands: pass 70–100, caution 40–69, risky 0–39); ' +
      'H/M/L count static findings over all skills in the category.',
    '',
    ...table(
      [
        'Category',
        'Skills',
        'Scenarios',
        'Pass wi',
        'Pass wo',
        'PRG',
        'Time wi',
        'Time wo',
        'Tokens wi',
        'Tokens wo',
        'EG',
        'CG',
        'ECG',
        'Score',
        'H',
        'M',
        'L',
      ],
      [
        ...s.categories.map((row) => categoryCells(row, prose(row.category, 80))),
        categoryCells(s.overall, '**Overall**'),
      ],
    ),
  ];
}

function tableA2(s: BatchSummary): string[] {
  return [
    '## By how well the agent did without the skill (Table A2 of the SkillAudit paper)',
    '',
    'Valid scenarios by their pass rate without the skill (wo), with their pass-rate gain (PRG). zero% counts ' +
      'scenarios with |PRG| < 0.001, neg% those with PRG < −0.001.',
    '',
    ...table(
      ['Stratum', 'n', 'rate', 'mean PRG', 'median PRG', 'zero%', 'neg%'],
      s.strata.map((r) => [
        STRATUM_LABEL[r.stratum],
        String(r.n),
        share(r.rate),
        rate(r.meanPrg),
        rate(r.medianPrg),
        fixed(r.zero === null ? null : r.zero * 100, 1),
        fixed(r.negative === null ? null : r.negative * 100, 1),
      ]),
    ),
    '### Mean pass-rate gain by category and level of wo (Figure A2 of the SkillAudit paper)',
    '',
    ...table(
      ['Category', 'Low', 'Mid', 'High', 'All'],
      s.strataByCategory.map((r) => [
        prose(r.category, 80),
        rate(r.low),
        rate(r.mid),
        rate(r.high),
        rate(r.all),
      ]),
    ),
  ];
}

function safety(s: BatchSummary): string[] {
  const listed = s.patterns.filter((p) => p.any > 0);
  return [
    '## Safety',
    '',
    `Mean safety rating ${fixed(s.scoreMean, 1)}, median ${fixed(s.scoreMedian, 1)} (0–100 in the verdict's bands: pass 70–100, caution 40–69, risky 0–39).`,
    '',
    ...table(
      ['Safety', 'Skills'],
      s.scoreHistogram.map((b) => [`${b.from}–${b.to}`, String(b.count)]),
    ),
    '### Pattern prevalence',
    '',
    'Skills with at least one unsuppressed finding of the pattern (static or runtime), by the highest severity among them.',
    '',
    ...(listed.length === 0
      ? ['No skill has an unsuppressed finding.', '']
      : table(
          ['Pattern', 'Name', 'Skills', 'High', 'Medium', 'Low'],
          listed.map((p) => [
            p.pattern,
            prose(p.name, 60),
            String(p.any),
            String(p.skills.high),
            String(p.skills.medium),
            String(p.skills.low),
          ]),
          2,
        )),
    ...(s.rules.length === 0
      ? []
      : [
          '### Most frequent rules',
          '',
          ...table(
            ['Rule', 'Pattern', 'Findings', 'Skills'],
            s.rules.map((r) => [codeSpan(r.rule, 80), r.pattern, String(r.findings), String(r.skills)]),
            2,
          ),
        ]),
  ];
}

function failures(s: BatchSummary): string[] {
  if (s.failures.length === 0) return [];
  const shown = s.failures.slice(0, FAILED_ROWS);
  return [
    '## Errors',
    '',
    ...table(
      ['Code', 'Count'],
      s.errors.map((e) => [codeSpan(e.code, 60), String(e.count)]),
    ),
    ...table(
      ['Source', 'Skill', 'Code', 'Message', 'Attempts'],
      shown.map((f) => [
        codeSpan(f.source, 120),
        f.name === null ? NONE : prose(f.name, 80),
        codeSpan(f.code, 60),
        prose(f.message, 240),
        String(f.attempts),
      ]),
      4,
    ),
    ...(s.failures.length > shown.length
      ? [`… ${s.failures.length - shown.length} more failures in summary.json.`, '']
      : []),
  ];
}

function timeAndCost(s: BatchSummary): string[] {
  const t = s.time;
  const ms = (x: number | null) => (x === null ? NONE : duration(x));
  const stages = Object.entries(t.byStage);
  return [
    '## Time and cost',
    '',
    `Audit wall time: ${duration(t.totalMs)} in all; per skill mean ${ms(t.meanMs)}, median ${ms(t.p50Ms)}, ` +
      `95th percentile ${ms(t.p95Ms)}.` +
      (stages.length
        ? ` By stage: ${stages.map(([st, v]) => `${prose(st, 40)} ${duration(v)}`).join(', ')}.`
        : ''),
    '',
    `Model spending: $${s.cost.usd.toFixed(2)}, ${count(s.cost.inputTokens)} input and ` +
      `${count(s.cost.outputTokens)} output tokens in ${count(s.cost.calls)} calls.`,
    '',
  ];
}

function skillTable(s: BatchSummary): string[] {
  if (s.skills.length === 0) return [];
  const shown = [...s.skills].sort((a, b) => a.score - b.score).slice(0, SKILL_ROWS);
  return [
    `## Skills${s.skills.length > shown.length ? ` (the ${shown.length} lowest scores)` : ', lowest score first'}`,
    '',
    ...table(
      ['Skill', 'Category', 'Status', 'Score', 'H', 'M', 'L', 'PRG', 'ECG', 'Report'],
      shown.map((k) => [
        prose(k.name, 80),
        prose(k.category, 80),
        STATUS_LABEL[k.status],
        fixed(k.score, 1),
        String(k.findings.high),
        String(k.findings.medium),
        String(k.findings.low),
        gain(k.prg),
        gain(k.ecg),
        codeSpan(`${k.runDir}/report.html`, 160),
      ]),
      3,
    ),
    ...(s.skills.length > shown.length
      ? [`… ${s.skills.length - shown.length} more skills in summary.json.`, '']
      : []),
  ];
}

export function renderSummaryMarkdown(s: BatchSummary): string {
  return [
    ...header(s),
    ...table3(s),
    ...tableA2(s),
    ...safety(s),
    ...failures(s),
    ...timeAndCost(s),
    ...skillTable(s),
  ].join('\n');
}
