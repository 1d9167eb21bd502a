import { duration, percent, signedPercent } from '../../core/format.js';

// Numbers of the dashboard in human form. The report's formatters say "n/a" for an unknown value; a corpus table
// is read down its columns, so an unknown cell is the quieter "—". Pure functions: tested in Node, bundled.

export const DASH = '—';

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** A share in [0, 1] as a whole percentage, e.g. `42%`. */
export function share(v: number | null | undefined): string {
  return known(v) ? percent(v) : DASH;
}

/** A gain in [-1, 1] (PRG, EG, CG, ECG) as a signed percentage, e.g. `+12%`. */
export function gain(v: number | null | undefined): string {
  return known(v) ? signedPercent(v) : DASH;
}

export function seconds(s: number | null | undefined): string {
  return known(s) ? duration(s * 1000) : DASH;
}

export function millis(ms: number | null | undefined): string {
  return known(ms) ? duration(ms) : DASH;
}

/** A count a person takes in at a glance: `812`, `4.2K`, `12K`, `3.1M`. */
export function compact(n: number | null | undefined): string {
  if (!known(n)) return DASH;
  const abs = Math.abs(n);
  const sign = n < 0 ? '−' : '';
  for (const [size, unit] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ] as const) {
    if (abs >= size) {
      const v = abs / size;
      return `${sign}${v < 10 ? Number(v.toFixed(1)) : Math.round(v)}${unit}`;
    }
  }
  return `${sign}${Math.round(abs)}`;
}

export function tokens(n: number | null | undefined): string {
  return known(n) ? `${compact(n)} tokens` : DASH;
}

/** A safety score or a mean of scores: whole numbers stay whole, means keep one decimal. */
export function score(v: number | null | undefined): string {
  if (!known(v)) return DASH;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

export function usd(v: number | null | undefined): string {
  if (!known(v)) return DASH;
  if (v > 0 && v < 0.01) return '< $0.01';
  return `$${v.toFixed(2)}`;
}
