/** @import { BatchSummary, CategoryRow, StratumName } from '../summary-model.js' */
/** @import { Severity } from '../../core/types.js' */
import { STATUS_LABEL } from '../../core/format.js';
import { Section } from '../../core/ui.jsx';
import { VERDICT_STATUSES as STATUSES } from '../../core/verdict-words.js';
import { Empty, GroupedBars, Histogram, Legend, StackedBars } from './charts.jsx';
import { gain, seconds, share, tokens } from './numbers.js';

// The plots a reader looks at before the tables: the safety of the corpus (always there: the scan runs
// keyless) and the utility of its skills (only when a model ran the paired trials).

/** Plots list at most this many categories (most skills first); the tables hold them all. */
const MAX_CATEGORIES = 25;

/** @type {readonly Severity[]} */
const SEVERITIES = ['high', 'medium', 'low'];

/** @type {Record<StratumName, string>} */
const STRATUM_LABEL = {
  low: 'low baseline (< 50%)',
  mid: 'mid baseline (50–80%)',
  high: 'high baseline (> 80%)',
  all: 'all scenarios',
};
/** @type {readonly StratumName[]} */
const STRATA = ['low', 'mid', 'high', 'all'];
const STRATUM_SERIES = STRATA.map((s) => ({ name: s, cls: `fill-stratum-${s}` }));
const WITH_WITHOUT = [
  { name: 'with skill', cls: 'fill-with' },
  { name: 'without', cls: 'fill-without' },
];

/** @param {{ title: string, note?: string, children: import('preact').ComponentChildren, testId: string }} props */
function Plot({ title, note, children, testId }) {
  return (
    <div class="plot" data-testid={testId}>
      <h3>{title}</h3>
      {note ? <p class="note muted small">{note}</p> : null}
      {children}
    </div>
  );
}

/** @param {number} shown @param {number} all */
function moreNote(shown, all) {
  return all > shown ? `The ${shown} largest of ${all} categories; the tables list them all.` : undefined;
}

/** @param {{ summary: BatchSummary }} props */
export function SafetyPlots({ summary }) {
  const { scoreHistogram, categories, patterns, counts } = summary;
  const scored = scoreHistogram.reduce((n, b) => n + b.count, 0);
  const shownCategories = categories.filter((c) => c.skills > 0).slice(0, MAX_CATEGORIES);
  const maxPattern = Math.max(0, ...patterns.map((p) => p.any));
  return (
    <Section id="safety" title="Safety across the corpus">
      <div class="plots">
        <Plot
          title="Safety"
          note="Skills by safety rating (higher is safer; pass 70–100, caution 40–69, risky 0–39)."
          testId="plot-histogram"
        >
          {scored ? (
            <Histogram
              ariaLabel="Histogram of safety ratings"
              bins={scoreHistogram.map((b) => ({
                label: `${b.from}–${b.to}`,
                count: b.count,
                title: `safety ${b.from}–${b.to}: ${b.count} skill(s)`,
              }))}
            />
          ) : (
            <Empty>No skill finished its audit, so there is no score to plot.</Empty>
          )}
        </Plot>
        <Plot
          title="Status by category"
          note={moreNote(shownCategories.length, categories.length) ?? 'Share of each category’s skills.'}
          testId="plot-status-by-category"
        >
          {shownCategories.length ? (
            <>
              <Legend items={STATUSES.map((s) => ({ name: STATUS_LABEL[s], cls: `fill-${s}` }))} />
              <StackedBars
                ariaLabel="Safety status by category"
                max={1}
                rows={shownCategories.map((c) => ({
                  label: c.category,
                  total: c.skills,
                  parts: STATUSES.map((s) => ({
                    name: STATUS_LABEL[s],
                    value: c.statuses[s],
                    cls: `fill-${s}`,
                  })),
                  note: `${c.skills} skill(s)`,
                }))}
              />
            </>
          ) : (
            <Empty>No category has an audited skill.</Empty>
          )}
        </Plot>
        <Plot
          title="Pattern prevalence"
          note="Skills with at least one finding of each pattern, coloured by the most severe such finding."
          testId="plot-patterns"
        >
          {maxPattern ? (
            <>
              <Legend items={SEVERITIES.map((s) => ({ name: s, cls: `fill-${s}` }))} />
              <StackedBars
                ariaLabel="Skills with findings of each pattern, by severity"
                max={maxPattern}
                rows={patterns.map((p) => ({
                  label: `${p.pattern} ${p.name}`,
                  parts: SEVERITIES.map((s) => ({ name: s, value: p.skills[s], cls: `fill-${s}` })),
                  note: `${p.any} · ${share(counts.audited ? p.any / counts.audited : null)}`,
                }))}
              />
            </>
          ) : (
            <Empty>No audited skill has a finding of any of the {patterns.length} patterns.</Empty>
          )}
        </Plot>
      </div>
    </Section>
  );
}

