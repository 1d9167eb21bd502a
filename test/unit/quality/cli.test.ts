import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerQuality } from '../../../src/cli/quality.js';

// `skillaudit quality` end to end through the real intake, on skills written to a temp folder.

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skillaudit-quality-'));
  mkdirSync(join(root, 'csv-summary', 'scripts'), { recursive: true });
  writeFileSync(
    join(root, 'csv-summary', 'SKILL.md'),
    `---
name: csv-summary
description: Summarise CSV files with row counts, column types and per-column statistics.
---

# CSV summary

## When to use

When someone wants a quick overview of a CSV file before analysing it.

## Steps

1. Run \`python scripts/summarize.py data.csv\`.
2. Report the summary table it prints, and point out empty columns.
`,
  );
  writeFileSync(join(root, 'csv-summary', 'scripts', 'summarize.py'), 'import sys\nprint(sys.argv[1])\n');
  mkdirSync(join(root, 'empty'));
  writeFileSync(join(root, 'empty', 'SKILL.md'), '');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(args: string[]): Promise<{ out: string; code: number }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const program = new Command('skillaudit').exitOverride().configureOutput({ writeErr: () => {} });
  registerQuality(program);
  await program.parseAsync(['node', 'skillaudit', 'quality', ...args]);
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  return { out, code };
}

describe('skillaudit quality', () => {
  it('prints the JSON contract: version 1, one entry per skill, errors beside profiles, exit 2 on a broken skill', async () => {
    const { out, code } = await run([root, '--format', 'json']);
    const report = JSON.parse(out) as {
      version: number;
      skills: {
        path: string;
        name?: string;
        quality?: { overall: number; dimensions: { status: string }[] };
        error?: { code: string };
      }[];
    };
    expect(report.version).toBe(1);
    expect(report.skills.map((s) => s.path)).toEqual(['csv-summary', 'empty']);
    const [ok, broken] = report.skills;
    expect(ok!.name).toBe('csv-summary');
    expect(ok!.quality!.dimensions).toHaveLength(9);
    expect(ok!.quality!.dimensions.filter((d) => d.status === 'scored')).toHaveLength(3);
    expect(ok!.quality!.overall).toBeGreaterThan(0.7);
    expect(broken!.error!.code).toBe('EMPTY_SKILL_MD');
    expect(code).toBe(2);
  });

  it('prints an aligned text table with bars, scores and not-run reasons, exit 0 for a good skill', async () => {
    const { out, code } = await run([join(root, 'csv-summary')]);
    expect(code).toBe(0);
    expect(out).toMatch(/^csv-summary \(\.\) {2}overall 0\.\d\d$/m);
    expect(out).toMatch(/^ {2}Structural completeness {14}█{20} {2}1\.00 {2}all Table 10 criteria met$/m);
    expect(out).toMatch(/^ {2}Efficiency {27}·{20} {2}not run: needs --model/m);
    expect(out).toContain('groups: static');
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 skill: 1 profiled');
    expect(out).not.toContain('\u001b['); // no colour when stdout is not a terminal
  });

  it('rejects an unknown format as a usage error', async () => {
    await expect(run([root, '--format', 'sarif'])).rejects.toMatchObject({
      code: 'commander.invalidArgument',
    });
  });

  it('fails with a user error for a source that does not exist', async () => {
    await expect(run([join(root, 'missing')])).rejects.toMatchObject({
      name: 'UserError',
      code: 'NOT_FOUND',
    });
  });
});
