import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

// Reads one regular file for intake: the first `readBytes` bytes for analysis, and the sha256 of the
// whole file when `hash` is set. Opening never follows a symlink and never blocks on a FIFO, and
// the opened file must be the one lstat saw, so a file swapped between lstat and open is not read.

export interface FileBytes {
  head: Buffer;
  /** True when the file is longer than `head`. */
  truncated: boolean;
  sha256: string | null;
}

const CHUNK = 1024 * 1024;

export class FileChangedError extends Error {}

export async function readFileBounded(
  path: string | Buffer,
  seen: Stats,
  readBytes: number,
  hash: boolean,
): Promise<FileBytes> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.ino !== seen.ino || stat.dev !== seen.dev) {
      throw new FileChangedError(`${String(path)} changed while it was read`);
    }
    const size = stat.size;
    const hasher = hash ? createHash('sha256') : null;
    const headLength = Math.min(size, readBytes);
    const head = Buffer.alloc(headLength);
    let headFilled = 0;
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let position = 0;
    const end = hasher ? size : headLength;
    while (position < end) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break; // the file shrank: hash what exists
      const piece = chunk.subarray(0, bytesRead);
      hasher?.update(piece);
      if (headFilled < headLength) headFilled += piece.copy(head, headFilled, 0, headLength - headFilled);
      position += bytesRead;
    }
    return {
      head: head.subarray(0, headFilled),
      truncated: size > headFilled,
      sha256: hasher ? hasher.digest('hex') : null,
    };
  } finally {
    await handle.close();
  }
}
