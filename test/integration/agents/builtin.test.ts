import { describe, expect, it } from 'vitest';
import {
  EXPECTED,
  mentioningSkill,
  REAL_KEY,
  runPaired,
  SKILL_NAME,
  WRITE_TOTAL,
} from './paired-scenario.js';

describe('builtin agent (ai SDK tool loop, commands in the sandbox, fake model over HTTP)', () => {
  it.each(['anthropic', 'openai'] as const)(
    'loads the skill and writes the output only with the skill (%s)',
    async (provider) => {
      const { withSkill, noSkill, withRequests, noRequests } = await runPaired('builtin', provider, [
        { toolCalls: [{ name: 'skill', input: { name: SKILL_NAME } }] },
        { toolCalls: [{ name: 'shell', input: { command: WRITE_TOTAL } }] },
        { toolCalls: [{ name: 'read_file', input: { path: 'totals.txt' } }] },
        { text: 'Wrote totals.txt.' },
      ]);
      expect(withSkill.error).toBeUndefined();
      expect(withSkill.skillLoaded).toBe(true);
      const load = withSkill.steps.findIndex((s) => s.kind === 'tool_call' && s.tool === 'skill');
      expect(withSkill.steps[load + 1]?.output).toContain('# Ledger totals');
      expect(
        withSkill.steps.filter((s) => s.kind === 'tool_result' && s.tool === 'read_file').at(-1)?.output,
      ).toBe(EXPECTED);
      expect(withSkill.outputFiles).toEqual([{ path: 'totals.txt', content: EXPECTED }]);
      expect(withSkill.finalMessage).toBe('Wrote totals.txt.');
      expect(withSkill.tokens).toEqual({ input: 4000, cached: 1600, output: 240 });
      // The shell ran in the sandbox: its process and the file it wrote are in the evidence.
      expect(withSkill.evidence.fsChanges).toContainEqual(
        expect.objectContaining({ root: 'workspace', path: 'totals.txt', change: 'created' }),
      );
      expect(mentioningSkill(withRequests).length).toBe(withRequests.length);

      expect(noSkill.skillLoaded).toBe(false);
      expect(noSkill.outputFiles).toEqual([]);
      expect(noRequests.length).toBe(1);
      expect(mentioningSkill(noRequests)).toEqual([]);
      expect(JSON.stringify(noRequests[0]?.body.tools ?? [])).not.toContain('"skill"');
      for (const run of [withSkill, noSkill]) expect(JSON.stringify(run.evidence)).not.toContain(REAL_KEY);
    },
    120_000,
  );

  it('refuses paths outside the workspace without running anything', async () => {
    const { withSkill } = await runPaired('builtin', 'anthropic', [
      { toolCalls: [{ name: 'write_file', input: { path: '../outside.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'read_file', input: { path: '/etc/passwd' } }] },
      { text: 'done' },
    ]);
    const results = withSkill.steps.filter((s) => s.kind === 'tool_result').map((s) => s.output);
    expect(results).toEqual([
      'refused: ../outside.txt is outside the workspace',
      'refused: /etc/passwd is outside the workspace',
    ]);
    expect(withSkill.evidence.fsChanges).toEqual([]);
  }, 120_000);
});
