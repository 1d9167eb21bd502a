// Batch dashboard figures (printed, not asserted): `npx tsx bench/dashboard.ts [skills]` (default 10,000).
// Renders a generated summary of that many skills with the built template (run `npm run build` first), opens it
// from file:// in Debian Chromium and reports: dashboard.html size and render time in Node, time from navigation
// to the skill table on screen, and in-page times to sort the whole table by score and to filter it by text.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { renderDashboard } from '../src/batch/dashboard.js';
import { launchChromium } from '../test/support/chromium.js';
import { generatedSummary } from '../test/support/dashboard-fixtures.js';

const SKILLS = Number(process.argv[2] ?? 10_000);
const RUNS = 5;

// The page's globals as the callbacks passed to page.evaluate see them (no DOM types in this project).
interface PageGlobals {
  performance: { now(): number };
  document: { querySelectorAll(s: string): ArrayLike<unknown> };
}

// Click the score header, then wait frame by frame until the DOM shows a new first row: the latency a user sees.
// A string, not a function: tsx would wrap named inner functions in a helper the page does not have.
const SORT_AND_WAIT = `new Promise((done) => {
  const first = () => document.querySelector('[data-testid="skill-score"]')?.textContent;
  const before = first();
  const t0 = performance.now();
  document.querySelector('button[data-sort="score"]').click();
  const check = () => (first() !== before ? done(performance.now() - t0) : requestAnimationFrame(check));
  check();
})`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-dashboard-'));
const browser = await launchChromium();
try {
  const summary = generatedSummary(SKILLS);
  const started = performance.now();
  const html = renderDashboard(summary);
  const renderMs = performance.now() - started;
  const file = join(dir, 'dashboard.html');
  writeFileSync(file, html);
  const shown: number[] = [];
  const sorted: number[] = [];
  const filtered: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(pathToFileURL(file).href);
    await page.getByTestId('skill-row').first().waitFor();
    // performance.now() counts from the navigation: the time until the table was on screen, plus one round trip.
    shown.push(await page.evaluate(() => (globalThis as unknown as PageGlobals).performance.now()));
    // Click, then wait frame by frame until the DOM shows the new first row: the user-visible latency.
    sorted.push(Number(await page.evaluate(SORT_AND_WAIT)));
    const t0 = performance.now();
    await page.getByTestId('skill-filter').fill('skill-0999');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="skill-row"]')
          .length === 10,
    );
    filtered.push(performance.now() - t0);
    await page.close();
  }
  console.log(`skills                         ${SKILLS.toLocaleString('en-US')}`);
  console.log(`dashboard.html                 ${(statSync(file).size / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`renderDashboard (Node)         ${renderMs.toFixed(0)} ms`);
  console.log(
    `navigation to table shown      median ${median(shown).toFixed(0)} ms of ${RUNS} (${shown.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`sort all rows by score         median ${median(sorted).toFixed(0)} ms`);
  console.log(`filter by text (10 rows left)  median ${median(filtered).toFixed(0)} ms`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
