// One scenario for every agent: a skill whose task the scripted model completes only when the skill is
// listed in the request. The no-skill run gets a plain answer and writes nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AgentName, type AgentRunResult, getAgent, installAgent } from '../../../src/agents/index.js';
import type { Skill } from '../../../src/core/types.js';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import {
  type FakeModelServer,
  type FakeTurn,
  type LoggedRequest,
  mentions,
  startFakeModelServer,
} from '../../support/fake-model-server.js';
import { loadLocalSkill } from '../../support/load-folder.js';

export const SKILL_NAME = 'ledger-totals-xq';
/** Never sent to the sandbox: the bridge swaps the sandbox's placeholder for it on the host. */
export const REAL_KEY = 'sk-real-key-that-must-stay-outside-the-sandbox';
export const INSTRUCTION = 'Add up the amounts in invoices.csv and write the grand total to totals.txt.';
export const EXPECTED = 'grand total: 42.50\n';
export const WRITE_TOTAL = `printf 'grand total: 42.50\\n' > totals.txt`;

export interface PairedOutcome {
  withSkill: AgentRunResult;
  noSkill: AgentRunResult;
  withRequests: LoggedRequest[];
  noRequests: LoggedRequest[];
}

/** Installs the harness (first use downloads it from the npm registry), failing with the installer's message. */
async function ensureInstalled(agent: AgentName): Promise<void> {
  try {
    await installAgent(agent);
  } catch (error) {
    throw new Error(`cannot install the ${agent} harness for this test: ${(error as Error).message}`);
  }
}

async function makeSkill(dir: string): Promise<Skill> {
  const root = join(dir, SKILL_NAME);
  mkdirSync(root, { recursive: true });
  writeFileSync(
    join(root, 'SKILL.md'),
    `---\nname: ${SKILL_NAME}\ndescription: Totals invoice CSV files into a one-line summary file.\n---\n# Ledger totals\n\nSum the amount column and write "grand total: <sum>" to totals.txt.\n`,
  );
  return loadLocalSkill(root);
}

export async function runPaired(
  agent: AgentName,
  provider: 'anthropic' | 'openai',
  withSkillTurns: FakeTurn[],
): Promise<PairedOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-test-'));
  let server: FakeModelServer | null = null;
  try {
    const skill = await makeSkill(dir);
    server = await startFakeModelServer({
      usage: { input: 1000, cached: 400, output: 60 },
      scripts: [
        { name: 'with-skill', match: mentions(SKILL_NAME), turns: withSkillTurns },
        { name: 'no-skill', turns: [{ text: 'I summed what I could but did not write any file.' }] },
      ],
    });
    const request = {
      task: {
        instruction: INSTRUCTION,
        workspaceFiles: [{ path: 'invoices.csv', content: 'id,amount\n1,40.00\n2,2.50\n' }],
      },
      model: {
        baseUrl: server.baseUrl,
        apiKey: REAL_KEY,
        model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-5-codex',
        provider,
      },
    };
    const withSkill = await getAgent(agent).run({ ...request, skill });
    const withRequests = [...server.requests];
    server.reset();
    const noSkill = await getAgent(agent).run({ ...request, skill: null });
    const noRequests = [...server.requests];
    return { withSkill, noSkill, withRequests, noRequests };
  } finally {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Requests whose body mentions the skill's name anywhere. */
export function mentioningSkill(requests: LoggedRequest[]): LoggedRequest[] {
  return requests.filter((r) => JSON.stringify(r.body ?? '').includes(SKILL_NAME));
}

export interface HarnessCase {
  agent: Exclude<AgentName, 'builtin'>;
  /** The API the harness speaks to the fake server. */
  provider: 'anthropic' | 'openai';
  /** The with-skill turns (default: the harness's own, test/support/fake-model/harness-turns.ts). */
  turns?: FakeTurn[];
  timeoutMs: number;
  /** What this adapter shows on top of what every harness must. */
  check: (outcome: PairedOutcome) => void;
}

/**
 * The paired test of a harness CLI adapter: installs the harness, runs the pair, and checks what every harness
 * must do: the skill is loaded and the file written only with the skill installed, the three scripted turns'
 * tokens (1000 prompt, 400 cached, 60 output each) are summed, and the real key never reaches the evidence.
 */
export function describeHarness(title: string, c: HarnessCase): void {
  describe(title, () => {
    beforeAll(() => ensureInstalled(c.agent), 600_000);

    it(
      'loads the skill and writes the output only when the skill is installed',
      async () => {
        const outcome = await runPaired(
          c.agent,
          c.provider,
          c.turns ?? harnessTurns(c.agent, SKILL_NAME, [WRITE_TOTAL]),
        );
        const { withSkill, noSkill, withRequests, noRequests } = outcome;
        expect(withSkill.error).toBeUndefined();
        expect(withSkill.skillLoaded).toBe(true);
        expect(withSkill.outputFiles).toContainEqual({ path: 'totals.txt', content: EXPECTED });
        expect(withSkill.finalMessage).toBe('Wrote totals.txt.');
        expect(withSkill.tokens).toEqual({ input: 3000, cached: 1200, output: 180 });
        expect(mentioningSkill(withRequests).length).toBeGreaterThan(0);

        expect(noSkill.error).toBeUndefined();
        expect(noSkill.skillLoaded).toBe(false);
        expect(noSkill.outputFiles.find((f) => f.path === 'totals.txt')).toBeUndefined();
        expect(noRequests.length).toBeGreaterThan(0);
        expect(mentioningSkill(noRequests)).toEqual([]);
        // The real key stays on the host: the sandboxed harness only ever held a placeholder.
        for (const run of [withSkill, noSkill]) expect(JSON.stringify(run.evidence)).not.toContain(REAL_KEY);
        c.check(outcome);
      },
      c.timeoutMs,
    );
  });
}
