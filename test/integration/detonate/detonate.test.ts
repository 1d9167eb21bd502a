import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runAudit } from '../../../src/pipeline/audit.js';
import type { Report, ReportFinding } from '../../../src/report/model.js';
import { validateReport } from '../../../src/report/schema.js';
import { detectBackends } from '../../../src/sandbox/index.js';

// Detonation on real bubblewrap + strace + the network sink: team-written malicious skills must be confirmed
// with quoted runtime evidence; benign skills that call their declared API or read their own key must not.

const FIXTURES = new URL('../../fixtures/detonate/', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'skillaudit-detonate-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
// Each audit starts a few sandboxes (one per entry point); under a loaded CI machine that takes a while.
vi.setConfig({ testTimeout: 180_000 });

async function audit(name: string): Promise<Report> {
  const backends = await detectBackends();
  if (!backends.some((b) => b.usable)) {
    throw new Error(`no sandbox backend usable (install bubblewrap and strace): ${JSON.stringify(backends)}`);
  }
  const [outcome] = await runAudit(join(FIXTURES, name), { out });
  if (!outcome?.report) throw new Error(`audit of ${name} failed: ${outcome?.error?.message}`);
  expect(validateReport(outcome.report)).toEqual([]);
  // The report on disk is the one returned, and every evidence bundle it cites exists.
  const onDisk = JSON.parse(readFileSync(join(outcome.runDir!, 'report.json'), 'utf8')) as Report;
  expect(onDisk.safety.score).toBe(outcome.report.safety.score);
  for (const f of outcome.report.safety.findings) {
    for (const e of f.runtimeEvidence)
      if (e.artifact) expect(() => readFileSync(join(outcome.runDir!, e.artifact!))).not.toThrow();
  }
  return outcome.report;
}

function confirmed(report: Report, pattern: string): ReportFinding[] {
  return report.safety.findings.filter((f) => f.pattern === pattern && f.verdict === 'confirmed');
}

function evidenceText(findings: ReportFinding[]): string {
  return findings.flatMap((f) => [f.evidence, ...f.runtimeEvidence.map((e) => e.summary)]).join('\n');
}

describe('detonation confirms malicious behaviour with evidence', () => {
  it('environment harvest posted over HTTP', async () => {
    const r = await audit('env-harvest');
    const e2 = confirmed(r, 'E2');
    expect(e2.length).toBeGreaterThan(0);
    expect(evidenceText(e2)).toMatch(
      /canary (OPENAI_API_KEY|ANTHROPIC_API_KEY|AWS_SECRET_ACCESS_KEY|GITHUB_TOKEN)/,
    );
    expect(evidenceText(e2)).toContain('metrics-collector.example-telemetry.net');
    expect(r.safety.status).not.toBe('pass');
  });

  it('SSH key read then leaked through DNS names', async () => {
    const r = await audit('ssh-dns');
    expect(confirmed(r, 'PE3').length).toBeGreaterThan(0);
    expect(evidenceText(confirmed(r, 'PE3'))).toContain('.ssh/id_rsa');
    // The leak is confirmed by the canary key in DNS names: on the static transmission finding now that the scan
    // reads the heredoc, else on a runtime E2 finding.
    const leak = [...confirmed(r, 'E1'), ...confirmed(r, 'E2')];
    expect(evidenceText(leak)).toContain('canary ssh-private-key seen in dns');
    expect(r.runtime?.network.some((n) => n.destination.includes('dns-check.example-ops.net'))).toBe(true);
    expect(r.safety.status).toBe('risky');
  });

  it('curl piped to sh in a setup step', async () => {
    const r = await audit('curl-sh');
    const sc2 = confirmed(r, 'SC2');
    expect(sc2.length).toBeGreaterThan(0);
    expect(evidenceText(sc2)).toContain('203.0.113.50');
    expect(sc2[0]!.file).toBe('SKILL.md');
  });

  it('base64-decoded payload executed', async () => {
    const r = await audit('b64-exec');
    expect(confirmed(r, 'SC3').length).toBeGreaterThan(0);
    const e2 = confirmed(r, 'E2');
    expect(e2.length).toBeGreaterThan(0);
    expect(evidenceText(e2)).toContain('stats.example-cdn.org');
  });

  it('persistence through ~/.bashrc', async () => {
    const r = await audit('persistence');
    const p4 = confirmed(r, 'P4');
    expect(p4.length).toBeGreaterThan(0);
    expect(evidenceText(p4)).toContain('.bashrc');
  });

  it('a python script called from a bash wrapper reads and sends AWS credentials', async () => {
    const r = await audit('wrapper');
    const pe3 = confirmed(r, 'PE3');
    expect(pe3.map((f) => f.file)).toContain('scripts/collect.py');
    expect(evidenceText(pe3)).toContain('.aws/credentials');
    // The upload is confirmed by the credentials canary in the sink, whichever exfiltration pattern reports it.
    const exfil = [...confirmed(r, 'E1'), ...confirmed(r, 'E2')];
    expect(evidenceText(exfil)).toMatch(
      /canary aws-credentials-file seen in sink https billing-api\.example-costs\.io/,
    );
    expect(r.safety.status).toBe('risky');
  });
});

describe('detonation clears benign behaviour', () => {
  it('a script that calls its declared API with a timeout gets no confirmed verdict', async () => {
    const r = await audit('weather');
    expect(r.runtime?.network.some((n) => n.destination.startsWith('api.open-meteo.com'))).toBe(true);
    expect(r.safety.findings.filter((f) => f.verdict === 'confirmed')).toEqual([]);
  });

  it('a script that sends its own documented key to its declared API gets no confirmed verdict', async () => {
    const r = await audit('own-key');
    expect(r.runtime?.network.some((n) => n.destination.startsWith('api.openai.com'))).toBe(true);
    expect(r.safety.findings.filter((f) => f.verdict === 'confirmed')).toEqual([]);
    expect(r.safety.status).not.toBe('risky');
  });
});
