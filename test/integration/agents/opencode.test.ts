import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXPECTED,
  ensureInstalled,
  mentioningSkill,
  REAL_KEY,
  runPaired,
  SKILL_NAME,
  WRITE_TOTAL,
} from './paired-scenario.js';

describe('opencode adapter (real OpenCode in the sandbox, fake model over HTTP)', () => {
  beforeAll(() => ensureInstalled('opencode'), 600_000);

  it('loads the skill and writes the output only when the skill is installed', async () => {
    const { withSkill, noSkill, withRequests, noRequests } = await runPaired('opencode', 'anthropic', [
      { toolCalls: [{ name: 'skill', input: { name: SKILL_NAME } }] },
      { toolCalls: [{ name: 'bash', input: { command: WRITE_TOTAL, description: 'write the total' } }] },
      { text: 'Wrote totals.txt.' },
    ]);
    expect(withSkill.error).toBeUndefined();
    expect(withSkill.skillLoaded).toBe(true);
    const load = withSkill.steps.findIndex((s) => s.kind === 'tool_call' && s.tool === 'skill');
    // OpenCode's skill tool (needs ripgrep) returned the skill's body.
    expect(withSkill.steps[load + 1]?.output).toContain('# Ledger totals');
    expect(withSkill.outputFiles).toContainEqual({ path: 'totals.txt', content: EXPECTED });
    expect(withSkill.finalMessage).toBe('Wrote totals.txt.');
    expect(withSkill.tokens).toEqual({ input: 3000, cached: 1200, output: 180 });
    expect(mentioningSkill(withRequests).length).toBeGreaterThan(0);

    expect(noSkill.error).toBeUndefined();
    expect(noSkill.skillLoaded).toBe(false);
    expect(noSkill.outputFiles.find((f) => f.path === 'totals.txt')).toBeUndefined();
    expect(noRequests.length).toBeGreaterThan(0);
    expect(mentioningSkill(noRequests)).toEqual([]);
    for (const run of [withSkill, noSkill]) expect(JSON.stringify(run.evidence)).not.toContain(REAL_KEY);
  }, 400_000);
});
