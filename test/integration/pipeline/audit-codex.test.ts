// `audit --model openai/… --agent codex` end to end: schemes and the judge over the ai SDK, the paired trials
// through the real Codex CLI in the sandbox (OpenAI Responses over the model bridge), all against the fake server.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKILL, WRITE_TOTAL } from '../../support/fake-model/audit-script.js';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import { auditOnce, expectSkillMeasured, harnessScripts, useHarnessAudit } from './harness-audit.js';

const h = useHarnessAudit('codex', 'openai/gpt-5-codex', { OPENAI_API_KEY: 'test-key' });

describe('audit --agent codex (real Codex CLI, fake model over HTTP)', () => {
  it('PRG 1: the with-skill run read SKILL.md and wrote the total, the no-skill run never saw the skill', async () => {
    h.server.setScripts(harnessScripts(harnessTurns('codex', SKILL, [WRITE_TOTAL])));
    const { report, runDir } = await auditOnce(h, join(h.dir, 'runs'));
    expectSkillMeasured(
      'codex',
      '@openai/codex@0.171.0',
      report,
      runDir,
      h.server.requests,
      (s) => s.kind === 'tool_call' && JSON.stringify(s.input).includes(`${SKILL}/SKILL.md`),
    );
    // Codex speaks Responses only: every agent request went to /v1/responses.
    const agentPaths = h.server.requests
      .filter((r) => r.script === 'with-skill' || r.script === 'no-skill')
      .map((r) => r.path);
    expect(new Set(agentPaths)).toEqual(new Set(['/v1/responses']));
  }, 300_000);
});
