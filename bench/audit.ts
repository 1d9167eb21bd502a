// Audit overhead benchmark, printed as figures (not assertions): `npx tsx bench/audit.ts [latencyMs]`.
// The model-backed audit (built-in agent, detonation off so only the model stages run) of one small skill with
// 3 scenarios (6 paired trials), against the scripted fake model server answering every request after a fixed
// latency, at concurrency 1 and 6. For each run it prints:
// - wall: runAudit's wall time;
// - critical path: the scheme call + the longest trial + its judge call. The scheme call runs from the
//   "schemes: writing scenarios" progress event to the newest schemes/ file; a trial is result.json's run.wallMs;
//   its judge call runs from result.json's mtime to judge.json's (the judge runs right after, in the same job);
// - latency floor: the model round trips on that path (schemes + the longest trial's agent turns + its judge,
//   counted in the server log) times the fixed latency;
// - overhead ratio wall / critical path, the sum of trial times, and harness CPU per trial (process.cpuUsage
//   over the audit: this process only, so it includes the fake server but not the sandboxed commands).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveModelSettings } from '../src/model/index.js';
import { runAudit } from '../src/pipeline/audit.js';
import { LOADS_AND_WRITES, scripts, writeSkill } from '../test/support/fake-model/audit-script.js';
import { startFakeModelServer } from '../test/support/fake-model-server.js';

const LATENCY_MS = Number(process.argv[2] ?? 200);
const SCENARIOS = 3;
const NO_SKILL = [{ text: 'I looked at the invoices but wrote nothing.' }];

interface TrialTiming {
  folder: string;
  wallMs: number;
  judgeMs: number;
  /** Model requests of this trial's agent (server log, by the script that answered). */
  turns: number;
}

const mtime = (path: string) => statSync(path).mtimeMs;
const ms = (n: number) => `${Math.round(n)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-audit-'));
const server = await startFakeModelServer({
  latencyMs: LATENCY_MS,
  usage: { input: 1000, cached: 0, output: 50 },
  scripts: scripts(LOADS_AND_WRITES, NO_SKILL, SCENARIOS),
});

async function measure(concurrency: number): Promise<void> {
  server.reset();
  const skillDir = writeSkill(join(dir, `skill-c${concurrency}`));
  const settings = resolveModelSettings(
    { model: 'anthropic/claude-sonnet-4-5', baseUrl: server.url, cache: false },
    { env: { ANTHROPIC_API_KEY: 'bench-key' }, cwd: dir, home: dir },
  );
  if (!settings) throw new Error('no model settings');
  let schemesStart = 0;
  const onProgress = (message: string) => {
    if (message.startsWith('schemes: writing scenarios')) schemesStart = Date.now();
  };

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const [outcome] = await runAudit(skillDir, {
    out: join(dir, `out-c${concurrency}`),
    detonate: false,
    model: { settings, agents: ['builtin'], scenarios: SCENARIOS, concurrency, onProgress },
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!outcome?.report || !outcome.runDir) throw new Error(`audit failed: ${JSON.stringify(outcome?.error)}`);
  const runDir = outcome.runDir;

  const schemesDir = join(runDir, 'schemes');
  const schemesEnd = Math.max(...readdirSync(schemesDir).map((f) => mtime(join(schemesDir, f))));
  const schemeMs = schemesEnd - schemesStart;

  const trialsDir = join(runDir, 'trials');
  const calls = server.requests.filter((r) => r.path === '/v1/messages');
  const count = (script: string) => calls.filter((r) => r.script === script).length;
  const folders = readdirSync(trialsDir);
  const trials: TrialTiming[] = folders.map((folder) => {
    const result = join(trialsDir, folder, 'result.json');
    const run = JSON.parse(readFileSync(result, 'utf8')).run as { wallMs: number };
    // Every trial of a condition plays the same script: its turns are the condition's share of the log.
    const condition = folder.includes('__with_skill__') ? 'with_skill' : 'no_skill';
    const peers = folders.filter((f) => f.includes(`__${condition}__`)).length;
    return {
      folder,
      wallMs: run.wallMs,
      judgeMs: mtime(join(trialsDir, folder, 'judge.json')) - mtime(result),
      turns: count(condition === 'with_skill' ? 'with-skill' : 'no-skill') / peers,
    };
  });

  const longest = trials.reduce((a, b) => (b.wallMs + b.judgeMs > a.wallMs + a.judgeMs ? b : a));
  const criticalMs = schemeMs + longest.wallMs + longest.judgeMs;
  const floorMs = (count('schemes') + longest.turns + 1) * LATENCY_MS;
  const sumTrialsMs = trials.reduce((s, t) => s + t.wallMs, 0);
  const sumJudgeMs = trials.reduce((s, t) => s + t.judgeMs, 0);
  const cpuMs = (cpu.user + cpu.system) / 1000;

  console.log(`\nconcurrency ${concurrency}: ${trials.length} trials, ${calls.length} model requests`);
  console.log(
    `  requests by script: ${['schemes', 'with-skill', 'no-skill', 'judge-pass', 'judge-fail'].map((s) => `${s} ${count(s)}`).join(', ')}`,
  );
  console.log(`  audit wall time:        ${ms(wallMs)}`);
  console.log(
    `  critical path:          ${ms(criticalMs)} (scheme call ${ms(schemeMs)} + longest trial ${ms(longest.wallMs)} + its judge ${ms(longest.judgeMs)}; ${longest.folder})`,
  );
  console.log(
    `  latency floor:          ${ms(floorMs)} (${count('schemes') + longest.turns + 1} round trips on that path x ${LATENCY_MS} ms)`,
  );
  console.log(`  overhead ratio:         ${(wallMs / criticalMs).toFixed(2)} (wall / critical path)`);
  console.log(`  sum of trial times:     ${ms(sumTrialsMs)} (+ ${ms(sumJudgeMs)} of judge calls)`);
  console.log(
    `  trial times:            ${trials.map((t) => `${t.folder.split('__')[0]?.replace(/^.*-/, '')}/${t.folder.includes('with_skill') ? 'with' : 'no'} ${t.wallMs}+${Math.round(t.judgeMs)}`).join(', ')} ms`,
  );
  console.log(
    `  harness CPU:            ${ms(cpuMs)} total (user ${ms(cpu.user / 1000)}, system ${ms(cpu.system / 1000)}), ${ms(cpuMs / trials.length)} per trial`,
  );
}

try {
  console.log(
    `audit benchmark: builtin agent, ${SCENARIOS} scenarios, detonate off, fake model latency ${LATENCY_MS} ms`,
  );
  await measure(1);
  await measure(6);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
