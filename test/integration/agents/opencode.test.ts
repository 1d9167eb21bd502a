import { expect } from 'vitest';
import { describeHarness } from './paired-scenario.js';

describeHarness('opencode adapter (real OpenCode in the sandbox, fake model over HTTP)', {
  agent: 'opencode',
  provider: 'anthropic',
  timeoutMs: 400_000,
  check: ({ withSkill }) => {
    const load = withSkill.steps.findIndex((s) => s.kind === 'tool_call' && s.tool === 'skill');
    // OpenCode's skill tool (needs ripgrep) returned the skill's body.
    expect(withSkill.steps[load + 1]?.output).toContain('# Ledger totals');
  },
});
