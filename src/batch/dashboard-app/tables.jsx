/** @import { BatchSummary, CategoryRow, ErrorRow, FailedRow, RuleRow, StratumRow } from '../summary-model.js' */
/** @import { Column } from './table.jsx' */
import { count } from '../../core/format.js';
import { Code, Section, Txt } from '../../core/ui.jsx';
import { DASH, gain, score, seconds, share, tokens } from './numbers.js';
import { DataTable } from './table.jsx';

// The corpus by category and by how well the agent did without the skill (the seed's Table 3 and Table A2), and
// the corpus's rules, errors and failures.

/** Failures listed on the page; a batch where most sources failed lists the rest in summary.json. */
const MAX_FAILURES = 500;

/** @param {number | null} a @param {number | null} b @param {(v: number | null) => string} f */
const pair = (a, b, f) => `${f(a)} / ${f(b)}`;

/**
 * The category table's safety columns: all it shows when no skill was measured for utility.
 * @type {Column<CategoryRow>[]}
 */
const CATEGORY_SAFETY_COLUMNS = [
  { head: 'Category', cell: (r) => <Txt value={r.category} max={80} /> },
  { head: 'Skills', num: true, cell: (r) => count(r.skills) },
  { head: 'Pass', num: true, cell: (r) => count(r.statuses.pass) },
  { head: 'Caution', num: true, cell: (r) => count(r.statuses.caution) },
  { head: 'Risky', num: true, cell: (r) => count(r.statuses.risky) },
  { head: 'Safety', num: true, cell: (r) => score(r.safetyScore) },
  {
    head: 'Findings H / M / L',
    num: true,
    cell: (r) => `${count(r.findings.high)} / ${count(r.findings.medium)} / ${count(r.findings.low)}`,
  },
];

/**
 * Its utility columns, all dashes in a batch without a model.
 * @type {Column<CategoryRow>[]}
 */
const CATEGORY_UTILITY_COLUMNS = [
  { head: 'With utility', num: true, cell: (r) => count(r.skillsWithUtility) },
  { head: 'Scenarios', num: true, cell: (r) => count(r.scenarios) },
  {
    head: 'Pass rate with / without',
    num: true,
    cell: (r) => pair(r.passRate.withSkill, r.passRate.noSkill, share),
  },
  { head: 'Pass-rate gain', num: true, cell: (r) => gain(r.prg) },
  { head: 'Time gain', num: true, cell: (r) => gain(r.eg) },
  { head: 'Token gain', num: true, cell: (r) => gain(r.cg) },
  { head: 'Combined gain', num: true, cell: (r) => gain(r.ecg) },
  { head: 'Time with / without', num: true, cell: (r) => pair(r.timeS.withSkill, r.timeS.noSkill, seconds) },
  {
    head: 'Tokens with / without',
    num: true,
    cell: (r) => pair(r.tokens.withSkill, r.tokens.noSkill, tokens),
  },
];

/** @type {Column<StratumRow>[]} */
const STRATUM_COLUMNS = [
  { head: 'Stratum', cell: (r) => r.stratum },
  { head: 'Scenarios', num: true, cell: (r) => count(r.n) },
  { head: 'Share', num: true, cell: (r) => share(r.rate) },
  { head: 'Mean pass-rate gain', num: true, cell: (r) => gain(r.meanPrg) },
  { head: 'Median gain', num: true, cell: (r) => gain(r.medianPrg) },
  { head: 'No gain', num: true, cell: (r) => share(r.zero) },
  { head: 'Worse with the skill', num: true, cell: (r) => share(r.negative) },
];

/** @type {Column<RuleRow>[]} */
const RULE_COLUMNS = [
  { head: 'Rule', cell: (r) => <Code value={r.rule} max={120} /> },
  { head: 'Pattern', cell: (r) => r.pattern },
  { head: 'Findings', num: true, cell: (r) => count(r.findings) },
  { head: 'Skills', num: true, cell: (r) => count(r.skills) },
];

/** @type {Column<ErrorRow>[]} */
const ERROR_COLUMNS = [
  { head: 'Error', cell: (r) => <Code value={r.code} max={80} /> },
  { head: 'Count', num: true, cell: (r) => count(r.count) },
  {
    head: 'Examples',
    cell: (r) =>
      r.examples.length ? (
        <ul class="examples">
          {r.examples.map((e, i) => (
            <li key={i}>
              <Code value={e.source} max={200} /> <Txt value={e.message} max={300} />
            </li>
          ))}
        </ul>
      ) : (
        DASH
      ),
  },
];

/** @type {Column<FailedRow>[]} */
const FAILURE_COLUMNS = [
  { head: 'Source', cell: (r) => <Code value={r.source} max={300} /> },
  { head: 'Name', cell: (r) => (r.name === null ? DASH : <Txt value={r.name} max={120} />) },
  { head: 'Error', cell: (r) => <Code value={r.code} max={80} /> },
  { head: 'Message', cell: (r) => <Txt value={r.message} max={600} /> },
  { head: 'Attempts', num: true, cell: (r) => count(r.attempts) },
];

/** @param {{ summary: BatchSummary }} props */
export function Tables({ summary }) {
  return (
    <>
      <Section id="table-3" title="By category" aside="Means over each category’s skills; — when none">
        <DataTable
          testId="category-table"
          columns={
            summary.overall.skillsWithUtility > 0
              ? [...CATEGORY_SAFETY_COLUMNS, ...CATEGORY_UTILITY_COLUMNS]
              : CATEGORY_SAFETY_COLUMNS
          }
          rows={summary.categories}
          foot={{ ...summary.overall, category: 'All skills' }}
        />
      </Section>
      <Section
        id="table-a2"
        title="By how well the agent did without the skill"
        aside="Valid scenarios grouped by their pass rate without the skill"
      >
        {summary.strata.some((s) => s.n > 0) ? (
          <DataTable testId="strata-table" columns={STRATUM_COLUMNS} rows={summary.strata} />
        ) : (
          <p class="muted" data-testid="strata-none">
            No valid scenarios: utility was not measured in this batch.
          </p>
        )}
      </Section>
      <Section id="rules" title="Most frequent rules">
        {summary.rules.length ? (
          <DataTable testId="rules-table" columns={RULE_COLUMNS} rows={summary.rules} />
        ) : (
          <p class="muted">No rule fired on any audited skill.</p>
        )}
      </Section>
      <Section id="errors" title="Errors by class">
        {summary.errors.length ? (
          <DataTable testId="errors-table" columns={ERROR_COLUMNS} rows={summary.errors} />
        ) : (
          <p class="muted">No errors.</p>
        )}
      </Section>
      <Section
        id="failures"
        title="Failures"
        aside={`${count(summary.failures.length)} source(s) not audited`}
      >
        {summary.failures.length ? (
          <>
            <DataTable
              testId="failures-table"
              columns={FAILURE_COLUMNS}
              rows={summary.failures.slice(0, MAX_FAILURES)}
            />
            {summary.failures.length > MAX_FAILURES ? (
              <p class="muted">
                … and {count(summary.failures.length - MAX_FAILURES)} more: see summary.json and failures/.
              </p>
            ) : null}
          </>
        ) : (
          <p class="muted">Every source was audited.</p>
        )}
      </Section>
    </>
  );
}
