import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every temporary folder SkillAudit makes is registered here, so that it is removed on success, on
// failure, and when the process is interrupted (SIGINT, SIGTERM, SIGHUP) or exits early.
const live = new Set<string>();
let hooked = false;

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort at exit: nothing else can be done.
    }
  }
  live.clear();
}

function hookSignals(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removeAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      removeAll();
      // Re-raise with the default handler so the exit status says which signal ended us.
      process.kill(process.pid, signal);
    });
  }
}

export function makeTempDir(prefix: string): string {
  hookSignals();
  const dir = mkdtempSync(join(tmpdir(), `skillaudit-${prefix}-`));
  live.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  live.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
