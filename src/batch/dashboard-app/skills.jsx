/** @import { BatchSummary, SkillRow } from '../summary-model.js' */
/** @import { SkillFilter, SortDir, SortKey } from './skill-table.js' */
import { useMemo, useState } from 'preact/hooks';
import { clip, count, reveal, STATUS_LABEL, STATUS_TONE } from '../../core/format.js';
import { Section, Txt } from '../../core/ui.jsx';
import { gain, millis, score } from './numbers.js';
import { filterSkills, firstDirection, reportHref, searchText, sortSkills } from './skill-table.js';

// Every audited skill, sortable and filterable. Only a page of rows is in the DOM at a time ("show more"
// adds the next), so a 10,000-skill corpus stays quick to filter and sort.

const PAGE = 200;

/** @type {{ key: SortKey | null, head: string, num?: boolean }[]} */
const COLUMNS = [
  { key: 'name', head: 'Skill' },
  { key: 'category', head: 'Category' },
  { key: 'status', head: 'Status' },
  { key: 'score', head: 'Safety', num: true },
  { key: 'findings', head: 'H / M / L', num: true },
  { key: null, head: 'Patterns' },
  { key: 'prg', head: 'Pass-rate gain', num: true },
  { key: 'ecg', head: 'Combined gain', num: true },
  { key: 'auditMs', head: 'Audit time', num: true },
  { key: null, head: 'Report' },
];

/** @param {{ row: SkillRow }} props */
function SkillLine({ row }) {
  const href = reportHref(row.runDir);
  return (
    <tr data-testid="skill-row">
      <td>
        <Txt value={row.name} max={120} />
        <span class="skill-source muted small">
          <Txt value={row.source} max={200} />
        </span>
      </td>
      <td>
        <Txt value={row.category} max={60} />
      </td>
      <td>
        <span class={`chip tone-${STATUS_TONE[row.status] ?? 'muted'}`} data-status={row.status}>
          {STATUS_LABEL[row.status] ?? '?'}
        </span>
      </td>
      <td class="num" data-testid="skill-score">
        {score(row.score)}
      </td>
      <td class="num">
        {row.findings.high} / {row.findings.medium} / {row.findings.low}
      </td>
      <td>{row.patterns.join(' ')}</td>
      <td class="num">{gain(row.prg)}</td>
      <td class="num">{gain(row.ecg)}</td>
      <td class="num">{millis(row.auditMs)}</td>
      <td>
        {href ? (
          <a href={href} data-testid="report-link">
            report
          </a>
        ) : (
          <span class="muted" title="The run folder is not a plain relative path">
            —
          </span>
        )}
      </td>
    </tr>
  );
}

/** @param {{ summary: BatchSummary }} props */
export function SkillTable({ summary }) {
  const { skills } = summary;
  const texts = useMemo(() => skills.map(searchText), [skills]);
  const categories = useMemo(() => {
    const known = summary.categories.map((c) => c.category);
    const seen = new Set(known);
    return [...known, ...skills.map((s) => s.category).filter((c) => !seen.has(c) && seen.add(c))];
  }, [summary]);
  const [filter, setFilter] = useState(/** @type {SkillFilter} */ ({ text: '', status: '', category: '' }));
  const [sort, setSort] = useState(/** @type {{ key: SortKey, dir: SortDir } | null} */ (null));
  const [limit, setLimit] = useState(PAGE);
  const shown = useMemo(() => {
    const kept = filterSkills(skills, texts, filter);
    return sort ? sortSkills(kept, sort.key, sort.dir) : kept;
  }, [skills, texts, filter, sort]);

  /** @param {Partial<SkillFilter>} change */
  const refine = (change) => {
    setFilter({ ...filter, ...change });
    setLimit(PAGE);
  };
  /** @param {SortKey} key */
  const sortBy = (key) =>
    setSort(
      sort?.key === key
        ? { key, dir: sort.dir === 'asc' ? 'desc' : 'asc' }
        : { key, dir: firstDirection(key) },
    );

  return (
    <Section
      id="skills"
      title="Skills"
      aside={`${count(shown.length)} of ${count(skills.length)} shown by the filters`}
    >
      <div class="filters">
        <input
          type="search"
          placeholder="Filter by name, source, category or pattern"
          aria-label="Filter skills"
          data-testid="skill-filter"
          value={filter.text}
          onInput={(e) => refine({ text: e.currentTarget.value })}
        />
        <select
          aria-label="Status"
          data-testid="status-filter"
          value={filter.status}
          onChange={(e) => refine({ status: /** @type {SkillFilter['status']} */ (e.currentTarget.value) })}
        >
          <option value="">every status</option>
          <option value="pass">{STATUS_LABEL.pass}</option>
          <option value="caution">{STATUS_LABEL.caution}</option>
          <option value="risky">{STATUS_LABEL.risky}</option>
        </select>
        <select
          aria-label="Category"
          data-testid="category-filter"
          value={filter.category}
          onChange={(e) => refine({ category: e.currentTarget.value })}
        >
          <option value="">every category</option>
          {categories.map((c) => (
            <option value={c} key={c}>
              {clip(reveal(c), 60)}
            </option>
          ))}
        </select>
      </div>
      <div class="table-scroll">
        <table class="data" data-testid="skill-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  class={c.num ? 'num' : undefined}
                  key={c.head}
                  aria-sort={
                    c.key && sort?.key === c.key
                      ? sort.dir === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {c.key ? (
                    <button
                      type="button"
                      class="sort"
                      data-sort={c.key}
                      onClick={() => c.key && sortBy(c.key)}
                    >
                      {c.head}
                      {sort?.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  ) : (
                    c.head
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {/* Keyed by position: rows hold no state, and skill ids repeat when two sources hold the same files. */}
            {shown.slice(0, limit).map((row, i) => (
              <SkillLine row={row} key={i} />
            ))}
          </tbody>
        </table>
      </div>
      {shown.length === 0 ? <p class="muted">No skill matches the filters.</p> : null}
      {shown.length > limit ? (
        <div class="more" data-testid="show-more">
          <span class="muted">
            Showing {count(limit)} of {count(shown.length)}.
          </span>
          <button type="button" onClick={() => setLimit(limit + PAGE)}>
            Show {count(Math.min(PAGE, shown.length - limit))} more
          </button>
          <button type="button" onClick={() => setLimit(shown.length)}>
            Show all
          </button>
        </div>
      ) : null}
    </Section>
  );
}
