import { rmSync } from 'node:fs';

// The suite's cache folder (vitest.config.ts): model responses and scan results of one test run, kept apart from
// the developer's own cache and removed at the end.
export default function setup(): () => void {
  return () => {
    const dir = process.env.SKILLAUDIT_CACHE_DIR;
    if (dir?.includes('skillaudit-test-cache-')) rmSync(dir, { recursive: true, force: true });
  };
}
