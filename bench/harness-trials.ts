// Wall time of one trial per agent harness, printed as figures (not assertions):
// `npx tsx bench/harness-trials.ts [builtin claude-code codex opencode]`.
// Each agent runs one with-skill and one no-skill trial of a small task in the real sandbox against the
// scripted fake model server (no model latency, strace on): the with-skill run loads the skill, writes one
// file and ends (3 model turns); the no-skill run answers in one turn. For each trial it prints the sandbox
// wall time the adapter reports, the time the call took end to end (sandbox setup and teardown included)
// and the model requests it made. Harnesses are installed first (a cache hit on a prepared machine).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AGENT_NAMES, type AgentName, getAgent, installAgent } from '../src/agents/index.js';
import { loadSkillFolder } from '../src/intake/index.js';
import { SKILL, WRITE_TOTAL, writeSkill } from '../test/support/fake-model/audit-script.js';
import { harnessTurns } from '../test/support/fake-model/harness-turns.js';
import { mentions, startFakeModelServer } from '../test/support/fake-model-server.js';

const agents = (process.argv.length > 2 ? process.argv.slice(2) : AGENT_NAMES) as AgentName[];
/** The provider each harness speaks (src/agents/compatibility.ts). */
const PROVIDER: Record<AgentName, { provider: 'anthropic' | 'openai'; model: string }> = {
  builtin: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  'claude-code': { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  codex: { provider: 'openai', model: 'gpt-5-codex' },
  opencode: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
};

const dir = mkdtempSync(join(tmpdir(), 'skillaudit-bench-harness-'));
const root = writeSkill(dir);
const skill = await loadSkillFolder(root, {
  source: 'folder',
  uri: root,
  ref: null,
  commit: null,
  subdir: '.',
  owner: null,
  category: null,
});
const server = await startFakeModelServer({ usage: { input: 1000, cached: 400, output: 60 } });
const ms = (n: number) => `${Math.round(n)} ms`.padStart(9);

console.log('agent        condition    sandbox wall   end to end   requests  skill loaded');
try {
  for (const agent of agents) {
    getAgent(agent);
    await installAgent(agent);
    server.setScripts([
      { name: 'with-skill', match: mentions(SKILL), turns: harnessTurns(agent, SKILL, [WRITE_TOTAL]) },
      { name: 'no-skill', turns: [{ text: 'I looked at the invoices but wrote no file.' }] },
    ]);
    for (const condition of ['with_skill', 'no_skill'] as const) {
      server.reset();
      const t0 = performance.now();
      const run = await getAgent(agent).run({
        task: {
          instruction: 'Add up the amounts in invoices.csv and write the grand total to totals.txt.',
          workspaceFiles: [{ path: 'invoices.csv', content: 'id,amount\n1,40.00\n2,2.50\n' }],
        },
        skill: condition === 'with_skill' ? skill : null,
        model: { ...PROVIDER[agent], baseUrl: server.baseUrl, apiKey: 'bench-key' },
      });
      const elapsed = performance.now() - t0;
      const requests = server.requests.filter((r) => r.protocol !== null).length;
      console.log(
        `${agent.padEnd(12)} ${condition.padEnd(11)} ${ms(run.wallMs)}    ${ms(elapsed)}   ${String(requests).padStart(8)}  ${run.skillLoaded}${run.error ? `  (error: ${run.error})` : ''}`,
      );
    }
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
