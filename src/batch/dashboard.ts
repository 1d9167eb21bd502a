import { join } from 'node:path';
import { builtPageTemplate, fillPageTemplate } from '../report/index.js';
import type { BatchSummary } from './summary-model.js';

// dashboard.html of `skillaudit batch`: the template built by `vite build -c vite.dashboard.config.ts` (app in
// ./dashboard-app) filled with the summary and a CSP exactly like the single-file report (render.ts): only the
// template's own script may run, nothing is fetched, and the summary is inert JSON that the app renders as text.

const DATA_SLOT = '"__SKILLAUDIT_DASHBOARD__"';
const TEMPLATE = join('dist', 'dashboard-template', 'index.html');

/** Fills a dashboard template (the built one by default) with the summary and its CSP. */
export function renderDashboardWith(template: string, summary: BatchSummary): string {
  return fillPageTemplate(template, DATA_SLOT, summary);
}

/** The corpus dashboard as one self-contained HTML file that works offline from file://, beside runs/. */
export function renderDashboard(summary: BatchSummary): string {
  return renderDashboardWith(builtPageTemplate(TEMPLATE, 'batch dashboard'), summary);
}