/**
 * One measure with vs without the skill, overall first, then by category.
 * @param {{
 *   pairs: CategoryRow[],
 *   title: string,
 *   note: string,
 *   testId: string,
 *   format: (v: number | null) => string,
 *   pick: (c: CategoryRow) => { withSkill: number | null, noSkill: number | null },
 * }} props
 */
function WithWithout({ pairs, title, note, testId, format, pick }) {
  return (
    <Plot title={title} note={note} testId={testId}>
      <Legend items={WITH_WITHOUT} />
      <GroupedBars
        ariaLabel={`${title}, with and without the skill, by category`}
        format={format}
        series={WITH_WITHOUT}
        groups={pairs.map((c, i) => ({
          label: i === 0 ? 'all categories' : c.category,
          values: [pick(c).withSkill, pick(c).noSkill],
        }))}
      />
    </Plot>
  );
}

/** @param {CategoryRow} c */
const measured = (c) => c.skillsWithUtility > 0;

/** @param {{ summary: BatchSummary }} props */
export function UtilityPlots({ summary }) {
  const { overall, strata, strataByCategory, categories } = summary;
  if (!measured(overall)) {
    return (
      <Section id="utility" title="Utility: with the skill vs without">
        <Empty testId="utility-not-measured">
          Utility was not measured: no skill in this batch has paired-trial results (a keyless batch runs no
          model), so there is no pass-rate gain, time or tokens with vs without the skill to plot.
        </Empty>
      </Section>
    );
  }
  const byStratum = STRATA.map((s) => strata.find((r) => r.stratum === s) ?? null);
  const withUtility = categories.filter(measured).slice(0, MAX_CATEGORIES);
  const pairs = [overall, ...withUtility];
  const figureA2 = strataByCategory.slice(0, MAX_CATEGORIES);
  return (
    <Section id="utility" title="Utility: with the skill vs without">
      <div class="plots">
        <Plot
          title="Pass-rate gain by how well the agent did without the skill"
          note="Pass-rate gain of scenarios grouped by how well the agent did without the skill."
          testId="plot-prg-strata"
        >
          <GroupedBars
            signed
            ariaLabel="Mean pass-rate gain by no-skill baseline stratum"
            format={gain}
            series={[{ name: 'mean pass-rate gain', cls: 'fill-neutral' }]}
            groups={byStratum.map((r, i) => ({
              label: `${STRATUM_LABEL[STRATA[i] ?? 'all']} · n=${r?.n ?? 0}`,
              values: [r?.meanPrg ?? null],
            }))}
          />
        </Plot>
        <Plot
          title="Pass-rate gain by category and how well the agent did without the skill"
          note={
            moreNote(figureA2.length, strataByCategory.length) ??
            'Mean pass-rate gain with the skill, one bar per level of the no-skill pass rate.'
          }
          testId="plot-prg-categories"
        >
          {figureA2.length ? (
            <>
              <Legend items={STRATUM_SERIES} />
              <GroupedBars
                signed
                ariaLabel="Mean pass-rate gain by category and stratum"
                format={gain}
                series={STRATUM_SERIES}
                groups={figureA2.map((r) => ({ label: r.category, values: STRATA.map((s) => r[s]) }))}
              />
            </>
          ) : (
            <Empty>No category has valid scenarios.</Empty>
          )}
        </Plot>
        <WithWithout
          pairs={pairs}
          title="Agent time per scenario"
          note="Mean wall time, with vs without the skill."
          testId="plot-time"
          format={seconds}
          pick={(c) => c.timeS}
        />
        <WithWithout
          pairs={pairs}
          title="Tokens per scenario"
          note="Mean effective tokens (input − cached + output), with vs without the skill."
          testId="plot-tokens"
          format={tokens}
          pick={(c) => c.tokens}
        />
      </div>
    </Section>
  );
}
