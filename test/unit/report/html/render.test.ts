import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportHtmlWith, scriptSafeJson } from '../../../../src/report/html/render.js';
import type { Report } from '../../../../src/report/model.js';
import {
  buildReportTemplate,
  HOSTILE,
  hostileReport,
  riskyReport,
} from '../../../support/report-fixtures.js';

// String-level checks of the filled template; the DOM-level checks run in Chromium (test/integration/report).
let template: string;
const outDir = mkdtempSync(join(tmpdir(), 'skillaudit-report-template-'));

beforeAll(async () => {
  template = await buildReportTemplate(outDir);
});

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function dataBlock(html: string): string {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no report-data block');
  return m[1]!;
}

describe('the built template', () => {
  it('is one self-contained file: no external scripts, styles, fonts or images', () => {
    expect(/<script[^>]*\ssrc=/i.test(template)).toBe(false);
    expect(/<link\b/i.test(template)).toBe(false);
    const styles = [...template.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
    expect(styles).toContain('.finding');
    expect(/url\(|@import/i.test(styles)).toBe(false);
    expect(template.match(/<script\b/g)).toHaveLength(2);
    // A production build: no dev JSX runtime with absolute source paths.
    expect(/fileName|\/src\/report\//.test(template)).toBe(false);
  });
});

describe('renderReportHtmlWith', () => {
  it('embeds the report so that it parses back unchanged', () => {
    const report = hostileReport();
    const html = renderReportHtmlWith(template, report);
    expect(JSON.parse(dataBlock(html))).toEqual(report);
  });

  it('lets nothing in the report close the data block or open markup', () => {
    const html = renderReportHtmlWith(template, hostileReport());
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    const data = dataBlock(html);
    expect(data).not.toMatch(/[<>&\u2028\u2029]/);
    expect(html).not.toContain(HOSTILE.scriptClose);
    expect(html).not.toContain(HOSTILE.imgOnError);
    expect(html).not.toContain('<!-- AI reviewers');
  });

  it('keeps replacement patterns in skill text literal', () => {
    const report: Report = {
      ...riskyReport(),
      verdict: { ...riskyReport().verdict, reasons: ["$& $` $' $$ $1"] },
    };
    const html = renderReportHtmlWith(template, report);
    expect((JSON.parse(dataBlock(html)) as Report).verdict.reasons).toEqual(["$& $` $' $$ $1"]);
  });

  it('sets a CSP that allows exactly the bundled script by hash and no network', () => {
    const html = renderReportHtmlWith(template, riskyReport());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const bundle = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(bundle, 'utf8').digest('base64');
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
  });

  it('refuses a template without exactly one data slot or with an external script', () => {
    expect(() => renderReportHtmlWith('<html>__SKILLAUDIT_CSP__</html>', riskyReport())).toThrow(
      /exactly one/,
    );
    expect(() =>
      renderReportHtmlWith(
        '<script src="https://cdn.example/x.js"></script>__SKILLAUDIT_CSP__',
        riskyReport(),
      ),
    ).toThrow(/external scripts/);
  });
});

describe('scriptSafeJson', () => {
  it('escapes the characters that could end the element or break a JS string', () => {
    expect(scriptSafeJson({ a: '</script><!--&\u2028\u2029' })).toBe(
      '{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029"}',
    );
  });
});
