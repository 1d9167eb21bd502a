// The report as other folders use it: build the one report model, validate it, render it (text, Markdown, HTML,
// SARIF, scan JSON).

export { buildReport } from './build.js';
export type { Colors } from './colors.js';
export { colorsFor } from './colors.js';
export { builtPageTemplate, fillPageTemplate, renderReportHtml, reportHtmlCsp } from './html/render.js';
export { codeSpan, prose, renderReportMarkdown } from './markdown.js';
export type { Report, ScenarioResult, TrialSummary, UtilitySummary } from './model.js';
export { renderReportText } from './report-text.js';
export { toSarif } from './sarif.js';
export { toScanJson } from './scan-json.js';
export { renderScanMarkdown } from './scan-markdown.js';
export { renderScanText } from './scan-text.js';
export { validateReport } from './schema.js';
