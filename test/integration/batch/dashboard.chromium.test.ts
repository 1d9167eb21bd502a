import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDashboard } from '../../../src/batch/dashboard.js';
import type { BatchSummary } from '../../../src/batch/summary-model.js';
import { launchChromium, openFilePage, trapState } from '../../support/chromium.js';
import {
  buildDashboardTemplate,
  generatedSummary,
  HOSTILE_NAME,
  keylessSummary,
  utilitySummary,
} from '../../support/dashboard-fixtures.js';

// The batch dashboard in real Debian Chromium, opened from file:// beside its run folders as `skillaudit batch`
// writes it: headline and table figures, filtering, sorting, links to each report.html, the plots, a keyless
// batch, a 10,000-skill corpus, and skill names that must stay text (no script runs, no CSP violation).

// Callbacks passed to page.evaluate run in the page; the project compiles without DOM types.
interface PageElement {
  tagName: string;
  attributes: ArrayLike<{ name: string }>;
}
interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<PageElement> };
  performance: { now(): number };
}

let browser: Browser;
const workDir = mkdtempSync(join(tmpdir(), 'skillaudit-dashboard-'));

beforeAll(async () => {
  // Build the real template where renderDashboard reads it, from the current app source.
  await buildDashboardTemplate();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  problems: string[];
  file: string;
}

/** Renders the summary as DIR/dashboard.html, opens it from file:// and records errors and requests. */
async function open(summary: BatchSummary, name: string, width = 1280): Promise<Opened> {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'dashboard.html');
  writeFileSync(file, renderDashboard(summary));
  const { page, problems } = await openFilePage(browser, file, width);
  await page.getByTestId('skill-table').waitFor({ timeout: 20_000 });
  return { page, problems, file };
}

const tileValue = (page: Page, id: string) => page.getByTestId(id).locator('.tile-value').textContent();
const rowNames = (page: Page) =>
  page
    .getByTestId('skill-row')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.firstChild?.textContent));
const rowScores = (page: Page) => page.getByTestId('skill-score').allTextContents();

