import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atExit } from './interrupt.js';

// Every temporary folder SkillAudit makes is registered here, so that it is removed on success, on
// failure, and when the process is interrupted (SIGINT, SIGTERM, SIGHUP) or exits early (interrupt.ts,
// after what the process started was stopped).
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

export function makeTempDir(prefix: string): string {
  if (!hooked) {
    hooked = true;
    atExit(removeAll);
  }
  const dir = mkdtempSync(join(tmpdir(), `skillaudit-${prefix}-`));
  live.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  live.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
