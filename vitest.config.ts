import { defineConfig } from 'vitest/config';

// Fast unit tests run first (the "unit" project), real-component tests after ("integration").
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], fileParallelism: true } },
    ],
  },
});
