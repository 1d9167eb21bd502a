import { expect } from 'vitest';
import { describeHarness } from './paired-scenario.js';

describeHarness('codex adapter (real Codex CLI in the sandbox, fake model over HTTP)', {
  agent: 'codex',
  provider: 'openai',
  timeoutMs: 300_000,
  // Responses usage counts cached tokens inside input: the shared token check shows they are not added twice.
  check: ({ withSkill }) => {
    // Codex has no skill tool: the model reads SKILL.md through the shell, where the harness installed it.
    const read = withSkill.steps.findIndex(
      (s) => s.kind === 'tool_call' && JSON.stringify(s.input).includes('SKILL.md'),
    );
    expect(read).toBeGreaterThanOrEqual(0);
    expect(withSkill.steps[read + 1]).toMatchObject({ kind: 'tool_result', tool: 'exec_command' });
    expect(withSkill.steps[read + 1]?.output).toContain('# Ledger totals');
  },
});
