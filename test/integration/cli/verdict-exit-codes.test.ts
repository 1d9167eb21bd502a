import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../../src/report/index.js';
import type { ScanJson } from '../../../src/report/scan-json.js';
import { REPO_ROOT, requireBuild, runBuilt } from '../../support/built-cli.js';
import { sarifErrors } from '../../support/sarif-schema.js';

// The exit code follows the verdict: a Pass, a Caution and a Risky skill of the labelled set through `scan` and
// `audit`, and on each the exit code, the banner, the JSON and the SARIF must say the same thing.

const labeled = join(REPO_ROOT, 'eval', 'labeled');
const SKILLS = [
  { name: 'weather-brief', status: 'pass' },
  { name: 'db-backup', status: 'caution' },
  { name: 'web-scraper-pro', status: 'risky' },
] as const;
const BANNER = { pass: 'PASS', caution: 'CAUTION', risky: 'RISKY' } as const;
const BANDS = { pass: [70, 100], caution: [40, 69], risky: [0, 39] } as const;

let work: string;
const run = (args: string[]) => runBuilt(args, work);

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-exit-codes-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface SarifRun {
  properties?: { skills?: { status: string; rating: number }[] };
  invocations?: { exitCode?: number }[];
}

describe('scan: exit code, banner, JSON and SARIF agree', () => {
  for (const { name, status } of SKILLS) {
    it(`${name}: ${status}`, async () => {
      const skill = join(labeled, name);
      const expected = status === 'risky' ? 1 : 0;
      const text = await run(['scan', skill, '-q']);
      expect(text.status).toBe(expected);
      const headline = text.stdout.split('\n')[0]!;
      expect(headline).toContain(` ${BANNER[status]} `);
      const rating = Number(/ (\d+)\/100 /.exec(headline)?.[1]);
      expect(rating).toBeGreaterThanOrEqual(BANDS[status][0]);
      expect(rating).toBeLessThanOrEqual(BANDS[status][1]);

      const json = await run(['scan', skill, '-q', '--format', 'json']);
      expect(json.status).toBe(expected);
      const scanned = (JSON.parse(json.stdout) as ScanJson).skills[0]!;
      expect(scanned.status).toBe(status);
      expect(scanned.rating).toBe(rating);

      const sarif = await run(['scan', skill, '-q', '--format', 'sarif']);
      expect(sarif.status).toBe(expected);
      const log = JSON.parse(sarif.stdout) as { runs: SarifRun[] };
      expect(sarifErrors(log)).toEqual([]);
      expect(log.runs[0]!.properties?.skills).toEqual([expect.objectContaining({ status, rating })]);
      expect(log.runs[0]!.invocations?.[0]?.exitCode).toBe(expected);

      const strict = await run(['scan', skill, '-q', '--fail-on', 'caution']);
      expect(strict.status).toBe(status === 'pass' ? 0 : 1);
      const never = await run(['scan', skill, '-q', '--fail-on', 'never']);
      expect(never.status).toBe(0);
    });
  }

  it('--fail-on with a severity is a usage error that names --fail-on-finding', async () => {
    const r = await run(['scan', join(labeled, 'weather-brief'), '-q', '--fail-on', 'high']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--fail-on-finding high/);
  });

  it('--fail-on-finding gates on a severity as well as the verdict', async () => {
    // The caution skill has high findings: the verdict gate passes it, the finding gate does not.
    const skill = join(labeled, 'db-backup');
    const findings = JSON.parse((await run(['scan', skill, '-q', '--format', 'json'])).stdout) as ScanJson;
    const highs = findings.skills[0]!.findings.filter((f) => f.severity === 'high' && !f.suppressed).length;
    const r = await run(['scan', skill, '-q', '--fail-on-finding', 'high', '--min-confidence', '0']);
    expect(r.status).toBe(highs > 0 ? 1 : 0);
    const low = await run(['scan', skill, '-q', '--fail-on-finding', 'low', '--min-confidence', '0']);
    expect(low.status).toBe(1);
  });
});

describe('audit: exit code, banner and report agree', () => {
  for (const { name, status } of SKILLS) {
    it(`${name}: ${status}`, async () => {
      const out = join(work, 'runs');
      const expected = status === 'risky' ? 1 : 0;
      const r = await run([
        'audit',
        join(labeled, name),
        '-q',
        '--no-detonate',
        '--out',
        out,
        '--format',
        'json',
      ]);
      expect(r.status).toBe(expected);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.safety.status).toBe(status);
      expect(report.verdict.status).toBe(status);
      const rating = report.safety.decision.rating;
      expect(rating).toBeGreaterThanOrEqual(BANDS[status][0]);
      expect(rating).toBeLessThanOrEqual(BANDS[status][1]);
      // The header says the scripts were not run, and why.
      expect(report.verdict.reasons).toContain('scripts were not run: turned off with --no-detonate');
      const text = await run(['audit', join(labeled, name), '-q', '--no-detonate', '--out', out]);
      expect(text.status).toBe(expected);
      expect(text.stdout.split('\n')[0]).toContain(` ${BANNER[status]} `);
      expect(text.stdout).toContain(`${rating}/100`);
    });
  }
});
