// Runs the built command-line program (bin/skillaudit.js -> dist/) in a child process, as users run it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const BUILT_BIN = join(REPO_ROOT, 'bin', 'skillaudit.js');

/** Fails the suite early with the fix, instead of every test failing on a missing module. */
export function requireBuild(): void {
  if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm ci does it) before the CLI tests');
  }
}

export interface BuiltRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `skillaudit <args>` in `cwd` without colour; `env` adds to (or overrides) this process's environment. */
export function runBuilt(args: string[], cwd: string, env: Record<string, string> = {}): Promise<BuiltRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BUILT_BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** stderr without the progress lines a non-terminal run prints (`skillaudit: <what> (<n> s)`) and the count of
 * scans read from the cache: what is left are warnings and errors. */
export function withoutProgress(stderr: string): string {
  return stderr
    .split('\n')
    .filter(
      (l) => !/^skillaudit: .* \(\d+ s\)$/.test(l) && !/^skillaudit: \d+ of \d+ skills unchanged/.test(l),
    )
    .join('\n');
}
