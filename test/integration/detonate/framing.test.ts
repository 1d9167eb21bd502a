import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

// Real bubblewrap + strace + sink. A command the skill quotes only to forbid it is never run, so it can never
// confirm a risk the skill warns against; what the skill does tell the agent to run still runs.

vi.setConfig({ testTimeout: 180_000 });

describe('detonation respects framing', () => {
  it('a clean skill that forbids `curl … | sh` is not confirmed for it', async () => {
    const d = await detonateFixture('forbidden-curl');
    const commands = d.runs.map((r) => r.entry.argv.join(' '));
    expect(commands.some((c) => /curl -fsSL|wget -qO-/.test(c))).toBe(false);
    expect(d.runs.some((r) => r.entry.runAs === 'instruction' && r.entry.id.includes('count.py'))).toBe(true);
    expect(d.skipped.map((s) => s.reason).join('\n')).toMatch(/warns against it.*Never pipe a script/);
    expect(d.confirmed).toEqual([]);
    for (const r of d.runs) expect(r.entry.why).not.toBe('');
  });
});
