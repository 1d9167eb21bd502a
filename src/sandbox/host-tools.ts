// Host programs the sandbox relies on, found by absolute path so a hostile PATH cannot substitute them.
import { accessSync, constants } from 'node:fs';

const SEARCH_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];

export function findTool(name: string): string | null {
  for (const dir of SEARCH_DIRS) {
    const path = `${dir}/${name}`;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not here.
    }
  }
  return null;
}

export const isRoot = (): boolean => process.getuid?.() === 0;
