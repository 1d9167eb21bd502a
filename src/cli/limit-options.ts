import { type Command, InvalidArgumentError } from 'commander';
import type { IntakeLimits } from '../intake/index.js';

// The intake limit flags, shared by every command that loads skills (inspect, scan, audit, ...).

export interface LimitFlags {
  maxFiles?: number;
  maxReadBytes?: number;
  maxTotalBytes?: number;
  maxDepth?: number;
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Parses a byte size: 1048576, 512k, 2M, 1GB (binary units). */
export function parseByteSize(value: string): number {
  const match = /^\s*(\d+)\s*([kmg]?)i?b?\s*$/i.exec(value);
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new InvalidArgumentError('expected a size such as 1048576, 512k or 2M');
  const bytes = Number(match[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new InvalidArgumentError('expected a positive size');
  return bytes;
}

export function parseCount(value: string): number {
  if (!/^\s*\d+\s*$/.test(value)) throw new InvalidArgumentError('expected a positive whole number');
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count <= 0)
    throw new InvalidArgumentError('expected a positive whole number');
  return count;
}

export function addLimitOptions(cmd: Command): Command {
  return cmd
    .option('--max-files <n>', 'files read per skill (default 5000)', parseCount)
    .option(
      '--max-read-bytes <size>',
      'bytes of each file read as text for analysis (default 2M)',
      parseByteSize,
    )
    .option(
      '--max-total-bytes <size>',
      'bytes hashed per skill across all files (default 512M)',
      parseByteSize,
    )
    .option('--max-depth <n>', 'folder nesting searched and read (default 32)', parseCount);
}

const FLAG_TO_LIMIT = {
  maxFiles: 'maxFiles',
  maxReadBytes: 'maxReadBytes',
  maxTotalBytes: 'maxTotalBytes',
  maxDepth: 'maxDepth',
} as const satisfies Record<keyof LimitFlags, keyof IntakeLimits>;

/** Limits from parsed flags; accepts any command's flag object (other flags are ignored). */
export function limitsFromOptions(
  opts: LimitFlags | Readonly<Record<string, unknown>>,
): Partial<IntakeLimits> {
  const limits: Partial<IntakeLimits> = {};
  for (const [flag, limit] of Object.entries(FLAG_TO_LIMIT)) {
    const value = (opts as Readonly<Record<string, unknown>>)[flag];
    if (typeof value === 'number') limits[limit] = value;
  }
  return limits;
}