describe('batch dashboard in Chromium', () => {
  it('shows the headline, the tables and every skill, with plots drawn as SVG', async () => {
    const summary = utilitySummary();
    const { page, problems } = await open(summary, 'utility');
    expect(await page.getByTestId('title').textContent()).toBe('6 skills audited, 2 failed');
    expect(await tileValue(page, 'tile-audited')).toBe('6');
    expect(await page.getByTestId('tile-audited').textContent()).toContain('of 8 in the batch');
    expect(await tileValue(page, 'tile-failed')).toBe('2');
    for (const status of ['pass', 'caution', 'risky']) {
      expect(await tileValue(page, `tile-${status}`)).toBe('2');
      expect(await page.getByTestId(`tile-${status}`).textContent()).toContain('33% of audited skills');
    }
    expect(await tileValue(page, 'tile-score')).toBe('59.3');
    expect(await page.getByTestId('tile-score').textContent()).toContain('median 67.5');

    // Table 3: one row per category and the overall row, figures in human form, "—" for unknown.
    const table3 = page.getByTestId('category-table');
    const docs = await table3.locator('tbody tr').first().locator('td').allTextContents();
    expect(docs.slice(0, 7)).toEqual(['documents', '3', '1', '1', '1', '63', '3 / 3 / 2']);
    expect(docs).toContain('+10%');
    expect(docs).toContain('42.5 s / 1 min 1 s');
    expect(docs).toContain('12K tokens / 19K tokens');
    const hostile = await table3.locator('tbody tr').nth(2).locator('td').allTextContents();
    expect(hostile[0]).toBe('<svg onload="globalThis.__pwned=2">⟨U+202E⟩evil');
    expect(hostile).toContain('— / —');
    const overall = await table3.locator('tfoot td').allTextContents();
    expect(overall.slice(0, 6)).toEqual(['All skills', '6', '2', '2', '2', '59.3']);
    const strata = await page.getByTestId('strata-table').locator('tbody tr').allTextContents();
    expect(strata).toHaveLength(4);
    expect(
      await page.getByTestId('strata-table').locator('tbody tr').first().locator('td').allTextContents(),
    ).toEqual(['low', '2', '29%', '+35%', '+35%', '0%', '0%']);
    expect(await page.getByTestId('rules-table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('errors-table').textContent()).toContain('intake.not-a-skill');
    expect(await page.getByTestId('failures-table').locator('tbody tr').count()).toBe(2);

    // The skill table: one row per skill, the hostile name as text.
    expect(await page.getByTestId('skill-row').count()).toBe(6);
    expect(await rowNames(page)).toContain(HOSTILE_NAME);
    expect(await page.getByTestId('configuration').textContent()).toContain('cfg-1a2b3c');
    expect(await page.getByTestId('cost').textContent()).toContain('$1.27');

    // Every plot is an inline SVG with a mark per group.
    for (const plot of [
      'plot-histogram',
      'plot-status-by-category',
      'plot-patterns',
      'plot-prg-strata',
      'plot-prg-categories',
      'plot-time',
      'plot-tokens',
    ]) {
      expect(await page.getByTestId(plot).locator('svg').count(), plot).toBe(1);
    }
    expect(await page.getByTestId('histogram-bar').count()).toBe(9);
    expect(
      await page
        .getByTestId('histogram-bar')
        .evaluateAll((bars) => bars.map((b) => b.getAttribute('data-count'))),
    ).toEqual(['1', '1', '0', '0', '0', '1', '1', '1', '1']);
    expect(await page.getByTestId('plot-patterns').getByTestId('bar-row').count()).toBe(21);
    expect(await page.getByTestId('plot-status-by-category').getByTestId('bar-row').count()).toBe(3);
    expect(await page.getByTestId('utility-not-measured').count()).toBe(0);
    // Plain words: what a figure is, not its name in the papers.
    expect(await page.locator('body').textContent()).not.toMatch(
      /\b(PRG|EG|CG|ECG)\b|Table (3|A2)|Figure A2|seed/,
    );

    expect(await trapState(page)).toEqual({ sprung: [], violations: [] });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('reads on a desktop and a phone without sideways scrolling, and saves the screenshots', async () => {
    const artifacts = new URL('../../../test-artifacts/', import.meta.url).pathname;
    mkdirSync(artifacts, { recursive: true });
    for (const width of [1280, 390]) {
      const { page, problems } = await open(utilitySummary(), `width-${width}`, width);
      // Wide tables scroll inside their own box; the page itself never does.
      const overflow = await page.evaluate(() => {
        const w = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number } };
        };
        return w.document.documentElement.scrollWidth - w.innerWidth;
      });
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      expect(await page.getByTestId('title').isVisible()).toBe(true);
      await page.screenshot({ path: join(artifacts, `dashboard-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('filters by text, status and category, and sorts by score with a click on the header', async () => {
    const { page, problems } = await open(utilitySummary(), 'filter-sort');
    const filter = page.getByTestId('skill-filter');
    await filter.fill('sync');
    await expect.poll(() => rowNames(page)).toEqual(['doc-sync']);
    await filter.fill('');
    await expect.poll(() => page.getByTestId('skill-row').count()).toBe(6);
    await page.getByTestId('status-filter').selectOption('pass');
    await expect.poll(() => rowNames(page)).toEqual(['pdf-merge', 'ci-fixer']);
    await page.getByTestId('status-filter').selectOption('');
    await page.getByTestId('category-filter').selectOption('devops');
    await expect.poll(() => rowNames(page)).toEqual(['k8s-deploy', 'ci-fixer']);
    await filter.fill('nothing matches this');
    await expect.poll(() => page.getByTestId('skill-row').count()).toBe(0);
    expect(await page.locator('#skills').textContent()).toContain('No skill matches the filters.');
    await filter.fill('');
    await page.getByTestId('category-filter').selectOption('');

    expect(await rowScores(page)).toEqual(['96', '71', '22', '64', '88', '15']);
    const scoreHeader = page.locator('button[data-sort="score"]');
    await scoreHeader.click();
    await expect.poll(() => rowScores(page)).toEqual(['96', '88', '71', '64', '22', '15']);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
    await scoreHeader.click();
    await expect.poll(() => rowScores(page)).toEqual(['15', '22', '64', '71', '88', '96']);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links each skill to its report.html beside the dashboard, and never a run folder that is not a plain path', async () => {
    const { page, problems, file } = await open(utilitySummary(), 'links');
    const dir = join(file, '..');
    const reportDir = join(dir, 'runs', 'k8s deploy#1');
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(
      join(reportDir, 'report.html'),
      '<!doctype html><title>k8s-deploy report</title><p>report</p>',
    );
    const links = await page
      .getByTestId('report-link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual([
      'runs/pdf-merge/report.html',
      'runs/invoice-ocr/report.html',
      'runs/doc-sync/report.html',
      'runs/k8s%20deploy%231/report.html',
      'runs/ci-fixer/report.html',
    ]);
    // The hostile skill's run folder is a javascript: URL: its row has no link at all.
    const hostileRow = page.getByTestId('skill-row').filter({ hasText: HOSTILE_NAME });
    expect(await hostileRow.getByTestId('report-link').count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    await page.getByTestId('skill-row').filter({ hasText: 'k8s-deploy' }).getByTestId('report-link').click();
    await page.waitForURL(/report\.html$/);
    expect(page.url()).toBe(pathToFileURL(join(reportDir, 'report.html')).href);
    expect(await page.title()).toBe('k8s-deploy report');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps hostile skill names inert: no script runs, no element or handler comes from the data', async () => {
    const { page, problems } = await open(utilitySummary(), 'hostile');
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('img, iframe, object, embed, form').count()).toBe(0);
    const handlers = await page.evaluate(
      () =>
        Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('*')).flatMap((el) =>
          Array.from(el.attributes).filter((a) => a.name.startsWith('on')),
        ).length,
    );
    expect(handlers).toBe(0);
    // The hostile category is a label in the plots and an option of the category select, as text.
    expect(
      await page.getByTestId('plot-status-by-category').getByTestId('bar-row').nth(2).textContent(),
    ).toContain('<svg onload="globalThis.__pwned=2">⟨U+202E⟩evil');
    expect(await page.getByTestId('category-filter').locator('option').allTextContents()).toContain(
      '<svg onload="globalThis.__pwned=2">⟨U+202E⟩evil',
    );
    expect(await page.locator('svg svg').count()).toBe(0);
    // The failure named with U+2028 and an HTML comment opener shows them as text and a visible marker.
    const failures = await page.getByTestId('failures-table').textContent();
    expect(failures).toContain(`<!-- ${HOSTILE_NAME}⟨U+2028⟩`);
    await page.waitForTimeout(300);
    expect(await trapState(page)).toEqual({ sprung: [], violations: [] });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says in words that utility was not measured in a keyless batch instead of drawing empty plots', async () => {
    const { page, problems } = await open(keylessSummary(), 'keyless');
    const notMeasured = page.getByTestId('utility-not-measured');
    expect(await notMeasured.count()).toBe(1);
    expect(await notMeasured.textContent()).toContain('Utility was not measured');
    expect(await page.locator('#utility svg').count()).toBe(0);
    expect(await page.getByTestId('strata-table').count()).toBe(0);
    expect(await page.getByTestId('strata-none').textContent()).toContain('utility was not measured');
    expect(await page.getByTestId('plot-histogram').locator('svg').count()).toBe(1);
    const docs = await page
      .getByTestId('category-table')
      .locator('tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    // No column of dashes: a keyless batch shows the category table's safety columns alone.
    expect(docs.filter((cell) => cell === '—')).toHaveLength(0);
    const heads = await page.getByTestId('category-table').locator('thead th').allTextContents();
    expect(heads).toContain('Safety');
    expect(heads).not.toContain('Pass-rate gain');
    expect(await page.getByTestId('cost').textContent()).toContain('Keyless: no model was called.');
    expect(await trapState(page)).toEqual({ sprung: [], violations: [] });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('stays usable with 10,000 skills: a page of rows, "show more", filter and sort over all of them', async () => {
    const summary = generatedSummary(10_000);
    const started = Date.now();
    const { page, problems, file } = await open(summary, 'large');
    const rendered = await page.evaluate(() => (globalThis as unknown as PageGlobals).performance.now());
    const wall = Date.now() - started;
    const size = statSync(file).size;
    console.log(
      `dashboard, 10,000 skills: ${(size / 1024 / 1024).toFixed(2)} MiB, skill table shown ${Math.round(rendered)} ms after navigation (${wall} ms from render to table)`,
    );
    expect(rendered).toBeLessThan(15_000);
    expect(await page.getByTestId('skill-row').count()).toBe(200);
    expect(await page.getByTestId('show-more').textContent()).toContain('Showing 200 of 10,000');
    await page.getByTestId('show-more').getByRole('button', { name: 'Show 200 more' }).click();
    await expect.poll(() => page.getByTestId('skill-row').count()).toBe(400);

    const sortStart = Date.now();
    await page.locator('button[data-sort="score"]').click();
    await expect.poll(() => rowScores(page).then((s) => s.slice(0, 3))).toEqual(['100', '100', '100']);
    const filterStart = Date.now();
    console.log(
      `dashboard, 10,000 skills: sort by score seen by the test after ${filterStart - sortStart} ms`,
    );
    await page.getByTestId('skill-filter').fill('skill-09999');
    await expect.poll(() => rowNames(page)).toEqual(['skill-09999']);
    console.log(`dashboard, 10,000 skills: filter seen by the test after ${Date.now() - filterStart} ms`);
    expect(await trapState(page)).toEqual({ sprung: [], violations: [] });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
