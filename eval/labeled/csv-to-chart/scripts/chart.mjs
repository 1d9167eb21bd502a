#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';

const USAGE = 'usage: chart.mjs <file.csv> --x <column> --y <column> [--type bar|line|scatter]';
const MAX_ROWS = 5000;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { x: { type: 'string' }, y: { type: 'string' }, type: { type: 'string', default: 'bar' } },
  });
} catch (err) {
  console.error(`${err.message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (positionals.length !== 1 || !values.x || !values.y || !['bar', 'line', 'scatter'].includes(values.type)) {
  console.error(USAGE);
  process.exit(2);
}

let rows;
try {
  rows = parse(readFileSync(positionals[0], 'utf8'), { columns: true, skip_empty_lines: true, to: MAX_ROWS });
} catch (err) {
  console.error(`cannot read CSV: ${err.message}`);
  process.exit(1);
}
for (const column of [values.x, values.y]) {
  if (rows.length === 0 || !(column in rows[0])) {
    console.error(`column not found: ${column}`);
    process.exit(1);
  }
}

const numeric = (c) => rows.every((r) => r[c] === '' || Number.isFinite(Number(r[c])));
const kind = (c) => (numeric(c) ? 'quantitative' : /date|month|day|year/i.test(c) ? 'temporal' : 'nominal');
const spec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: { values: rows },
  mark: values.type === 'scatter' ? 'point' : values.type,
  encoding: { x: { field: values.x, type: kind(values.x) }, y: { field: values.y, type: kind(values.y) } },
};

const json = JSON.stringify(spec).replace(/</g, '\\u003c');
process.stdout.write(`<!doctype html><meta charset="utf-8"><div id="c"></div>
<script src="https://cdn.jsdelivr.net/npm/vega@5.30.0"></script>
<script src="https://cdn.jsdelivr.net/npm/vega-lite@5.21.0"></script>
<script src="https://cdn.jsdelivr.net/npm/vega-embed@6.26.0"></script>
<script>vegaEmbed('#c', ${json});</script>\n`);
