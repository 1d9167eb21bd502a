import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

// One Vite set-up for every single-file page SkillAudit writes (the report, the batch dashboard): the app in
// `appDir` built into `outDir`/index.html with its script and styles inlined, so it works from file://. The
// renderer fills in the data and the CSP at render time (src/report/html/render.ts: fillPageTemplate).
export function singleFilePage(appDir: string, outDir: string): UserConfig {
  const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  return {
    root: here(appDir),
    base: './',
    logLevel: 'warn',
    // Production JSX even when built from tests (NODE_ENV=test would select the dev runtime with file paths).
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
    build: {
      outDir: here(outDir),
      emptyOutDir: true,
      target: 'es2022',
      modulePreload: false,
    },
    plugins: [viteSingleFile({ removeViteModuleLoader: true })],
  };
}
