// Table-driven detector tests: each case is a file and the patterns the code detectors must (not) report.
import { expect } from 'vitest';
import { codeDetectors } from '../../../../src/scan/detectors/code-index.js';
import { type ContextOptions, runAll } from './make-context.js';

export interface Case {
  name: string;
  path: string;
  text: string;
  /** Patterns that must be reported, optionally on a given line. */
  expect?: (string | [string, number])[];
  /** Patterns that must not be reported. */
  absent?: string[];
  options?: ContextOptions;
}

export async function check(c: Case): Promise<void> {
  const hits = await runAll(codeDetectors, c.path, c.text, c.options);
  const summary = hits
    .map((h) => `${h.pattern}@${h.line} ${h.rule} (${h.confidence}) ${h.rationale}`)
    .join('\n');
  for (const e of c.expect ?? []) {
    const [pattern, line] = Array.isArray(e) ? e : [e, undefined];
    const found = hits.filter(
      (h) => h.pattern === pattern && (line === undefined || (h.line <= line && line <= h.endLine)),
    );
    expect(
      found.length,
      `expected ${pattern}${line ? ` at line ${line}` : ''} in:\n${summary}`,
    ).toBeGreaterThan(0);
    for (const h of found) {
      expect(h.confidence).toBeGreaterThan(0);
      expect(h.confidence).toBeLessThanOrEqual(1);
      expect(h.evidence.length).toBeGreaterThan(0);
    }
  }
  for (const pattern of c.absent ?? []) {
    const found = hits.filter((h) => h.pattern === pattern);
    expect(found, `unexpected ${pattern} in:\n${summary}`).toEqual([]);
  }
}
