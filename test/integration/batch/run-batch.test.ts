// The one-machine batch on real audits: run folders exactly as `audit` writes them, a marker per finished
// skill, batch.jsonl, and a rerun that skips finished skills, reports earlier failures unless asked to retry,
// and audits again under another configuration.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchConfig } from '../../../src/batch/config.js';
import { type BatchLine, readMarker } from '../../../src/batch/records.js';
import { runBatch } from '../../../src/batch/run-batch.js';
import { writeCorpus } from '../../support/batch/corpus.js';

const SCAN_ONLY: BatchConfig = { stages: ['scan', 'quality'], limits: {} };

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function lines(dir: string): BatchLine[] {
  return readFileSync(join(dir, 'batch.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BatchLine);
}

describe('runBatch', () => {
  it('audits a folder and a list file, records failures, and resumes without redoing finished skills', async () => {
    const corpus = join(work, 'corpus');
    const skills = writeCorpus(corpus, 6);
    // A list file: one more skill (relative to the list), a comment, and a source that does not exist yet.
    mkdirSync(join(work, 'more', 'listed'), { recursive: true });
    writeFileSync(
      join(work, 'more', 'listed', 'SKILL.md'),
      '---\nname: listed\ndescription: Named in a list file rather than found in a folder.\n---\n\nSort the rows.\n',
    );
    const list = join(work, 'sources.txt');
    writeFileSync(list, `# more skills\nmore/listed\n\n${join(work, 'late')}\n`);
    const out = join(work, 'out');
    const first = await runBatch({ corpus: [corpus, list], out, config: SCAN_ONLY, concurrency: 3 });
    expect(first).toMatchObject({ sources: 8, done: 7, reused: 0, failed: 1, running: 0 });
    const runs = readdirSync(join(out, 'runs'));
    expect(runs).toHaveLength(7);
    for (const run of runs) {
      expect(existsSync(join(out, 'runs', run, 'report.html'))).toBe(true);
      expect(readMarker(join(out, 'runs', run))?.configKey).toMatch(/^[0-9a-f]{16}$/);
    }
    // The frontmatter category is recorded; a skill without one has none.
    const marker = readMarker(join(out, 'runs', runs.find((r) => r.startsWith('batch-skill-001'))!));
    expect(marker?.category).toBe('computer-mathematical');
    expect(marker?.source).toBe(skills[1]!.dir);
    expect(marker?.timings.stages.scan).toBeGreaterThanOrEqual(0);
    const failed = lines(out).filter((l) => l.status === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({
        source: join(work, 'late'),
        error: expect.objectContaining({ code: 'NOT_FOUND' }),
      }),
    ]);
    expect(readdirSync(join(out, 'failures'))).toHaveLength(1);

    // The same command again: nothing is audited; the failure is reported again, not retried.
    const second = await runBatch({ corpus: [corpus, list], out, config: SCAN_ONLY, concurrency: 3 });
    expect(second).toMatchObject({ done: 0, reused: 7, failed: 1 });
    expect(lines(out).at(-1)).toBeDefined();

    // The missing source appears; --retry-failed audits it, and its failure record goes.
    mkdirSync(join(work, 'late'));
    writeFileSync(
      join(work, 'late', 'SKILL.md'),
      '---\nname: late\ndescription: Arrives after the first batch.\n---\n\nSummarise a table.\n',
    );
    const third = await runBatch({
      corpus: [corpus, list],
      out,
      config: SCAN_ONLY,
      concurrency: 3,
      retryFailed: true,
    });
    expect(third).toMatchObject({ done: 1, reused: 7, failed: 0 });
    expect(existsSync(join(out, 'failures')) ? readdirSync(join(out, 'failures')) : []).toHaveLength(0);

    // A run folder without its marker (a stop mid-audit) is audited again; nothing else is.
    rmSync(join(out, 'runs', runs[0]!, 'batch.json'));
    const fourth = await runBatch({ corpus: [corpus, list], out, config: SCAN_ONLY, concurrency: 3 });
    expect(fourth).toMatchObject({ done: 1, reused: 7, failed: 0 });
  }, 120_000);

  it('audits a skill copied into several places of the corpus once', async () => {
    const corpus = join(work, 'corpus');
    writeCorpus(join(corpus, 'a'), 2);
    writeCorpus(join(corpus, 'b'), 2);
    const out = join(work, 'out');
    const counts = await runBatch({ corpus: [corpus], out, config: SCAN_ONLY, concurrency: 4 });
    expect(counts).toMatchObject({ sources: 4, done: 2, reused: 2, failed: 0 });
    expect(readdirSync(join(out, 'runs'))).toHaveLength(2);
    const reused = lines(out).filter((l) => l.status === 'reused');
    // Each copy is reported at its own place, with the verdict of the one audit.
    expect(
      reused
        .map((l) => l.source)
        .every((s) => s.includes(join(corpus, 'a')) || s.includes(join(corpus, 'b'))),
    ).toBe(true);
    expect(reused.every((l) => l.verdict !== null && l.runDir !== null)).toBe(true);
  }, 120_000);

  it('audits again under another configuration, and a category mapping overrides the frontmatter', async () => {
    const corpus = join(work, 'corpus');
    writeCorpus(corpus, 3);
    const out = join(work, 'out');
    await runBatch({ corpus: [corpus], out, config: SCAN_ONLY, concurrency: 2 });
    const other: BatchConfig = { ...SCAN_ONLY, limits: { maxFiles: 100 } };
    const again = await runBatch({
      corpus: [corpus],
      out,
      config: other,
      concurrency: 2,
      categories: new Map([['batch-skill-000', 'management']]),
    });
    expect(again).toMatchObject({ done: 3, reused: 0 });
    const run = readdirSync(join(out, 'runs')).find((r) => r.startsWith('batch-skill-000'))!;
    expect(readMarker(join(out, 'runs', run))?.category).toBe('management');
  }, 120_000);
});
