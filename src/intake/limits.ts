// Intake limits: defaults sized for real skills (tens of files, well under a megabyte) with wide margins,
// while keeping hostile inputs (huge trees, bombs, giant files) bounded in time, memory and disk.
export interface IntakeLimits {
  /** Entries (files, folders, links) examined per skill; beyond it the walk stops and says so. */
  maxFiles: number;
  /** Bytes hashed per skill across all files; beyond it files are recorded by size only. */
  maxTotalBytes: number;
  /** Bytes of each file decoded as text for analysis. */
  maxReadBytes: number;
  /** Bytes decoded as text per skill across all files: bounds memory when a skill holds many large files. */
  maxTextBytes: number;
  /** Directory nesting below the skill root (or the corpus root). */
  maxDepth: number;
  /** Archives: total uncompressed bytes, bytes per entry, entries, and the compression ratio that marks a bomb. */
  maxArchiveBytes: number;
  maxArchiveEntryBytes: number;
  maxArchiveEntries: number;
  maxArchiveRatio: number;
}

export const DEFAULT_LIMITS: IntakeLimits = {
  maxFiles: 5_000,
  maxTotalBytes: 512 * 1024 * 1024,
  maxReadBytes: 2 * 1024 * 1024,
  // Real skills hold well under 1 MB of text; 64 MB keeps a hostile skill's memory use bounded.
  maxTextBytes: 64 * 1024 * 1024,
  maxDepth: 32,
  maxArchiveBytes: 512 * 1024 * 1024,
  maxArchiveEntryBytes: 128 * 1024 * 1024,
  maxArchiveEntries: 20_000,
  maxArchiveRatio: 200,
};
