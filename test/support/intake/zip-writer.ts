import { crc32, deflateRawSync } from 'node:zlib';

// Writes zip archives byte by byte, so tests can build what no well-behaved zip tool would: entry
// names with `..` or drive letters, symlink entries, headers that lie about sizes.

export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  /** Unix mode including the file type bits (0o120777 for a symlink, 0o040755 for a folder). */
  mode?: number;
  /** Stored (0) or deflated (8). */
  method?: 0 | 8;
  /** Overrides the uncompressed size written in the headers (a lying header). */
  declaredSize?: number;
  /** Pre-compressed payload (e.g. a streamed deflate of zeros too large to hold uncompressed). */
  compressed?: { bytes: Buffer; size: number; crc: number };
}

export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.from(entry.data ?? '');
    const method = entry.compressed ? 8 : (entry.method ?? 8);
    const payload = entry.compressed?.bytes ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = entry.compressed?.crc ?? crc32(data);
    const size = entry.declaredSize ?? entry.compressed?.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(payload.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, payload);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so external attributes carry the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(payload.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + payload.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
