import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-run.js';

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

/** `skillaudit quality …` through the real command-line program. */
const run = (args: string[]) => runCli(['quality', ...args]);

describe('skillaudit quality', () => {
  it('prints the JSON contract: version 1, one entry per skill, errors beside profiles, exit 2 on a broken skill', async () => {
    const { stdout: out, code } = await run([root, '--format', 'json']);
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
    const { stdout: out, code } = await run([join(root, 'csv-summary')]);
    expect(code).toBe(0);
    expect(out).toMatch(/^csv-summary \(\.\) {2}overall \d{1,3}%$/m);
    expect(out).toMatch(/^ {2}Structural completeness {14}█{20} {2}100% {2}every structure criterion met$/m);
    expect(out).toMatch(/^ {2}Efficiency {27}·{20} {2}not run: needs --model/m);
    expect(out).toContain('groups: static');
    expect(out.trimEnd().split('\n').at(-1)).toBe('1 skill: 1 profiled');
    expect(out).not.toContain('\u001b['); // no colour when stdout is not a terminal
  });

  it('rejects an unknown format as a usage error, exit 2', async () => {
    const { stdout: out, code, stderr } = await run([root, '--format', 'sarif']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/option '-f, --format <format>' argument 'sarif' is invalid/);
    expect(out).toBe('');
  });

  it('fails with a user error for a source that does not exist, exit 2', async () => {
    const missing = join(root, 'missing');
    const { stdout: out, code, stderr } = await run([missing]);
    expect(code).toBe(2);
    expect(stderr).toBe(`skillaudit: ${missing}: no such file or folder\n`);
    expect(out).toBe('');
  });
});
