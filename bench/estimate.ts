// Execution-free estimate benchmark: a synthetic reference set of 5,000 skills (200 topics with their own
// vocabularies, 14 categories) built through intake into SQLite, then loaded and queried the way `estimate`
// does. Prints build time (intake, profiles, write), load-and-index time, and per-query latency for both
// retrieval methods. Run: npx tsx bench/estimate.ts [count]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSource } from '../src/intake/index.js';
import {
  buildReferenceSet,
  Estimator,
  RETRIEVAL_METHODS,
  referenceSkill,
} from '../src/quality/estimate/index.js';
import { readReferenceDb, writeReferenceDb } from '../src/store/reference.js';
import {
  generatedTopics,
  seeded,
  syntheticText,
  writeSyntheticCorpus,
} from '../test/support/synthetic-reference.js';

const count = Number(process.argv[2] ?? 5000);
const QUERIES = 200;
const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-estimate-'));

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

try {
  const topics = generatedTopics(200);
  writeSyntheticCorpus(join(dir, 'corpus'), topics, count);
  const db = join(dir, 'ref.db');

  let t = performance.now();
  const handle = await openSource(join(dir, 'corpus'));
  const intakeMs = performance.now() - t;
  const skills = handle.skills.flatMap((r) => (r.ok ? [r.skill] : []));
  const [built, profileMs] = timed(() => buildReferenceSet(skills));
  const [, writeMs] = timed(() =>
    writeReferenceDb(
      db,
      { toolVersion: 'bench', createdAt: new Date().toISOString(), source: 'bench' },
      built.records,
    ),
  );
  await handle.dispose();
  console.log(`reference set: ${built.records.length} skills, ${(statSync(db).size / 1e6).toFixed(1)} MB`);
  console.log(
    `build: intake ${(intakeMs / 1000).toFixed(2)} s, profiles ${(profileMs / 1000).toFixed(2)} s, write ${(writeMs / 1000).toFixed(2)} s, total ${((intakeMs + profileMs + writeMs) / 1000).toFixed(2)} s`,
  );

  for (const method of Object.values(RETRIEVAL_METHODS)) {
    t = performance.now();
    const { records } = readReferenceDb(db);
    const readMs = performance.now() - t;
    const [estimator, indexMs] = timed(() => new Estimator(records.map(referenceSkill), method));
    const rand = seeded(123);
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const topic = topics[Math.floor(rand() * topics.length)]!;
      const text = syntheticText(topic, count + i, rand);
      const [, ms] = timed(() => estimator.estimate(text, topic.category));
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${method.name}: read ${readMs.toFixed(0)} ms, index ${indexMs.toFixed(0)} ms; query p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms (${QUERIES} queries)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
