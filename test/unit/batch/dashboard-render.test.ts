import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDashboardWith } from '../../../src/batch/dashboard.js';
import type { BatchSummary } from '../../../src/batch/summary-model.js';
import { buildDashboardTemplate, HOSTILE_NAME, utilitySummary } from '../../support/dashboard-fixtures.js';

// String-level checks of the filled dashboard template; the DOM-level checks run in Chromium
// (test/integration/batch/dashboard.chromium.test.ts).
let template: string;
const outDir = mkdtempSync(join(tmpdir(), 'skillaudit-dashboard-template-'));

beforeAll(async () => {
  template = await buildDashboardTemplate(outDir);
});

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const DATA_SLOT = '"__SKILLAUDIT_DASHBOARD__"';

function dataBlock(html: string): string {
  const m = /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no dashboard-data block');
  return m[1]!;
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The small summary with skill strings that try to end the data block, open a comment or break a JS string. */
function hostileSummary(): BatchSummary {
  const summary = utilitySummary();
  const evil = `</script><script>globalThis.__pwned=1</script><!-- ${HOSTILE_NAME} \u2028\u2029 $& $'`;
  return {
    ...summary,
    skills: summary.skills.map((s, i) => (i === 0 ? { ...s, name: evil, source: `</SCRIPT >${evil}` } : s)),
    categories: summary.categories.map((c, i) => (i === 0 ? { ...c, category: `<!--${evil}` } : c)),
  };
}

describe('the built dashboard template', () => {
  it('is one self-contained file with one data slot, one CSP slot and one bundled script', () => {
    expect(/<script[^>]*\ssrc=/i.test(template)).toBe(false);
    expect(/<link\b/i.test(template)).toBe(false);
    expect(template.match(/<script\b/g)).toHaveLength(2);
    expect(occurrences(template, DATA_SLOT)).toBe(1);
    expect(occurrences(template, '__SKILLAUDIT_CSP__')).toBe(1);
    const styles = [...template.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
    // The report's styles and the dashboard's own, inlined; nothing fetched.
    expect(styles).toContain('.tile');
    expect(styles).toContain('.fill-risky');
    expect(/url\(|@import/i.test(styles)).toBe(false);
    expect(/fileName|\/src\/batch\//.test(template)).toBe(false);
  });
});

describe('renderDashboardWith', () => {
  it('fills each slot exactly once and embeds the summary so that it parses back unchanged', () => {
    const summary = utilitySummary();
    const html = renderDashboardWith(template, summary);
    expect(html).not.toContain('__SKILLAUDIT_DASHBOARD__');
    expect(html).not.toContain('__SKILLAUDIT_CSP__');
    expect(html.match(/id="dashboard-data"/g)).toHaveLength(1);
    expect(JSON.parse(dataBlock(html))).toEqual(summary);
  });

  it('sets a CSP that lists only the bundled script by hash and allows no network', () => {
    const html = renderDashboardWith(template, utilitySummary());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const bundle = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(bundle.length).toBeGreaterThan(1000);
    const hash = createHash('sha256').update(bundle, 'utf8').digest('base64');
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(csp.match(/'sha256-/g)).toHaveLength(1);
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
  });

  it('keeps hostile skill strings inert JSON: no </script>, <!-- or U+2028 in the page', () => {
    const summary = hostileSummary();
    const html = renderDashboardWith(template, summary);
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    const data = dataBlock(html);
    expect(data).not.toMatch(/[<>&\u2028\u2029]/);
    expect(html).not.toContain(HOSTILE_NAME);
    expect(html.slice(html.indexOf('id="dashboard-data"'))).not.toContain('<!--');
    expect(JSON.parse(data)).toEqual(summary);
  });

  it('refuses a template without exactly one data slot', () => {
    const twice = template.replace(DATA_SLOT, `${DATA_SLOT}${DATA_SLOT}`);
    expect(() => renderDashboardWith(twice, utilitySummary())).toThrow(/exactly one/);
    expect(() => renderDashboardWith(template.replace(DATA_SLOT, '""'), utilitySummary())).toThrow(
      /exactly one/,
    );
  });
});
