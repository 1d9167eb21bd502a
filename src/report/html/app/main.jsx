/** @import { Report } from '../../model.js' */
import { render } from 'preact';
import { clip, reveal, STATUS_LABEL } from '../../../core/format.js';
import { App } from './app.jsx';
import '../../../core/styles.css';

// The report arrives as JSON in a non-executable script element (escaped by render.ts so that nothing in it can
// close the element); it is parsed, never evaluated, and every value is rendered as text.

/** @returns {Report | string} the report, or why it cannot be shown */
function readReport() {
  const raw = document.getElementById('report-data')?.textContent ?? '';
  try {
    const data = JSON.parse(raw);
    if (data === null || typeof data !== 'object') throw new Error('no report data');
    if (data.version !== 2) {
      return 'This report was written by a different version of SkillAudit (expected version 2).';
    }
    return /** @type {Report} */ (data);
  } catch {
    return 'This file holds no report data: render it with `skillaudit audit --format html`.';
  }
}

const root = document.getElementById('app');
const report = readReport();
if (root) {
  if (typeof report === 'string') {
    render(<p class="wrap load-error">{report}</p>, root);
  } else {
    document.title = `${STATUS_LABEL[report.verdict.status] ?? 'Report'}: ${clip(reveal(String(report.skill?.name)), 80)} · SkillAudit`;
    render(<App report={report} />, root);
  }
}
