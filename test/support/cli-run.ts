// Runs the real command-line program in this process and captures what it prints and its exit code.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/** The repository root: tsx is resolved from there. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('./cli-main.ts', import.meta.url));

export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  process.exitCode = undefined;
  try {
    const code = await main(['node', 'skillaudit', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

export interface SpawnedCli {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Starts the command-line program from source in a child process (its own process group, so a test can stop
 * it and everything it started), optionally behind a prefix such as `setpriv --reuid …`.
 */
export function spawnCli(args: string[], env: Record<string, string>, prefix: string[] = []): SpawnedCli {
  const argv = [...prefix, process.execPath, '--import', 'tsx', CLI_MAIN, ...args];
  const child = spawn(argv[0] as string, argv.slice(1), { env, cwd: REPO, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<Awaited<SpawnedCli['done']>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
