import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../util/errors.js';
import type { IntakeLimits } from './limits.js';

// Shared safety for archive extraction: entry names must stay inside the extraction folder, and sizes
// are counted on the bytes actually produced (headers lie), against total, per-entry, count and ratio caps.

/** Entries smaller than this are never called bombs by ratio: tiny files of repeated bytes compress well. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface SkippedEntry {
  /** Normalised entry path inside the archive. */
  path: string;
  kind: 'symlink' | 'hardlink' | 'special';
  target: string | null;
}

/**
 * Validates an entry name and returns it normalised ('a/./b/' → 'a/b'), or null for the root itself.
 * Refuses the whole archive on `..`, absolute paths, drive letters, backslashes and control characters.
 */
export function safeEntryPath(name: string): string | null {
  const unsafe = (why: string) =>
    new UserError(
      'UNSAFE_ARCHIVE',
      `archive entry ${JSON.stringify(name)} ${why}; the archive was refused`,
      name,
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) throw unsafe('contains control characters');
  if (name.includes('\\')) throw unsafe('contains a backslash (a Windows path separator)');
  if (name.startsWith('/')) throw unsafe('is an absolute path');
  if (/^[A-Za-z]:/.test(name)) throw unsafe('starts with a drive letter');
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw unsafe('climbs out of the archive with ".."');
  return segments.length === 0 ? null : segments.join('/');
}

/** Counts bytes across a whole archive and refuses it as soon as a cap is crossed. */
export class ArchiveBudget {
  private totalBytes = 0;
  private entries = 0;

  constructor(
    private readonly limits: IntakeLimits,
    private readonly archiveName: string,
  ) {}

  tooLarge(why: string, entry?: string): UserError {
    return new UserError('ARCHIVE_TOO_LARGE', `${this.archiveName}: ${why}; the archive was refused`, entry);
  }

  countEntry(): void {
    this.entries++;
    if (this.entries > this.limits.maxArchiveEntries) {
      throw this.tooLarge(`more than ${this.limits.maxArchiveEntries} entries`);
    }
  }

  /** Checks a size an entry declares before any byte is inflated. */
  checkDeclared(entry: string, declared: number, compressed: number | null): void {
    if (declared > this.limits.maxArchiveEntryBytes) {
      throw this.tooLarge(
        `entry ${entry} declares ${declared} bytes (limit ${this.limits.maxArchiveEntryBytes})`,
        entry,
      );
    }
    if (
      compressed !== null &&
      declared > RATIO_FLOOR_BYTES &&
      declared / Math.max(compressed, 1) > this.limits.maxArchiveRatio
    ) {
      throw this.tooLarge(
        `entry ${entry} expands ${Math.round(declared / Math.max(compressed, 1))}:1 (a zip bomb)`,
        entry,
      );
    }
  }

  /** A pass-through that counts the bytes one entry really produces. */
  entryCounter(entry: string, compressed: number | null): Transform {
    let bytes = 0;
    const budget = this;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        budget.totalBytes += chunk.length;
        const { maxArchiveEntryBytes, maxArchiveBytes, maxArchiveRatio } = budget.limits;
        if (bytes > maxArchiveEntryBytes) {
          return done(budget.tooLarge(`entry ${entry} inflates past ${maxArchiveEntryBytes} bytes`, entry));
        }
        if (budget.totalBytes > maxArchiveBytes) {
          return done(budget.tooLarge(`contents exceed ${maxArchiveBytes} bytes in total`, entry));
        }
        if (
          compressed !== null &&
          bytes > RATIO_FLOOR_BYTES &&
          bytes / Math.max(compressed, 1) > maxArchiveRatio
        ) {
          return done(
            budget.tooLarge(`entry ${entry} expands over ${maxArchiveRatio}:1 (a zip bomb)`, entry),
          );
        }
        done(null, chunk);
      },
    });
  }

  /** A pass-through over a whole decompressed stream (tar.gz), checked against the compressed size. */
  streamCounter(compressedSize: number): Transform {
    let bytes = 0;
    const budget = this;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        const { maxArchiveBytes, maxArchiveRatio } = budget.limits;
        // Headers, padding and skipped entries count too: a tar can be a bomb without any file in it.
        if (bytes > maxArchiveBytes + 1024 * 1024) {
          return done(budget.tooLarge(`it decompresses past ${maxArchiveBytes} bytes`));
        }
        if (bytes > RATIO_FLOOR_BYTES && bytes / Math.max(compressedSize, 1) > maxArchiveRatio) {
          return done(budget.tooLarge(`it expands over ${maxArchiveRatio}:1 (a decompression bomb)`));
        }
        done(null, chunk);
      },
    });
  }
}

/** File mode for an extracted file: keep only whether it was executable (scripts may need it later). */
export function extractedMode(mode: number | undefined): number {
  return mode !== undefined && (mode & 0o111) !== 0 ? 0o755 : 0o644;
}

/**
 * Writes one entry's bytes to `dest/path` through the budget's counter. The file is created exclusively
 * ('wx'): a second entry with the same name would replace what was scanned, so it refuses the archive.
 * The entry is opened only once the folder exists, so that no error it emits (yauzl checks sizes as it
 * reads) can arrive before the pipeline listens.
 */
export async function writeEntry(
  archiveName: string,
  dest: string,
  path: string,
  open: () => Promise<AsyncIterable<unknown> | NodeJS.ReadableStream>,
  counter: Transform,
  mode: number,
): Promise<void> {
  const out = join(dest, path);
  await mkdir(dirname(out), { recursive: true });
  const input = await open();
  const output = createWriteStream(out, { flags: 'wx', mode });
  await pipeline(input, counter, output).catch((cause) => {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UserError(
        'UNSAFE_ARCHIVE',
        `${archiveName}: entry ${path} appears twice; the archive was refused`,
        path,
      );
    }
    throw cause;
  });
}
