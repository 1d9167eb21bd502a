import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

// Builds tar / tar.gz archives in memory with arbitrary headers (links, FIFOs, hostile names).

export interface TarEntrySpec {
  name: string;
  data?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'fifo' | 'character-device';
  linkname?: string;
  mode?: number;
}

export async function buildTar(entries: TarEntrySpec[], gzip = true): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  })();
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const header = {
      name: entry.name,
      type,
      mode: entry.mode ?? (type === 'directory' ? 0o755 : 0o644),
      ...(entry.linkname !== undefined ? { linkname: entry.linkname } : {}),
    };
    await new Promise<void>((resolve, reject) => {
      const data = type === 'file' ? Buffer.from(entry.data ?? '') : undefined;
      const callback = (error?: Error | null) => (error ? reject(error) : resolve());
      if (data) pack.entry(header, data, callback);
      else pack.entry(header, callback);
    });
  }
  pack.finalize();
  await done;
  const raw = Buffer.concat(chunks);
  return gzip ? gzipSync(raw) : raw;
}
