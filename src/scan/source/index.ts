// Scanning a source (a folder, archive or repository of skills) as the CLI and the evaluations use it: intake,
// the scan cache and the worker pool. A sub-stage loaded apart from scan/index.ts because it does not load the
// engine up front: a re-scan that the cache answers reads and hashes the skills and analyses nothing.

export type { ScanSourceOptions, SkillScanResult } from './scan-source.js';
export { scanSource } from './scan-source.js';
