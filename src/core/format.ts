import type { Finding, VerdictKind } from './types.js';

// Words and number formats shared by every report renderer (terminal, Markdown, HTML app), plus the one
// defence they all need against skill text: characters a reader cannot see are shown as visible markers.
// Pure functions only: this module runs in Node and, bundled, in the browser.

export const VERDICT_LABEL: Record<VerdictKind, string> = {
  confirmed: 'confirmed at runtime',
  suspected: 'suspected at runtime',
  agent_refused: 'agent refused',
  path_exists_not_triggered: 'reachable, not triggered',
  likely_false_positive: 'likely false positive',
  // Nothing ran that could settle the finding: said once in the report's "not run" list, not on every finding.
  no_probe: '',
};

export { STATUS_ADVICE, STATUS_ICON, STATUS_LABEL, STATUS_TONE } from './verdict-words.js';

// Which `notRun` stages explain an empty report section (stage names are free text, matched by word).
export const SECTION_STAGES = {
  'Runtime evidence': /detonat|runtime|sandbox/i,
  Utility: /utility|scenario|agent|judge|trial/i,
  Quality: /quality/i,
} as const;

/** Why a report section is empty, from the report's own `notRun` records. */
export function notRunReason(
  report: { notRun: readonly { stage: string; reason: string }[] },
  section: keyof typeof SECTION_STAGES,
): string {
  const reasons = report.notRun.filter((n) => SECTION_STAGES[section].test(n.stage));
  return reasons.length ? [...new Set(reasons.map((n) => n.reason))].join('; ') : 'no reason was recorded';
}

export type Segment = { hidden: false; text: string } | { hidden: true; text: string };

// Code points a reader does not see or that rewrite what is shown around them: C0/C1 controls (terminal
// escapes), bidi embeddings/overrides/isolates (Trojan Source), zero-width and other invisible formatting
// characters, variation selectors used for data smuggling, and Unicode tag characters (decoded separately).
// Tab and newline are kept; emoji presentation selectors (U+FE0E/F) are ordinary text.
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000b, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0d],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
const TAG_START = 0xe0000;
const TAG_END = 0xe007f;

function isInvisible(cp: number): boolean {
  return INVISIBLE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Splits text into visible runs and markers for invisible characters, e.g. `⟨U+202E⟩`. A run of Unicode tag
 * characters is decoded (they mirror ASCII) so hidden instructions become readable; long runs of one character
 * are collapsed so that a flood of zero-width spaces cannot bloat the report.
 */
export function revealSegments(input: string): Segment[] {
  const text = input.replace(/\r\n/g, '\n');
  const out: Segment[] = [];
  let visible = '';
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; ) {
    const ch = chars[i]!;
    if (!isInvisible(ch.codePointAt(0)!)) {
      visible += ch;
      i++;
      continue;
    }
    if (visible) out.push({ hidden: false, text: visible });
    visible = '';
    const cp = ch.codePointAt(0)!;
    let j = i + 1;
    if (cp >= TAG_START && cp <= TAG_END) {
      while (j < chars.length && isTag(chars[j]!)) j++;
      const decoded = chars
        .slice(i, j)
        .map((c) => c.codePointAt(0)! - TAG_START)
        .filter((c) => c >= 0x20 && c < 0x7f)
        .map((c) => String.fromCharCode(c))
        .join('');
      out.push({ hidden: true, text: `⟨hidden tag text: "${decoded}"⟩` });
    } else {
      while (j < chars.length && chars[j] === ch) j++;
      const count = j - i;
      out.push({
        hidden: true,
        text: count > 3 ? `⟨${codePointLabel(cp)} ×${count}⟩` : `⟨${codePointLabel(cp)}⟩`.repeat(count),
      });
    }
    i = j;
  }
  if (visible) out.push({ hidden: false, text: visible });
  return out;
}

function isTag(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return cp >= TAG_START && cp <= TAG_END;
}

/** The text with every invisible character replaced by a visible marker. */
export function reveal(text: string): string {
  return revealSegments(text)
    .map((s) => s.text)
    .join('');
}

/** Whether the text holds any character that `reveal` would mark. */
export function hasHidden(text: string): boolean {
  return revealSegments(text).some((s) => s.hidden);
}

/**
 * At most `max` characters, cut after a whole word when one ends in the last fifth, and marked with an ellipsis
 * (a count of cut characters in mid-sentence reads as part of the text).
 */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.search(/\s\S*$/);
  const cut = space >= max * 0.8 ? head.slice(0, space) : head;
  return `${cut.trimEnd()}…`;
}

