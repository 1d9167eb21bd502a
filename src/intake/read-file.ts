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
  /** The head is the script with its comment-only lines emptied (it was longer than its read limit). */
  compacted?: true;
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

/**
 * Keeps a script's text with its comment-only lines emptied (the newline kept, so line numbers hold), for a
 * script longer than its read limit: megabytes of comment lines ahead of the code are how a payload is pushed
 * past a scanner's limit. A streaming byte filter: the state carries across chunks.
 */
class CommentCompactor {
  private state: 'indent' | 'marker' | 'comment' | 'code' = 'indent';
  /** The line's leading spaces and tabs, as they were: a Makefile's recipe is known by its tab. */
  private indent: number[] = [];
  private matched = 0;
  private line = 1;
  /** A byte of code did not fit. */
  overflow = false;

  constructor(
    private readonly marker: Buffer,
    private readonly out: { put(bytes: Buffer | number): boolean },
  ) {}

  add(piece: Buffer): void {
    for (let i = 0; i < piece.length; i++) {
      const b = piece[i]!;
      if (b === 10) {
        if (this.state === 'marker') this.flushMarker();
        else if (this.state === 'indent') this.flushIndent();
        this.emit(10);
        this.line++;
        this.state = 'indent';
        this.indent = [];
        continue;
      }
      if (this.state === 'comment') continue;
      if (this.state === 'code') {
        this.emit(b);
        continue;
      }
      if (this.state === 'indent' && (b === 32 || b === 9)) {
        this.indent.push(b);
        continue;
      }
      if (
        b === this.marker[this.matched] &&
        !(this.line === 1 && this.matched === 0 && this.indent.length === 0)
      ) {
        // A shebang (`#!` on line 1) stays: it names the interpreter.
        this.matched++;
        this.state = 'marker';
        if (this.matched === this.marker.length) {
          this.state = 'comment';
          this.matched = 0;
          this.indent = [];
        }
        continue;
      }
      if (this.state === 'marker') this.flushMarker();
      else this.flushIndent();
      this.state = 'code';
      this.emit(b);
    }
  }

  private flushIndent(): void {
    for (const b of this.indent) this.emit(b);
    this.indent = [];
  }

  private flushMarker(): void {
    this.flushIndent();
    for (let k = 0; k < this.matched; k++) this.emit(this.marker[k]!);
    this.matched = 0;
  }

  private emit(b: number): void {
    if (!this.out.put(b) && b !== 10) this.overflow = true;
  }
}

/** Collects the head and feeds the hash as chunks arrive, whichever way they are read. */
class Collector {
  readonly head: Buffer;
  filled = 0;
  private hasher: Hash | null = null;
  private digest: string | null = null;
  private compactor: CommentCompactor | null;
  private started = false;

  constructor(
    headLength: number,
    private readonly hash: boolean,
    comment: Buffer | null = null,
  ) {
    this.head = Buffer.alloc(headLength);
    this.compactor = comment
      ? new CommentCompactor(comment, {
          put: (b) => {
            if (this.filled >= this.head.length) return false;
            this.head[this.filled++] = b as number;
            return true;
          },
        })
      : null;
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
    // A UTF-16 text is not filtered byte by byte: it is kept as read, cut at the limit.
    if (
      !this.started &&
      this.compactor &&
      piece.length >= 2 &&
      (piece[0]! ^ piece[1]!) === 0x01 &&
      piece[0]! >= 0xfe
    )
      this.compactor = null;
    this.started = true;
    if (this.compactor) this.compactor.add(piece);
    else if (this.filled < this.head.length) {
      this.filled += piece.copy(this.head, this.filled, 0, this.head.length - this.filled);
    }
  }

  /** `read` is how many bytes of the file were read (all of them unless the file shrank or a cap stopped it). */
  result(size: number, read: number): FileBytes {
    const sha256 = this.hash ? (this.digest ?? (this.hasher ?? createHash('sha256')).digest('hex')) : null;
    const truncated = this.compactor ? this.compactor.overflow || read < size : size > this.filled;
    return {
      head: this.head.subarray(0, this.filled),
      truncated,
      sha256,
      ...(this.compactor ? { compacted: true } : {}),
    };
  }
}

/** Reads a file, with blocking calls when it is small enough (see above), else asynchronously. */
/** How far past its read limit a script is read when its comment lines are emptied: time, not memory. */
export const COMPACT_READ_FACTOR = 16;

/**
 * Reads a file, with blocking calls when it is small enough (see above), else asynchronously. With
 * `comment` (a script's line-comment marker), a file longer than `readBytes` keeps its text with comment-only
 * lines emptied, read on to COMPACT_READ_FACTOR times the limit.
 */
export function readFileBounded(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
  comment: Buffer | null = null,
): FileBytes | Promise<FileBytes> {
  const compact = comment !== null && seen.size > readBytes && readBytes > 0 ? comment : null;
  const end = readEnd(seen.size, Math.min(seen.size, readBytes), hash, compact);
  return end <= SYNC_MAX_BYTES
    ? readSmallFile(path, seen, readBytes, hash, compact)
    : readLargeFile(path, seen, readBytes, hash, compact);
}

function readSmallFile(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
  compact: Buffer | null,
): FileBytes {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    checkSame(path, stat, seen);
    const size = stat.size;
    const collector = new Collector(Math.min(size, readBytes), hash, compact);
    const end = readEnd(size, collector.head.length, hash, compact);
    // The file may have grown since lstat: past one chunk, the rest is read like a large file's, in chunks.
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(end, 1)));
    let position = 0;
    while (position < end) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break; // the file shrank: hash what exists
      collector.add(chunk.subarray(0, bytesRead), position === 0 && bytesRead === size);
      position += bytesRead;
    }
    return collector.result(size, position);
  } finally {
    closeSync(fd);
  }
}

/** Where reading stops: the whole file when hashing; else the kept head, or the compacting read's cap. */
function readEnd(size: number, head: number, hash: boolean, compact: Buffer | null): number {
  if (hash) return size;
  return compact ? Math.min(size, head * COMPACT_READ_FACTOR) : head;
}

async function readLargeFile(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
  compact: Buffer | null,
): Promise<FileBytes> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    checkSame(path, stat, seen);
    const size = stat.size;
    const collector = new Collector(Math.min(size, readBytes), hash, compact);
    const end = readEnd(size, collector.head.length, hash, compact);
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let position = 0;
    while (position < end) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break; // the file shrank: hash what exists
      collector.add(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
    return collector.result(size, position);
  } finally {
    await handle.close();
  }
}
