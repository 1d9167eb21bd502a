/** @import { QualitySummary } from '../../model.js' */
import { clip, percent, reveal } from '../../../core/format.js';
import { Section, Txt } from '../../../core/ui.jsx';

/** @type {[string, string][]} */
const GROUPS = [
  ['static', 'Static'],
  ['dynamic', 'Dynamic'],
  ['rubric', 'Human-assisted rubric'],
];
const WIDTH = 760;
const LABEL = 280;
const BAR = 380;
const ROW = 30;
const HEAD = 30;

/** Horizontal bars per dimension, grouped; dimensions that did not run are drawn as empty outlines. @param {{ quality: QualitySummary }} props */
function ProfileChart({ quality }) {
  /** @type {import('preact').JSX.Element[]} */
  const rows = [];
  let y = 0;
  const known = new Set(GROUPS.map(([id]) => id));
  const extra = [...new Set(quality.dimensions.map((d) => d.group))].filter((g) => !known.has(g));
  /** @type {[string, string][]} */
  const groups = [...GROUPS, ...extra.map((g) => /** @type {[string, string]} */ ([g, g]))];
  for (const [id, title] of groups) {
    const dims = quality.dimensions.filter((d) => d.group === id);
    if (!dims.length) continue;
    const groupScore = /** @type {Record<string, number | null>} */ (quality.groups)[id] ?? null;
    rows.push(
      <text class="chart-group" x={0} y={y + 20} key={`g-${id}`}>
        {clip(reveal(title), 40)}{' '}
        <tspan class="chart-group-score">{groupScore === null ? '' : percent(groupScore)}</tspan>
      </text>,
    );
    y += HEAD;
    for (const d of dims) {
      const w = d.score === null ? BAR : Math.max(2, d.score * BAR);
      rows.push(
        <g key={`d-${y}`} transform={`translate(0 ${y})`} data-testid="quality-bar">
          <text class="chart-label" x={LABEL - 12} y={19} text-anchor="end">
            {clip(reveal(d.name), 40)}
          </text>
          <rect class="chart-track" x={LABEL} y={6} width={BAR} height={16} rx={3} />
          {d.score === null ? (
            <rect class="chart-notrun" x={LABEL} y={6} width={w} height={16} rx={3} />
          ) : (
            <rect
              class={`chart-bar ${d.score >= 0.75 ? 'good' : d.score >= 0.5 ? 'warn' : 'bad'}`}
              x={LABEL}
              y={6}
              width={w}
              height={16}
              rx={3}
            />
          )}
          <text class="chart-value" x={LABEL + BAR + 10} y={19}>
            {d.score === null ? 'not run' : percent(d.score)}
          </text>
        </g>,
      );
      y += ROW;
    }
  }
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${y + 4}`} role="img" aria-label="Quality profile by dimension">
      {rows}
    </svg>
  );
}

/** @param {{ quality: QualitySummary }} props */
export function Quality({ quality }) {
  const notRun = quality.dimensions.filter((d) => d.score === null);
  return (
    <Section
      id="quality"
      title="Quality profile"
      aside={`overall ${percent(quality.overall)} · mean of the scored dimensions`}
    >
      <ProfileChart quality={quality} />
      {notRun.length ? (
        <ul class="notes">
          {notRun.map((d, i) => (
            <li key={i}>
              <Txt value={d.name} max={80} />: not run, <Txt value={d.reason ?? d.status} max={300} />
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
