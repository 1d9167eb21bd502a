// Shared checks of detector fixtures: a pattern reported at a line with at least some confidence, or
// nothing from the given rules at or above a confidence (benign look-alikes must stay under the risky bar).
import { expect } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { type ContextOptions, runAll } from './make-context.js';

/** Rule ids of the reverse-shell, scheduled-persistence and embedded-script detectors. */
export const JOB_SHELL_EMBED_RULES = /^code\.(remote-shell|scheduled|startup|persistent-remote|embedded)/;

export interface DetectorCase {
  name: string;
  path: string;
  text: string;
  /** [pattern, line, minimum confidence] that must be reported (line within the hit's span). */
  expect?: [string, number, number][];
  /** Patterns that must not be reported at or above `below` (default 0.5). */
  quiet?: string[];
  below?: number;
  /** Which rules `quiet` applies to: by default the verdict rules (other rules have their own tests). */
  rules?: RegExp;
  options?: ContextOptions;
}

export async function checkDetectorCases(c: DetectorCase): Promise<void> {
  const hits = await runAll(codeDetectors, c.path, c.text, c.options);
  const summary = hits
    .map((h) => `${h.pattern}@${h.line}-${h.endLine} ${h.rule} (${h.confidence}) ${h.rationale}`)
    .join('\n');
  for (const [pattern, line, min] of c.expect ?? []) {
    const found = hits.filter(
      (h) => h.pattern === pattern && h.line <= line && line <= h.endLine && h.confidence >= min,
    );
    expect(found.length, `expected ${pattern}@${line} >= ${min} in:\n${summary}`).toBeGreaterThan(0);
  }
  for (const pattern of c.quiet ?? []) {
    const found = hits.filter(
      (h) =>
        h.pattern === pattern &&
        h.confidence >= (c.below ?? 0.5) &&
        (c.rules ?? JOB_SHELL_EMBED_RULES).test(h.rule),
    );
    expect(found, `unexpected ${pattern} in:\n${summary}`).toEqual([]);
  }
}
