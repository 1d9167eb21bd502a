import { expect } from 'vitest';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import { describeHarness, SKILL_NAME, WRITE_TOTAL } from './paired-scenario.js';

const [load, ...rest] = harnessTurns('claude-code', SKILL_NAME, [WRITE_TOTAL]);

describeHarness('claude-code adapter (real Claude Code in the sandbox, fake model over HTTP)', {
  agent: 'claude-code',
  provider: 'anthropic',
  // The load turn carries text beside its tool call, as Claude's models often answer.
  turns: [{ ...load, text: 'Loading the skill.' }, ...rest],
  timeoutMs: 300_000,
  check: ({ withSkill, noSkill }) => {
    expect(withSkill.steps).toContainEqual({
      kind: 'tool_call',
      tool: 'Skill',
      input: { skill: SKILL_NAME },
    });
    expect(withSkill.steps.find((s) => s.kind === 'tool_result' && s.tool === 'Bash')).toBeDefined();
    expect(withSkill.wallMs).toBeGreaterThan(0);
    expect(noSkill.finalMessage).toContain('did not write');
    expect(withSkill.evidence.network.mode).toBe('loopback-only');
  },
});
