// `audit --model anthropic/… --agent opencode` end to end: the paired trials through the real OpenCode CLI in
// the sandbox (Anthropic Messages over the model bridge, skill loaded with its `skill` tool), fake server.
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { SKILL, WRITE_TOTAL } from '../../support/fake-model/audit-script.js';
import { harnessTurns } from '../../support/fake-model/harness-turns.js';
import { auditOnce, expectSkillMeasured, harnessScripts, useHarnessAudit } from './harness-audit.js';

const h = useHarnessAudit('opencode', 'anthropic/claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'test-key' });

describe('audit --agent opencode (real OpenCode, fake model over HTTP)', () => {
  it('PRG 1: the with-skill run loaded the skill with its tool, the no-skill run never saw the skill', async () => {
    h.server.setScripts(harnessScripts(harnessTurns('opencode', SKILL, [WRITE_TOTAL])));
    const { report, runDir } = await auditOnce(h, join(h.dir, 'runs'));
    expectSkillMeasured(
      'opencode',
      'opencode-ai@1.18.33',
      report,
      runDir,
      h.server.requests,
      (s) => s.kind === 'tool_call' && s.tool === 'skill',
    );
  }, 600_000);
});
