import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { UserError } from '../util/errors.js';
import {
  ArchiveBudget,
  extractedMode,
  type SkippedEntry,
  safeEntryPath,
  writeEntry,
} from './archive-guard.js';
import type { IntakeLimits } from './limits.js';

// Extracts a .zip / .skill into `dest`: regular files and folders only. Symlinks and special entries are
// never created on disk; they are returned so the skill can report them.

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const MAX_LINK_TARGET = 4096;

function invalid(archive: string, cause: unknown): UserError {
  if (cause instanceof UserError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (/too many bytes|size mismatch/i.test(message)) {
    return new UserError(
      'ARCHIVE_TOO_LARGE',
      `${archive}: an entry inflates beyond its declared size; the archive was refused`,
    );
  }
  return new UserError('ARCHIVE_INVALID', `${archive}: not a readable zip archive (${message})`);
}

async function readAll(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > max) break;
    chunks.push(chunk);
  }
  stream.destroy();
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

export async function extractZip(
  file: string,
  dest: string,
  limits: IntakeLimits,
  archiveName: string,
): Promise<SkippedEntry[]> {
  const budget = new ArchiveBudget(limits, archiveName);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (cause) {
    throw invalid(archiveName, cause);
  }
  const skipped: SkippedEntry[] = [];
  try {
    if (zip.entryCount > limits.maxArchiveEntries) {
      throw budget.tooLarge(`${zip.entryCount} entries (limit ${limits.maxArchiveEntries})`);
    }
    for (;;) {
      const entry = await nextEntry(zip);
      if (entry === null) break;
      budget.countEntry();
      const raw = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        true,
      );
      const path = safeEntryPath(raw);
      if (path === null) continue;
      const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
      const type = unixMode & S_IFMT;
      if (raw.endsWith('/') || type === S_IFDIR) {
        await mkdir(join(dest, path), { recursive: true });
        continue;
      }
      if (entry.isEncrypted()) {
        throw new UserError(
          'ARCHIVE_INVALID',
          `${archiveName}: entry ${path} is encrypted; SkillAudit cannot inspect it`,
          path,
        );
      }
      budget.checkDeclared(path, entry.uncompressedSize, entry.compressedSize);
      if (type === S_IFLNK) {
        const target = await readAll(await zip.openReadStreamPromise(entry), MAX_LINK_TARGET);
        skipped.push({ path, kind: 'symlink', target });
        continue;
      }
      if (type !== 0 && type !== S_IFREG) {
        skipped.push({ path, kind: 'special', target: null });
        continue;
      }
      await writeEntry(
        archiveName,
        dest,
        path,
        () => zip.openReadStreamPromise(entry),
        budget.entryCounter(path, entry.compressedSize),
        extractedMode(unixMode),
      );
    }
  } catch (cause) {
    throw invalid(archiveName, cause);
  } finally {
    zip.close();
  }
  return skipped;
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}
