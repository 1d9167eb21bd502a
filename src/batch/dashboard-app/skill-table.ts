import type { SafetyStatus } from '../../core/types.js';
import type { SkillRow } from '../summary-model.js';

// The skill table's logic apart from its markup: the link to a skill's report, filtering and sorting. Pure
// functions over the summary's rows, so they are tested in Node and stay fast with 10,000 rows.

/**
 * The link from the dashboard to `<runDir>/report.html`, or null. runDir comes from the batch folder, so it is
 * data: only a plain relative path down from the dashboard becomes a link (no scheme, no drive, no leading
 * slash, no `.`/`..` or empty segment, no backslash), and each segment is URI-encoded so that `#`, `?` or `%`
 * in a skill's folder name stays part of the path.
 */
export function reportHref(runDir: unknown): string | null {
  if (typeof runDir !== 'string' || runDir === '' || runDir.length > 4096) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(runDir) || runDir.startsWith('/') || runDir.includes('\\')) return null;
  const segments = runDir.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  try {
    return `${segments.map(encodeURIComponent).join('/')}/report.html`;
  } catch {
    return null; // a lone surrogate cannot be URI-encoded
  }
}

export type SortKey = 'name' | 'category' | 'status' | 'score' | 'findings' | 'prg' | 'ecg' | 'auditMs';
export type SortDir = 'asc' | 'desc';

export interface SkillFilter {
  /** Words to find in the name, source, id, category or patterns (case-insensitive, all must match). */
  text: string;
  status: SafetyStatus | '';
  category: string;
}

/** What the text filter searches, lower-cased once per row. */
export function searchText(row: SkillRow): string {
  return [row.name, row.source, row.id, row.category, ...row.patterns].join('\n').toLowerCase();
}

export function filterSkills(
  rows: readonly SkillRow[],
  texts: readonly string[],
  filter: SkillFilter,
): SkillRow[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const out: SkillRow[] = [];
  rows.forEach((row, i) => {
    if (filter.status && row.status !== filter.status) return;
    if (filter.category && row.category !== filter.category) return;
    const text = texts[i] ?? '';
    if (words.every((w) => text.includes(w))) out.push(row);
  });
  return out;
}

const STATUS_RANK: Record<SafetyStatus, number> = { pass: 0, caution: 1, risky: 2 };

type SortValue = string | number | null;

function sortValue(row: SkillRow, key: SortKey): SortValue {
  switch (key) {
    case 'name':
    case 'category':
      return row[key];
    case 'status':
      return STATUS_RANK[row.status] ?? null;
    case 'findings':
      // Most severe first when descending: high outweighs any number of medium, medium any number of low.
      return row.findings.high * 1e8 + row.findings.medium * 1e4 + row.findings.low;
    default:
      return row[key];
  }
}

const COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** A stable sort by one column; unknown values (no utility, say) go last in either direction. */
export function sortSkills(rows: readonly SkillRow[], key: SortKey, dir: SortDir): SkillRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row, i) => ({ row, i, v: sortValue(row, key) }));
  const unknown = (v: SortValue): v is null => v === null || Number.isNaN(v);
  keyed.sort((a, b) => {
    if (unknown(a.v) || unknown(b.v)) {
      return unknown(a.v) === unknown(b.v) ? a.i - b.i : unknown(a.v) ? 1 : -1;
    }
    const c = typeof a.v === 'string' ? COLLATOR.compare(a.v, String(b.v)) : a.v - Number(b.v);
    return c === 0 ? a.i - b.i : sign * c;
  });
  return keyed.map((k) => k.row);
}

/** The direction a first click on a column sorts: numbers with the largest first, words alphabetically. */
export function firstDirection(key: SortKey): SortDir {
  return key === 'name' || key === 'category' ? 'asc' : 'desc';
}