/** An http(s) URL safe to make clickable, or null: skill text never becomes any other kind of link. */
export function safeHttpUrl(text: string): string | null {
  if (!/^https?:\/\//i.test(text.trim())) return null;
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function findingLocation(f: Pick<Finding, 'file' | 'line' | 'endLine'>): string {
  return f.endLine > f.line ? `${f.file}:${f.line}-${f.endLine}` : `${f.file}:${f.line}`;
}

const SEVERITY_ORDER = { high: 3, medium: 2, low: 1 } as const;
const VERDICT_ORDER: Record<VerdictKind, number> = {
  confirmed: 6,
  suspected: 5,
  no_probe: 4,
  path_exists_not_triggered: 3,
  agent_refused: 2,
  likely_false_positive: 1,
};

/** Active findings first, then by severity, runtime verdict and confidence: what to read first. */
export function orderFindings<
  T extends Pick<Finding, 'suppressed' | 'severity' | 'confidence'> & { verdict: VerdictKind },
>(findings: readonly T[]): T[] {
  // What a reader should believe first: what the sandbox saw happen, then severity, then the rest.
  return [...findings].sort(
    (a, b) =>
      Number(Boolean(a.suppressed)) - Number(Boolean(b.suppressed)) ||
      Number(b.verdict === 'confirmed') - Number(a.verdict === 'confirmed') ||
      SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] ||
      VERDICT_ORDER[b.verdict] - VERDICT_ORDER[a.verdict] ||
      b.confidence - a.confidence,
  );
}

/** A gain in [-1, 1] as a signed whole percentage, e.g. `+42%`; `n/a` when unknown. */
export function signedPercent(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const pct = Math.round(value * 100);
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)}%`;
}

/** A score in [0, 1] as a whole percentage. */
export function percent(value: number | null): string {
  return value === null || !Number.isFinite(value) ? 'n/a' : `${Math.round(value * 100)}%`;
}

export function duration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(1)} s`;
  return `${sign}${Math.floor(abs / 60_000)} min ${Math.round((abs % 60_000) / 1000)} s`;
}

export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count a person reads: `1 GiB`, `1.5 MiB`, `812 B` (JSON keeps the exact number). */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  let value = Math.abs(n);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1);
  return `${n < 0 ? '−' : ''}${shown} ${BYTE_UNITS[unit]}`;
}

// Sandbox limit names whose value is a byte count or a time, for `limitLabel`.
const BYTE_LIMITS = /bytes$|^disk$|^memory$/i;
const MS_LIMITS = /ms$/i;
const SECOND_LIMITS = /seconds$/i;

/** A sandbox limit record "disk=1073741824 (tmpfs)" as a person reads it: "disk 1 GiB (tmpfs)". */
export function limitLabel(record: string): string {
  const m = /^([A-Za-z]+)=(\d+)(.*)$/.exec(record);
  if (!m) return record;
  const [, name, raw, rest] = m as unknown as [string, string, string, string];
  const value = Number(raw);
  const shown = BYTE_LIMITS.test(name)
    ? bytes(value)
    : MS_LIMITS.test(name)
      ? duration(value)
      : SECOND_LIMITS.test(name)
        ? `${count(value)} s`
        : count(value);
  const label = name
    .replace(/(Bytes|Ms|Seconds)$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `${label} ${shown}${rest}`;
}

/** A timestamp a person reads, in UTC so that every reader sees the same text: `2026-12-01 23:52 UTC`. */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Effective input tokens (input − cached), the cost measure of seed 000 eq. 3. */
export function effectiveTokens(t: { input: number; cached: number }): number {
  return Math.max(0, t.input - t.cached);
}

/** A signed saving, e.g. `12.6 s saved` or `3.1 s slower`. */
export function timeSaving(ms: number | null): string {
  if (ms === null) return 'n/a';
  return ms >= 0 ? `${duration(ms)} saved` : `${duration(-ms)} slower`;
}

export function tokenSaving(tokens: number | null): string {
  if (tokens === null) return 'n/a';
  return tokens >= 0 ? `${count(tokens)} tokens saved` : `${count(-tokens)} more tokens`;
}

/** Identical entries merged with a count, first-seen order kept (runs repeat the same evidence). */
export function tally<T>(items: readonly T[], key: (item: T) => string): { item: T; count: number }[] {
  const seen = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const k = key(item);
    const entry = seen.get(k);
    if (entry) entry.count++;
    else seen.set(k, { item, count: 1 });
  }
  return [...seen.values()];
}

/** Network attempts merged when every recorded field is the same. */
export function mergedAttempts<
  T extends { destination: string; protocol: string; blocked: boolean; bytes?: number; canaries?: string[] },
>(attempts: readonly T[]): { item: T; count: number }[] {
  return tally(attempts, (a) =>
    [a.destination, a.protocol, a.blocked, a.bytes ?? '', (a.canaries ?? []).join(',')].join('\u0000'),
  );
}

/**
 * Evidence is text from hostile files: make control, bidi, zero-width and tag characters visible as \u{..}
 * escapes so nothing can move the cursor, recolour the terminal or hide itself in the listing.
 */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}
