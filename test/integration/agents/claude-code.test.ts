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

describe('claude-code adapter (real Claude Code in the sandbox, fake model over HTTP)', () => {
  beforeAll(() => ensureInstalled('claude-code'), 600_000);

  it('loads the skill and writes the output only when the skill is installed', async () => {
    const { withSkill, noSkill, withRequests, noRequests } = await runPaired('claude-code', 'anthropic', [
      { text: 'Loading the skill.', toolCalls: [{ name: 'Skill', input: { skill: SKILL_NAME } }] },
      { toolCalls: [{ name: 'Bash', input: { command: WRITE_TOTAL, description: 'write the total' } }] },
      { text: 'Wrote totals.txt.' },
    ]);
    expect(withSkill.error).toBeUndefined();
    expect(withSkill.skillLoaded).toBe(true);
    expect(withSkill.steps).toContainEqual({
      kind: 'tool_call',
      tool: 'Skill',
      input: { skill: SKILL_NAME },
    });
    expect(withSkill.steps.find((s) => s.kind === 'tool_result' && s.tool === 'Bash')).toBeDefined();
    expect(withSkill.outputFiles).toContainEqual({ path: 'totals.txt', content: EXPECTED });
    expect(withSkill.finalMessage).toBe('Wrote totals.txt.');
    // Three scripted turns of 1000 prompt tokens (400 cached) and 60 output tokens.
    expect(withSkill.tokens).toEqual({ input: 3000, cached: 1200, output: 180 });
    expect(withSkill.wallMs).toBeGreaterThan(0);
    expect(mentioningSkill(withRequests).length).toBeGreaterThan(0);

    expect(noSkill.skillLoaded).toBe(false);
    expect(noSkill.outputFiles.find((f) => f.path === 'totals.txt')).toBeUndefined();
    expect(noSkill.finalMessage).toContain('did not write');
    expect(noRequests.length).toBeGreaterThan(0);
    expect(mentioningSkill(noRequests)).toEqual([]);

    // The real key stays on the host: the sandboxed harness only ever held a placeholder.
    for (const run of [withSkill, noSkill]) expect(JSON.stringify(run.evidence)).not.toContain(REAL_KEY);
    expect(withSkill.evidence.network.mode).toBe('loopback-only');
  }, 300_000);
});
