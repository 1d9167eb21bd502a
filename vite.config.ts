import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

// Builds the HTML report template: one self-contained file (script and styles inlined) that works from file://.
// src/report/html/render.ts fills in the report data and the CSP at render time.
export default defineConfig({
  root: fileURLToPath(new URL('./src/report/html/app', import.meta.url)),
  base: './',
  logLevel: 'warn',
  // Production JSX even when built from tests (NODE_ENV=test would select the dev runtime with file paths).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: fileURLToPath(new URL('./dist/report-template', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
  },
  plugins: [viteSingleFile({ removeViteModuleLoader: true })],
});
