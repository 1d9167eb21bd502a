import { createReadStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Header } from 'tar-stream';
import tar from 'tar-stream';
import { UserError } from '../util/errors.js';
import {
  ArchiveBudget,
  extractedMode,
  type SkippedEntry,
  safeEntryPath,
  writeEntry,
} from './archive-guard.js';
import type { IntakeLimits } from './limits.js';

// Extracts a .tar.gz / .tgz / .tar into `dest`: regular files and folders only. Symlinks, hard links and
// device or FIFO entries are never created on disk; they are returned so the skill can report them.

/** An entry as the extractor yields it: its header and an async stream of its bytes. */
type TarEntry = AsyncIterable<Buffer> & { header: Header };

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function invalid(archive: string, cause: unknown): UserError {
  if (cause instanceof UserError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new UserError('ARCHIVE_INVALID', `${archive}: not a readable tar archive (${message})`);
}

export async function extractTar(
  file: string,
  dest: string,
  limits: IntakeLimits,
  archiveName: string,
): Promise<SkippedEntry[]> {
  const budget = new ArchiveBudget(limits, archiveName);
  const skipped: SkippedEntry[] = [];
  const extract = tar.extract();
  const compressedSize = (await stat(file)).size;
  const stages: NodeJS.ReadWriteStream[] = (await isGzip(file)) ? [createGunzip()] : [];
  const feeding = pipeline([
    createReadStream(file),
    ...stages,
    budget.streamCounter(compressedSize),
    extract,
  ]);
  // The loop below consumes entries while the pipeline feeds them; its failure surfaces in either place.
  feeding.catch(() => {});
  try {
    for await (const entry of extract) {
      await extractEntry(entry as unknown as TarEntry, dest, budget, skipped, archiveName);
    }
    await feeding;
  } catch (cause) {
    extract.destroy();
    const fed = await feeding.then(
      () => null,
      (error: unknown) => error,
    );
    throw invalid(archiveName, cause instanceof UserError ? cause : (fed ?? cause));
  }
  return skipped;
}

async function extractEntry(
  entry: TarEntry,
  dest: string,
  budget: ArchiveBudget,
  skipped: SkippedEntry[],
  archiveName: string,
): Promise<void> {
  const { header } = entry;
  budget.countEntry();
  const path = safeEntryPath(header.name);
  const type = header.type ?? 'file';
  if (path === null || type === 'directory') {
    if (path !== null) await mkdir(join(dest, path), { recursive: true });
    return drain(entry);
  }
  if (type === 'symlink' || type === 'link') {
    skipped.push({
      path,
      kind: type === 'symlink' ? 'symlink' : 'hardlink',
      target: header.linkname ?? null,
    });
    return drain(entry);
  }
  if (type !== 'file' && type !== 'contiguous-file') {
    skipped.push({ path, kind: 'special', target: null });
    return drain(entry);
  }
  budget.checkDeclared(path, header.size ?? 0, null);
  await writeEntry(
    archiveName,
    dest,
    path,
    async () => entry,
    budget.entryCounter(path, null),
    extractedMode(header.mode),
  );
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // Entries must be consumed for the next one to arrive; skipped entries' bytes are discarded.
  }
}
