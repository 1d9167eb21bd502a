import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { archiveFormat, archiveStem } from '../intake/index.js';
import { newAuditId } from '../store/audits.js';
import { ApiError } from './api-error.js';

// Request bodies read under a byte cap while they stream: a body past the cap is refused (413) as soon as
// the cap is crossed, whatever Content-Length said, and nothing of it stays on disk. Archives are written to
// `<data-dir>/uploads/<random>/<name>.<ext>`; the name keeps the archive's stem because a root-level
// skill's folder is named after it (the spec's name-matches-folder rule).

const TYPE_EXTENSIONS: Record<string, string> = {
  'application/zip': '.zip',
  'application/x-zip-compressed': '.zip',
  'application/gzip': '.tar.gz',
  'application/x-gzip': '.tar.gz',
  'application/x-tar': '.tar',
};

export const ARCHIVE_TYPES = [...Object.keys(TYPE_EXTENSIONS), 'application/octet-stream'];

function tooLarge(cap: number): ApiError {
  return new ApiError(413, 'TOO_LARGE', `the request body is larger than ${cap} bytes`);
}

/** Refuses early when the client declares a body over the cap. */
export function checkDeclaredLength(header: string | undefined, cap: number): void {
  if (header !== undefined && /^\d+$/.test(header) && Number(header) > cap) throw tooLarge(cap);
}

/** Reads a small body (JSON) into memory, at most `cap` bytes. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<string> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      throw tooLarge(cap);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The archive's file name: from `?filename=`, else from the content type. */
export function uploadName(filename: string | undefined, contentType: string): string {
  if (filename !== undefined && filename !== '') {
    if (filename.length > 255 || archiveFormat(filename) === null) {
      throw new ApiError(
        400,
        'BAD_UPLOAD',
        `${filename.slice(0, 100)}: expected a .zip, .skill, .tar.gz, .tgz or .tar name`,
      );
    }
    const lower = filename.toLowerCase();
    const ext = ['.tar.gz', '.tgz', '.tar', '.zip', '.skill'].find((e) => lower.endsWith(e)) ?? '.zip';
    return `${archiveStem(filename)}${ext}`;
  }
  const ext = TYPE_EXTENSIONS[contentType];
  if (!ext) {
    throw new ApiError(
      400,
      'BAD_UPLOAD',
      'name the archive with ?filename=<name>.zip (or .tar.gz, .tar, .skill)',
    );
  }
  return `upload${ext}`;
}

export interface StoredUpload {
  path: string;
  sha256: string;
  bytes: number;
}

/** Streams an archive body to a new folder under `uploadsDir`, at most `cap` bytes. */
export async function storeUpload(
  body: ReadableStream<Uint8Array> | null,
  uploadsDir: string,
  name: string,
  cap: number,
): Promise<StoredUpload> {
  if (!body) throw new ApiError(400, 'BAD_UPLOAD', 'the request has no body');
  const dir = join(uploadsDir, newAuditId());
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  const hash = createHash('sha256');
  const file = createWriteStream(path, { flags: 'wx' });
  // A write error (disk full) is kept and thrown below, never left as an unhandled 'error' event.
  let writeError: Error | null = null;
  file.on('error', (error) => {
    writeError = error;
  });
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > cap) {
        await reader.cancel();
        throw tooLarge(cap);
      }
      hash.update(value);
      if (writeError) throw writeError;
      if (!file.write(value)) await once(file, 'drain');
    }
    file.end();
    await once(file, 'close');
    if (writeError) throw writeError;
    if (bytes === 0) throw new ApiError(400, 'BAD_UPLOAD', 'the archive is empty');
    return { path, sha256: hash.digest('hex'), bytes };
  } catch (error) {
    file.destroy();
    await rm(dir, { recursive: true, force: true });
    if (error instanceof ApiError) throw error;
    // The client went away mid-body, or the disk is full: the upload is refused, the service goes on.
    throw new ApiError(400, 'UPLOAD_FAILED', `the upload did not complete (${(error as Error).message})`);
  }
}

/** Removes an upload's folder (the audit finished, or the submission was a duplicate). */
export async function removeUpload(path: string): Promise<void> {
  await rm(dirname(path), { recursive: true, force: true });
}
