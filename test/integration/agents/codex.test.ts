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

describe('codex adapter (real Codex CLI in the sandbox, fake model over HTTP)', () => {
  beforeAll(() => ensureInstalled('codex'), 600_000);

  it('reads the skill and writes the output only when the skill is installed', async () => {
    const { withSkill, noSkill, withRequests, noRequests } = await runPaired('codex', 'openai', [
      { toolCalls: [{ name: 'exec_command', input: { cmd: `cat .agents/skills/${SKILL_NAME}/SKILL.md` } }] },
      { toolCalls: [{ name: 'exec_command', input: { cmd: WRITE_TOTAL } }] },
      { text: 'Wrote totals.txt.' },
    ]);
    expect(withSkill.error).toBeUndefined();
    expect(withSkill.skillLoaded).toBe(true);
    const read = withSkill.steps.findIndex(
      (s) => s.kind === 'tool_call' && JSON.stringify(s.input).includes('SKILL.md'),
    );
    expect(read).toBeGreaterThanOrEqual(0);
    // The tool result is the SKILL.md the harness found where Codex looks for skills.
    expect(withSkill.steps[read + 1]).toMatchObject({ kind: 'tool_result', tool: 'exec_command' });
    expect(withSkill.steps[read + 1]?.output).toContain('# Ledger totals');
    expect(withSkill.outputFiles).toContainEqual({ path: 'totals.txt', content: EXPECTED });
    expect(withSkill.finalMessage).toBe('Wrote totals.txt.');
    // Responses usage counts cached tokens inside input: three turns of 1000 (400 cached) and 60 out.
    expect(withSkill.tokens).toEqual({ input: 3000, cached: 1200, output: 180 });
    expect(mentioningSkill(withRequests).length).toBeGreaterThan(0);

    expect(noSkill.error).toBeUndefined();
    expect(noSkill.skillLoaded).toBe(false);
    expect(noSkill.outputFiles.find((f) => f.path === 'totals.txt')).toBeUndefined();
    expect(noRequests.length).toBeGreaterThan(0);
    expect(mentioningSkill(noRequests)).toEqual([]);
    for (const run of [withSkill, noSkill]) expect(JSON.stringify(run.evidence)).not.toContain(REAL_KEY);
  }, 300_000);
});
