import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanJson } from '../../../src/report/scan-json.js';
import { REPO_ROOT, requireBuild, runBuilt, withoutProgress } from '../../support/built-cli.js';
import { type FakeModelServer, mentions, startFakeModelServer } from '../../support/fake-model-server.js';
import { sarifErrors } from '../../support/sarif-schema.js';

// `skillaudit scan` as users run it: the built bin in a child process, on skills from the labeled set.

const repo = REPO_ROOT;
const labeled = join(repo, 'eval', 'labeled');
let work: string;

const run = (args: string[], env: Record<string, string> = {}) => runBuilt(args, work, env);

beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'skillaudit-scan-cli-'));
  // A small corpus: one injected skill, one clean look-alike, and one skill that cannot be loaded.
  mkdirSync(join(work, 'corpus'));
  cpSync(join(labeled, 'web-scraper-pro'), join(work, 'corpus', 'web-scraper-pro'), { recursive: true });
  cpSync(join(labeled, 'weather-brief'), join(work, 'corpus', 'weather-brief'), { recursive: true });
  mkdirSync(join(work, 'corpus', 'broken'));
  writeFileSync(join(work, 'corpus', 'broken', 'SKILL.md'), Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00]));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('skillaudit scan', () => {
  it('scans a corpus in one command: each skill reported, the broken one with its error, exit 2', async () => {
    const r = await run(['scan', 'corpus', '--format', 'json', '--workers', '2']);
    expect(r.status).toBe(2);
    const json = JSON.parse(r.stdout) as ScanJson;
    expect(json.version).toBe(1);
    const byName = new Map(json.skills.map((s) => [s.path.split('/').pop(), s]));
    expect(byName.get('broken')?.error).toMatch(/SKILL\.md/);
    const injected = byName.get('web-scraper-pro')!;
    expect(injected.status).not.toBe('pass');
    expect(injected.findings.length).toBeGreaterThan(0);
    for (const f of injected.findings) {
      expect(Object.keys(f).sort()).toEqual(
        [
          'confidence',
          'endLine',
          'evidence',
          'file',
          'line',
          'message',
          'pattern',
          'rule',
          'severity',
        ].sort(),
      );
      // Evidence is quoted from the file at the reported lines (or is decoded hidden text).
      const text = readFileSync(join(work, 'corpus', 'web-scraper-pro', f.file), 'utf8');
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.endLine).toBeLessThanOrEqual(text.split('\n').length);
    }
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('gates on --fail-on-finding: 0 for the clean look-alike, 1 for a high finding', async () => {
    const clean = await run(['scan', 'corpus/weather-brief', '--fail-on-finding', 'medium']);
    expect(clean.status).toBe(0);
    const risky = await run([
      'scan',
      'corpus/web-scraper-pro',
      '--fail-on',
      'never',
      '--fail-on-finding',
      'high',
    ]);
    expect(risky.status).toBe(1);
    expect(risky.stdout).toMatch(/web-scraper-pro/);
    // `none` is kept as a spelling of `never`.
    const none = await run(['scan', 'corpus/web-scraper-pro', '--fail-on', 'none']);
    expect(none.status).toBe(0);
  });

  it('writes valid SARIF 2.1.0 to --out', async () => {
    const r = await run([
      'scan',
      'corpus/web-scraper-pro',
      '--format',
      'sarif',
      '--out',
      'out/scan.sarif',
      '--fail-on',
      'none',
    ]);
    expect(r.status).toBe(0);
    const log = JSON.parse(readFileSync(join(work, 'out', 'scan.sarif'), 'utf8'));
    expect(sarifErrors(log)).toEqual([]);
    expect(log.runs[0].results.length).toBeGreaterThan(0);
  });

  it('round-trips a baseline: every accepted finding is listed as suppressed and the gate passes', async () => {
    await run(['scan', 'corpus/web-scraper-pro', '--write-baseline', 'baseline.json', '--fail-on', 'none']);
    const r = await run([
      'scan',
      'corpus/web-scraper-pro',
      '--baseline',
      'baseline.json',
      '--format',
      'json',
    ]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as ScanJson;
    const findings = json.skills[0]!.findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.suppressed?.by === 'baseline')).toBe(true);
    expect(json.skills[0]!.status).toBe('pass');
  });

  it('rejects bad usage with exit 2 and no stack trace', async () => {
    const r = await run(['scan', 'corpus', '--format', 'yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/expected one of text, json, sarif/);
    const missing = await run(['scan', 'does-not-exist']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('skillaudit scan --model', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer({ usage: { input: 2000, cached: 0, output: 200 } });
  });
  afterAll(async () => server.close());

  it('adds a model finding whose evidence exists in the file, through the real provider over HTTP', async () => {
    const script = readFileSync(join(work, 'corpus', 'weather-brief', 'SKILL.md'), 'utf8').split('\n');
    const lineNo = script.findIndex((l) => l.trim().length > 20 && !l.startsWith('---')) + 1;
    server.setScripts([
      {
        name: 'review',
        match: mentions('weather-brief', 'anywhere'),
        turns: [
          {
            json: {
              added: [
                {
                  pattern: 'P4',
                  file: 'SKILL.md',
                  line: lineNo,
                  endLine: lineNo,
                  evidence: script[lineNo - 1]!.trim(),
                  rationale: 'test: a reviewer addition quoted from the file',
                  confidence: 0.6,
                },
              ],
              adjustments: [],
            },
          },
        ],
      },
    ]);
    const r = await run(
      [
        'scan',
        'corpus/weather-brief',
        '--format',
        'json',
        '--fail-on',
        'none',
        '--model',
        'anthropic/claude-sonnet-4-6',
        '--base-url',
        server.baseUrl,
        '--no-cache',
      ],
      { ANTHROPIC_API_KEY: 'test-key' },
    );
    expect(withoutProgress(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as ScanJson;
    const added = json.skills[0]!.findings.filter((f) => f.rule === 'model.review');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ pattern: 'P4', file: 'SKILL.md', line: lineNo });
    expect(server.requests.length).toBeGreaterThan(0);
  });
});
