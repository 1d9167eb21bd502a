import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type EvalScannerDeps,
  registerEvalScanner,
  renderEvalScannerText,
  runEvalScanner,
} from '../../../../src/cli/eval-scanner.js';
import { patternById } from '../../../../src/core/taxonomy.js';
import type { Finding, PatternId, Skill } from '../../../../src/core/types.js';

// The command's own logic (which folders it loads, how failures count, disposal) with intake and the
// scanner replaced by fakes; the real components are exercised where they are built.

function finding(pattern: PatternId, file: string, line: number): Finding {
  const p = patternById(pattern);
  return {
    id: `${pattern}-${file}-${line}`,
    pattern,
    family: p.family,
    severity: p.severity,
    confidence: 0.8,
    file,
    line,
    endLine: line,
    evidence: 'x',
    rule: 'fake',
    message: p.name,
    rationale: '',
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'evalset-'));
  for (const name of ['good', 'clean', 'broken']) mkdirSync(join(dir, name));
  writeFileSync(
    join(dir, 'labels.json'),
    JSON.stringify({
      version: 1,
      skills: {
        good: [
          { pattern: 'E2', file: 'scripts/a.py', line: 4, endLine: 6, note: 'env to webhook' },
          { pattern: 'R2', file: 'scripts/a.py', line: 9, endLine: 9, note: 'no timeout' },
        ],
        clean: [],
        broken: [{ pattern: 'P1', file: 'SKILL.md', line: 7, endLine: 7, note: 'override' }],
      },
    }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakes() {
  const opened: string[] = [];
  const disposed: string[] = [];
  const findings: Record<string, Finding[]> = {
    good: [finding('E2', 'scripts/a.py', 5), finding('E1', 'scripts/a.py', 5)],
    clean: [finding('P4', 'SKILL.md', 12)],
  };
  const deps: EvalScannerDeps = {
    async openSource(source) {
      const name = basename(source);
      opened.push(name);
      const dispose = () => {
        disposed.push(name);
      };
      if (name === 'broken')
        return {
          skills: [{ ok: false, path: source, error: new Error('SKILL.md has no frontmatter') }],
          dispose,
        };
      return { skills: [{ ok: true, skill: { folderName: name } as Skill }], dispose };
    },
    async scanSkill(skill) {
      return { findings: findings[skill.folderName] ?? [] };
    },
  };
  return { deps, opened, disposed };
}

describe('runEvalScanner', () => {
  it('scans each labeled folder once, disposes every handle and scores the findings', async () => {
    const { deps, opened, disposed } = fakes();
    const report = await runEvalScanner(dir, deps);
    expect(opened.sort()).toEqual(['broken', 'clean', 'good']);
    expect(disposed.sort()).toEqual(['broken', 'clean', 'good']);
    // G = 3 (E2, R2, P1); P = 3 (E2, E1, P4); TP = 1 (E2).
    expect(report.table4[0]).toMatchObject({ name: 'Overall', gold: 3, predicted: 3, tp: 1, fp: 2, fn: 2 });
    expect(report.unscanned).toEqual(['broken']);
    expect(report.errors).toEqual({ broken: expect.stringContaining('SKILL.md has no frontmatter') });
  });

  it('puts skills that failed to load at the top of the text report', async () => {
    const report = await runEvalScanner(dir, fakes().deps);
    const text = renderEvalScannerText(report, true);
    expect(text.startsWith('Skills that could not be scanned:\n  broken: intake failed for')).toBe(true);
    expect(text).toContain('  FN  SKILL.md:7  P1  override');
    expect(text).toContain('  FP  SKILL.md:12  P4  x  [fake]');
  });

  it('reports a folder where intake finds several skills as an error, not a silent merge', async () => {
    const { deps } = fakes();
    const many: EvalScannerDeps = {
      ...deps,
      async openSource(source) {
        const skill = { folderName: basename(source) } as Skill;
        return {
          skills: [
            { ok: true, skill },
            { ok: true, skill },
          ],
          dispose: () => undefined,
        };
      },
    };
    const report = await runEvalScanner(dir, many);
    expect(Object.keys(report.errors).sort()).toEqual(['broken', 'clean', 'good']);
    expect(report.errors.good).toMatch(/expected one skill, intake found 2/);
  });

  it('fails with a clear error when the set has no labels.json', async () => {
    rmSync(join(dir, 'labels.json'));
    await expect(runEvalScanner(dir, fakes().deps)).rejects.toThrow(/cannot read label file/);
  });
});

describe('eval-scanner command', () => {
  it('rejects an unknown --format as a usage error before loading anything', async () => {
    const program = new Command().exitOverride();
    registerEvalScanner(program);
    await expect(
      program.parseAsync(['eval-scanner', dir, '--format', 'xml'], { from: 'user' }),
    ).rejects.toMatchObject({
      name: 'UserError',
      code: 'USAGE',
    });
  });
});
