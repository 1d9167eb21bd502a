import { defineConfig } from 'vite';
import { singleFilePage } from './vite.page.js';

// Builds the batch dashboard template (`dashboard.html` of `skillaudit batch`) like the report's: one
// self-contained file. src/batch/dashboard.ts fills in the summary data and the CSP at render time.
export default defineConfig(singleFilePage('./src/batch/dashboard-app', './dist/dashboard-template'));
