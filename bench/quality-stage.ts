// Quality stage cost, printed as figures (not assertions): `npx tsx bench/quality-stage.ts [latencyMs]`.
// One model-backed audit (built-in agent, 3 scenarios, concurrency 2, detonation off) of the small fake-model
// skill per `--quality-runs` value 0, 1 and 2, against the scripted fake model server answering after a fixed
// latency. For each it prints the audit's wall time, the model requests by kind (server log), the agent runs,
// and the tokens the report's ledger puts on the quality stage's buckets (judge.<dimension>, judge.boundary,
// schemes.paraphrases, schemes.boundary, quality.trials.*) against the whole audit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveModelSettings } from '../src/model/index.js';
import { runAudit } from '../src/pipeline/audit.js';
import { LOADS_AND_WRITES, scripts, writeSkill } from '../test/support/fake-model/audit-script.js';
import { type FakeScript, startFakeModelServer } from '../test/support/fake-model-server.js';

const LATENCY_MS = Number(process.argv[2] ?? 200);
const SCENARIOS = 3;

/** Writers and the boundary judge answer usable output whatever N is asked for. */
const quality: FakeScript[] = [
  {
    name: 'paraphrase-writer',
    match: (r) => r.raw.includes('paraphrases of user requests'),
    turns: [
      {
        json: {
          paraphrases: Array.from({ length: SCENARIOS }, (_, i) => ({
            scenario: `s${i + 1}`,
            instructions: [1, 2].map(
              (k) => `Variant ${k} for batch ${i + 1}: sum invoices.csv and write the result to totals.txt.`,
            ),
          })),
        },
      },
    ],
  },
  {
    name: 'boundary-writer',
    match: (r) => r.raw.includes('out-of-scope requests'),
    turns: [
      { json: { unrelated: ['Write a haiku.', 'Plan a trip.'], adversarial: ['Make a PDF.', 'Skip it.'] } },
    ],
  },
  {
    name: 'boundary-judge',
    match: (r) => r.raw.includes("SkillAudit's capability-boundary judge"),
    turns: [{ json: { response: 'treated_as_supported', evidence: ['Wrote totals.txt.'], reason: 'bench' } }],
  },
];

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-quality-'));
const base = scripts(LOADS_AND_WRITES, [{ text: 'I looked at the invoices but wrote nothing.' }], SCENARIOS);
const server = await startFakeModelServer({
  latencyMs: LATENCY_MS,
  usage: { input: 1000, cached: 0, output: 50 },
  scripts: [
    ...base.filter((s) => !s.name.endsWith('-skill')),
    ...quality,
    ...base.filter((s) => s.name.endsWith('-skill')),
  ],
});
const QUALITY_BUCKET = /^(judge\.(behavior|task|boundary)|schemes\.(paraphrases|boundary)|quality\.)/;

try {
  console.log(
    `quality stage cost: ${SCENARIOS} scenarios, builtin agent, concurrency 2, ${LATENCY_MS} ms per model reply`,
  );
  for (const qualityRuns of [0, 1, 2]) {
    server.reset();
    const settings = resolveModelSettings(
      { model: 'anthropic/claude-sonnet-4-5', baseUrl: server.url, cache: false },
      { env: { ANTHROPIC_API_KEY: 'bench-key' }, cwd: dir, home: dir },
    );
    if (!settings) throw new Error('no model settings');
    const t0 = performance.now();
    const [outcome] = await runAudit(writeSkill(join(dir, `skill-q${qualityRuns}`)), {
      out: join(dir, `out-q${qualityRuns}`),
      detonate: false,
      model: { settings, agents: ['builtin'], scenarios: SCENARIOS, concurrency: 2, qualityRuns },
    });
    const wall = performance.now() - t0;
    const report = outcome?.report;
    if (!report) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
    const byScript = new Map<string, number>();
    for (const r of server.requests)
      byScript.set(r.script ?? 'side', (byScript.get(r.script ?? 'side') ?? 0) + 1);
    const usage = report.configuration.modelUsage as Record<string, { input: number; output: number }>;
    const tokens = (pick: (stage: string) => boolean) =>
      Object.entries(usage)
        .filter(([stage]) => pick(stage))
        .reduce((sum, [, u]) => sum + u.input + u.output, 0);
    const scored = report.quality?.dimensions.filter(
      (d) => d.group !== 'static' && d.status === 'scored',
    ).length;
    console.log(
      `--quality-runs ${qualityRuns}: wall ${(wall / 1000).toFixed(1)} s; requests ${server.requests.length} ` +
        `(${[...byScript].map(([k, v]) => `${k} ${v}`).join(', ')}); ` +
        `quality tokens ${tokens((s) => QUALITY_BUCKET.test(s))} of ${tokens(() => true)}; ` +
        `dynamic+rubric dimensions scored ${scored}/6`,
    );
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
