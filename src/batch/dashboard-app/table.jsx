// One table markup for every dashboard table: a header row, body rows and an optional total row. Cells are
// components, so skill strings inside them go through Txt/Code like everywhere else.

/**
 * @template T
 * @typedef {{ head: string, num?: boolean, cell: (row: T) => import('preact').ComponentChildren }} Column
 */

/**
 * @template T
 * @param {{ columns: Column<T>[], rows: T[], foot?: T, testId?: string }} props
 */
export function DataTable({ columns, rows, foot, testId }) {
  /** @param {T} row */
  const cells = (row) =>
    columns.map((c, j) => (
      <td class={c.num ? 'num' : undefined} key={j}>
        {c.cell(row)}
      </td>
    ));
  return (
    <div class="table-scroll">
      <table class="data" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th class={c.num ? 'num' : undefined} key={c.head}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>{cells(r)}</tr>
          ))}
        </tbody>
        {foot ? (
          <tfoot>
            <tr>{cells(foot)}</tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
