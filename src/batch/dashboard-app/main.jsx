/** @import { BatchSummary } from '../summary-model.js' */
import { render } from 'preact';
import '../../core/styles.css';
import { SUMMARY_VERSION } from '../summary-model.js';
import { Dashboard } from './app.jsx';
import './dashboard.css';

// The batch summary arrives as JSON in a non-executable script element (escaped by src/batch/dashboard.ts so
// nothing in it can close the element); it is parsed, never evaluated, and every value is rendered as text.

/** @returns {BatchSummary | string} the summary, or why it cannot be shown */
function readSummary() {
  const raw = document.getElementById('dashboard-data')?.textContent ?? '';
  try {
    const data = JSON.parse(raw);
    if (data === null || typeof data !== 'object') throw new Error('no summary data');
    if (data.version !== SUMMARY_VERSION) {
      return `This dashboard was written by a different version of SkillAudit (expected summary version ${SUMMARY_VERSION}).`;
    }
    return /** @type {BatchSummary} */ (data);
  } catch {
    return 'This file holds no batch summary: it is written by `skillaudit batch`.';
  }
}

const root = document.getElementById('app');
const summary = readSummary();
if (root) {
  if (typeof summary === 'string') {
    render(<p class="wrap load-error">{summary}</p>, root);
  } else {
    document.title = `${summary.counts.audited} skills audited · SkillAudit batch`;
    render(<Dashboard summary={summary} />, root);
  }
}
