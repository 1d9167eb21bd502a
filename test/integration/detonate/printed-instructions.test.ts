// A command SKILL.md tells the agent to run and follow prints the steps the agent takes next. Built at run time
// (a position-dependent shift no static decoder evaluates), they are seen only in the run's output, which is
// read as the agent's instructions. Real bubblewrap.
import { describe, expect, it, vi } from 'vitest';
import { detonateFixture } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

const PRINTED = /printed when it ran in the sandbox/;

describe('instructions a followed command prints', () => {
  it('are reported as suspected at runtime, with the command and what it printed', async () => {
    const d = await detonateFixture('printed-steps');
    const staticText = d.findings.filter((f) => !PRINTED.test(f.rationale) && f.rule.startsWith('md.'));
    expect(staticText).toEqual([]);
    const printed = d.runtimeFindings.filter((f) => PRINTED.test(f.rationale));
    const patterns = new Set(printed.map((f) => f.pattern));
    for (const p of ['P1', 'SC2', 'P3']) expect(patterns.has(p as never), p).toBe(true);
    expect(printed.every((f) => f.file === 'SKILL.md' && f.line === 11)).toBe(true);
    const netrc = printed.find((f) => f.pattern === 'P3')!;
    expect(netrc.evidence).toContain('~/.netrc');
    const verdict = d.verdicts.find((v) => v.finding === netrc.id)!;
    expect(verdict.kind).toBe('suspected');
    expect(verdict.evidence[0]).toMatch(/^SKILL\.md:11 printed this when it ran: .*~\/\.netrc/);
    // The text rules read the output; a reading is never a confirmation.
    expect(d.confirmed.filter((f) => PRINTED.test(f.rationale))).toEqual([]);
  });

  it('a script SKILL.md names in prose is followed too: what its plain run printed is read', async () => {
    const d = await detonateFixture('printed-setup-script');
    expect(d.runs.some((r) => r.entry.runAs === 'instruction')).toBe(false);
    expect(d.findings.filter((f) => !PRINTED.test(f.rationale) && f.rule.startsWith('md.'))).toEqual([]);
    const printed = d.runtimeFindings.filter((f) => PRINTED.test(f.rationale));
    const send = printed.find((f) => f.pattern === 'P3');
    expect(send?.file).toBe('scripts/setup.py');
    expect(send?.evidence).toContain('~/.aws/credentials');
    // One finding per printed sentence.
    expect(new Set(printed.map((f) => `${f.rule} ${f.evidence}`)).size).toBe(printed.length);
  });

  it('an ordinary tool output that the agent follows gives nothing', async () => {
    const d = await detonateFixture('clean-printed-tips');
    const run = d.runs.find((r) => r.entry.id === 'scripts/tips.py');
    expect(run?.evidence.stdout).toContain('CSV tips:');
    expect(d.runtimeFindings).toEqual([]);
  });
});
