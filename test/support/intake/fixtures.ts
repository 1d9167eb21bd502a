import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Fixture helpers for intake tests: skills written at test time, and a sentinel area whose every file is
// snapshotted before and after a hostile case to prove nothing outside the temp folder changed.

export function skillMd(name: string, description: string, body = '# Usage\n\nRun the script.\n'): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Writes files (relative path → content) under `dir`, creating folders as needed. */
export function writeTree(dir: string, files: Record<string, string | Buffer>): string {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

export function writeSkill(dir: string, name: string, extra: Record<string, string | Buffer> = {}): string {
  return writeTree(dir, { 'SKILL.md': skillMd(name, `Test skill ${name}.`), ...extra });
}

/**
 * A world-readable scratch area: `fixtures/` for inputs, `home/` as HOME, `outside/` holding a secret
 * with a unique marker, and `tmp/` used as TMPDIR so the test sees every temp folder intake makes.
 */
export interface Area {
  root: string;
  fixtures: string;
  home: string;
  outside: string;
  tmp: string;
  secretPath: string;
  marker: string;
  cleanup(): void;
}

export function makeArea(label: string): Area {
  const root = mkdtempSync(join(tmpdir(), `sa-test-${label}-`));
  chmodSync(root, 0o755);
  const area = {
    root,
    fixtures: join(root, 'fixtures'),
    home: join(root, 'home'),
    outside: join(root, 'outside'),
    tmp: join(root, 'tmp'),
    secretPath: join(root, 'outside', 'secret.txt'),
    marker: `SECRET-MARKER-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const dir of [area.fixtures, area.home, area.outside, area.tmp]) mkdirSync(dir, { mode: 0o777 });
  chmodSync(area.tmp, 0o1777);
  writeFileSync(area.secretPath, `${area.marker}\n`);
  return area;
}

/**
 * Every entry under `dir` (type, mode, size, content hash, link target), without following links.
 * Names are read as bytes, so entries whose names are not UTF-8 are seen too.
 */
export function snapshot(dir: string, skip: (path: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string, abs: Buffer) => {
    const stat = lstatSync(abs);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) out.set(rel, `link ${readlinkSync(abs)}`);
    else if (stat.isDirectory()) {
      out.set(rel, `dir ${mode}`);
      for (const name of readdirSync(abs, { encoding: 'buffer' }).sort(Buffer.compare)) {
        const shown = isUtf8(name) ? name.toString('utf8') : `hex:${name.toString('hex')}`;
        const child = rel ? `${rel}/${shown}` : shown;
        if (!skip(child)) visit(child, Buffer.concat([abs, Buffer.from('/'), name]));
      }
    } else if (stat.isFile()) {
      // Large generated files are compared by size and mtime; hashing them would dominate test time.
      const content =
        stat.size > 4 * 1024 * 1024
          ? `${stat.size}@${stat.mtimeMs}`
          : createHash('sha256').update(readFileSync(abs)).digest('hex');
      out.set(rel, `file ${mode} ${content}`);
    } else out.set(rel, `special ${mode}`);
  };
  visit('', Buffer.from(dir));
  return out;
}
