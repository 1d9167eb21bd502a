import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../model.js';

// The single-file HTML report: the template built by `vite build` (vite.config.ts, app in ./app) with the
// report JSON and a Content-Security-Policy filled in. The policy allows only the template's own inline
// script (by hash), inline styles and data: images: no network, no other script, even if skill text
// somehow became markup.

// The data slot is a JSON string so that the unfilled template is valid too (the app then says it has no data).
const DATA_SLOT = '"__SKILLAUDIT_REPORT__"';
const CSP_SLOT = '__SKILLAUDIT_CSP__';
const TEMPLATE = join('dist', 'report-template', 'index.html');

/** The package root: the nearest folder above this module with a package.json (src/ and dist/ alike). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the skillaudit package root');
    dir = parent;
  }
  return dir;
}

const cachedTemplates = new Map<string, string>();

/**
 * A page template built by `vite build`, read once: `relativePath` is inside the package (e.g.
 * dist/report-template/index.html); `what` names it in the error when it was never built.
 */
export function builtPageTemplate(relativePath: string, what: string): string {
  let template = cachedTemplates.get(relativePath);
  if (template === undefined) {
    const path = join(packageRoot(), relativePath);
    if (!existsSync(path)) {
      throw new Error(`the ${what} template is missing (${path}); build it with \`npm run build\``);
    }
    template = readFileSync(path, 'utf8');
    cachedTemplates.set(relativePath, template);
  }
  return template;
}

function builtTemplate(): string {
  return builtPageTemplate(TEMPLATE, 'HTML report');
}

/**
 * JSON that is safe as the text of a `<script type="application/json">` element: `<`, `>` and `&` are escaped
 * so no `</script>` or `<!--` can appear, and U+2028/2029 so the text is also a valid JS string literal.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** sha256 sources for every executable inline script in the template (JSON data blocks are not scripts). */
function scriptHashes(template: string): string[] {
  const hashes: string[] = [];
  for (const m of template.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script/gi)) {
    const attributes = m[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) throw new Error('a page template must not load external scripts');
    if (/\btype\s*=\s*["']?application\/json/i.test(attributes)) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

export function contentSecurityPolicy(template: string): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes(template).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function fillSlot(html: string, slot: string, value: string): string {
  const at = html.indexOf(slot);
  if (at < 0 || html.indexOf(slot, at + slot.length) >= 0) {
    throw new Error(`the page template must hold exactly one ${slot}`);
  }
  // Slicing, not String.replace: `$&` and friends in the value must stay literal.
  return html.slice(0, at) + value + html.slice(at + slot.length);
}

/**
 * Fills a single-file page template: its CSP slot with the policy for the template's own scripts, and its data
 * slot (a JSON string literal inside a `<script type="application/json">`) with the data as script-safe JSON.
 * Every page SkillAudit writes (the report, the batch dashboard) is made this one way.
 */
export function fillPageTemplate(template: string, dataSlot: string, data: unknown): string {
  const withCsp = fillSlot(template, CSP_SLOT, contentSecurityPolicy(template));
  return fillSlot(withCsp, dataSlot, scriptSafeJson(data));
}

/** Fills a report template (the built one by default) with the report and its CSP. */
export function renderReportHtmlWith(template: string, report: Report): string {
  return fillPageTemplate(template, DATA_SLOT, report);
}

/** The audit report as one self-contained HTML file that works offline from file://. */
export function renderReportHtml(report: Report): string {
  return renderReportHtmlWith(builtTemplate(), report);
}

/** The policy the built report page needs, for an HTTP header beside the page's own meta policy. */
export function reportHtmlCsp(): string {
  return contentSecurityPolicy(builtTemplate());
}
