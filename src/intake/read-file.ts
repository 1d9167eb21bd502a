import { createHash, type Hash, hash as hashOnce } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

// Reads one regular file for intake: the first `readBytes` bytes for analysis, and the sha256 of the
// whole file when `hash` is set. Opening never follows a symlink and never blocks on a FIFO, and
// the opened file must be the one lstat saw, so a file swapped between lstat and open is not read.
//
// Small files (nearly all of a skill) are read with blocking calls: a file lstat already saw as regular
// and opened O_NONBLOCK cannot stall, and four thread-pool round trips per file (open, fstat, read,
// close, each with its promise) cost far more main-thread CPU than the reads. Large files keep the
// asynchronous path, so a hostile multi-megabyte file never blocks the event loop (Ctrl-C) for long.

export interface FileBytes {
  head: Buffer;
  /** True when the file is longer than `head`. */
  truncated: boolean;
  sha256: string | null;
}

const CHUNK = 1024 * 1024;
/** Bytes to read (hashed or kept) up to which the blocking path is used: one chunk, well under a millisecond. */
const SYNC_MAX_BYTES = CHUNK;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export class FileChangedError extends Error {}

function checkSame(path: string | Buffer, stat: Stats, seen: Stats): void {
  if (!stat.isFile() || stat.ino !== seen.ino || stat.dev !== seen.dev) {
    throw new FileChangedError(`${String(path)} changed while it was read`);
  }
}

/** Collects the head and feeds the hash as chunks arrive, whichever way they are read. */
class Collector {
  readonly head: Buffer;
  filled = 0;
  private hasher: Hash | null = null;
  private digest: string | null = null;

  constructor(
    headLength: number,
    private readonly hash: boolean,
  ) {
    this.head = Buffer.alloc(headLength);
  }

  /** `whole` says the piece is the entire file: one-shot hashing, no Hash object (most files). */
  add(piece: Buffer, whole = false): void {
    if (this.hash) {
      if (whole) this.digest = hashOnce('sha256', piece, 'hex');
      else {
        this.hasher ??= createHash('sha256');
        this.hasher.update(piece);
      }
    }
    if (this.filled < this.head.length) {
      this.filled += piece.copy(this.head, this.filled, 0, this.head.length - this.filled);
    }
  }

  result(size: number): FileBytes {
    const sha256 = this.hash ? (this.digest ?? (this.hasher ?? createHash('sha256')).digest('hex')) : null;
    return { head: this.head.subarray(0, this.filled), truncated: size > this.filled, sha256 };
  }
}

/** Reads a file, with blocking calls when it is small enough (see above), else asynchronously. */
export function readFileBounded(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
): FileBytes | Promise<FileBytes> {
  const end = hash ? seen.size : Math.min(seen.size, readBytes);
  return end <= SYNC_MAX_BYTES
    ? readSmallFile(path, seen, readBytes, hash)
    : readLargeFile(path, seen, readBytes, hash);
}

function readSmallFile(path: string | Buffer, seen: Stats, readBytes: number, hash: boolean): FileBytes {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    checkSame(path, stat, seen);
    const size = stat.size;
    const collector = new Collector(Math.min(size, readBytes), hash);
    const end = hash ? size : collector.head.length;
    // The file may have grown since lstat: past one chunk, the rest is read like a large file's, in chunks.
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(end, 1)));
    let position = 0;
    while (position < end) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break; // the file shrank: hash what exists
      collector.add(chunk.subarray(0, bytesRead), position === 0 && bytesRead === size);
      position += bytesRead;
    }
    return collector.result(size);
  } finally {
    closeSync(fd);
  }
}

async function readLargeFile(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
): Promise<FileBytes> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    checkSame(path, stat, seen);
    const size = stat.size;
    const collector = new Collector(Math.min(size, readBytes), hash);
    const end = hash ? size : collector.head.length;
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let position = 0;
    while (position < end) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break; // the file shrank: hash what exists
      collector.add(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    return collector.result(size);
  } finally {
    await handle.close();
  }
}
