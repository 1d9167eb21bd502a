import { defineConfig } from 'vite';
import { singleFilePage } from './vite.page.js';

// Builds the HTML report template: one self-contained file (script and styles inlined) that works from file://.
// src/report/html/render.ts fills in the report data and the CSP at render time.
export default defineConfig(singleFilePage('./src/report/html/app', './dist/report-template'));
