import { clip, reveal } from '../../core/format.js';

// The dashboard's plots: small inline SVG components, no chart library. Labels that come from skills (category
// names) are text nodes, revealed and clipped like every other skill string; each mark carries a <title> with
// its exact figure for a reader who hovers. A plot with nothing to show says so in words (see `Empty`).

const WIDTH = 760;
const LABEL = 230;
const VALUE = 140;
const BAR = WIDTH - LABEL - VALUE;

/** A label from the data, revealed, and cut with an ellipsis to fit the label column (the <title> has it whole). @param {string} text */
function label(text, max = 28) {
  const chars = Array.from(reveal(text));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** Why a plot is not drawn. @param {{ children: import('preact').ComponentChildren, testId?: string }} props */
export function Empty({ children, testId }) {
  return (
    <p class="not-run chart-empty" data-testid={testId ?? 'chart-empty'}>
      <span class="chip chip-muted">no data</span> {children}
    </p>
  );
}

/** Colour key of a plot. @param {{ items: { name: string, cls: string }[] }} props */
export function Legend({ items }) {
  return (
    <ul class="legend">
      {items.map((it) => (
        <li key={it.name}>
          <span class={`swatch ${it.cls}`} aria-hidden="true" />
          {it.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * Bars of a histogram, one per bin, with the count above each.
 * @param {{ bins: { label: string, count: number, title: string }[], ariaLabel: string }} props
 */
export function Histogram({ bins, ariaLabel }) {
  const H = 230;
  const top = 22;
  const bottom = 30;
  const left = 8;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const slot = (WIDTH - left * 2) / Math.max(1, bins.length);
  const plot = H - top - bottom;
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${H}`} role="img" aria-label={ariaLabel}>
      {bins.map((b, i) => {
        const h = (b.count / max) * plot;
        const x = left + i * slot + slot * 0.12;
        return (
          <g key={i} data-testid="histogram-bar" data-count={b.count}>
            <title>{b.title}</title>
            <rect
              class="bar-fill fill-neutral"
              x={x}
              y={top + plot - h}
              width={slot * 0.76}
              height={h}
              rx={2}
            />
            <text class="chart-value" x={x + slot * 0.38} y={top + plot - h - 6} text-anchor="middle">
              {b.count}
            </text>
            <text class="chart-label" x={x + slot * 0.38} y={H - 10} text-anchor="middle">
              {b.label}
            </text>
          </g>
        );
      })}
      <line class="axis" x1={left} x2={WIDTH - left} y1={top + plot} y2={top + plot} />
    </svg>
  );
}

/**
 * Horizontal stacked bars, one row per group, scaled to `max`, or to the row's own `total` (a row of shares
 * that fills the width).
 * @param {{
 *   rows: { label: string, parts: { value: number, cls: string, name: string }[], note: string, total?: number }[],
 *   max: number,
 *   ariaLabel: string,
 *   testId?: string,
 * }} props
 */
export function StackedBars({ rows, max, ariaLabel, testId }) {
  const ROW = 26;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${rows.length * ROW + 6}`}
      role="img"
      aria-label={ariaLabel}
      data-testid={testId}
    >
      {rows.map((r, i) => {
        let x = LABEL;
        const scale = BAR / Math.max(r.total ?? max, Number.MIN_VALUE);
        return (
          <g key={i} transform={`translate(0 ${i * ROW})`} data-testid="bar-row">
            <title>{`${clip(reveal(r.label), 200)}: ${r.parts.map((p) => `${p.name} ${p.value}`).join(', ')}`}</title>
            <text class="chart-label" x={LABEL - 10} y={18} text-anchor="end">
              {label(r.label)}
            </text>
            <rect class="chart-track" x={LABEL} y={5} width={BAR} height={16} rx={3} />
            {r.parts.map((p) => {
              const w = Math.max(0, p.value * scale);
              const rect = (
                <rect class={`bar-fill ${p.cls}`} x={x} y={5} width={w} height={16} key={p.name} />
              );
              x += w;
              return rect;
            })}
            <text class="chart-value" x={LABEL + BAR + 10} y={18}>
              {r.note}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/**
 * One group of thin bars per row, one bar per series. `signed` values (gains such as PRG) extend left or right
 * of a zero line in the middle; others grow from the left. The scale fits the largest magnitude shown so small
 * values stay visible; an unknown value draws no bar and reads "—".
 * @param {{
 *   groups: { label: string, values: (number | null)[] }[],
 *   series: { name: string, cls: string }[],
 *   format: (v: number | null) => string,
 *   signed?: boolean,
 *   ariaLabel: string,
 *   testId?: string,
 * }} props
 */
export function GroupedBars({ groups, series, format, signed = false, ariaLabel, testId }) {
  const BAR_H = series.length > 1 ? 11 : 16;
  const GAP = series.length > 1 ? 3 : 0;
  const GROUP = series.length * (BAR_H + GAP) + 10;
  const magnitude = Math.max(
    signed ? 0.05 : Number.MIN_VALUE,
    ...groups.flatMap((g) => g.values.map((v) => (v === null || !Number.isFinite(v) ? 0 : Math.abs(v)))),
  );
  const half = signed ? BAR / 2 : BAR;
  const zero = signed ? LABEL + BAR / 2 : LABEL;
  const plotHeight = groups.length * GROUP + 4;
  const height = plotHeight + (signed ? 18 : 0);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={ariaLabel}
      data-testid={testId}
    >
      {groups.map((g, i) => (
        <g key={i} transform={`translate(0 ${i * GROUP})`} data-testid="bar-row">
          <text class="chart-label" x={LABEL - 10} y={GROUP / 2 + 1} text-anchor="end">
            {label(g.label)}
          </text>
          {series.map((s, j) => {
            const v = g.values[j] ?? null;
            const y = 5 + j * (BAR_H + GAP);
            const known = v !== null && Number.isFinite(v);
            const w = known ? (Math.abs(v) / magnitude) * half : 0;
            return (
              <g key={s.name}>
                <title>{`${clip(reveal(g.label), 200)}, ${s.name}: ${format(v)}`}</title>
                {known ? (
                  <rect
                    class={`bar-fill ${s.cls}`}
                    x={v < 0 ? zero - w : zero}
                    y={y}
                    width={w}
                    height={BAR_H}
                  />
                ) : null}
                <text class="chart-value small-value" x={LABEL + BAR + 10} y={y + BAR_H - 1}>
                  {series.length > 1 ? `${s.name} ${format(v)}` : format(v)}
                </text>
              </g>
            );
          })}
        </g>
      ))}
      <line class="axis" x1={zero} x2={zero} y1={0} y2={plotHeight} />
      {signed ? (
        <>
          <text class="chart-label axis-label" x={LABEL} y={height - 3} text-anchor="start">
            {format(-magnitude)}
          </text>
          <text class="chart-label axis-label" x={zero} y={height - 3} text-anchor="middle">
            0
          </text>
          <text class="chart-label axis-label" x={LABEL + BAR} y={height - 3} text-anchor="end">
            {format(magnitude)}
          </text>
        </>
      ) : null}
    </svg>
  );
}
