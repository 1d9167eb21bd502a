import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// One cache folder per test run: tests never read the developer's cached scans or model responses.
process.env.SKILLAUDIT_CACHE_DIR ??= join(tmpdir(), `skillaudit-test-cache-${process.pid}`);

// Fast unit tests run first (the "unit" project), real-component tests after ("integration").
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], fileParallelism: true } },
    ],
  },
});
