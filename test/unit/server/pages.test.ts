import { describe, expect, it } from 'vitest';
import type { AuditView } from '../../../src/server/audit-view.js';
import { auditsPage, statusPage } from '../../../src/server/pages.js';

// The status page says the audit's true state: queued with its place, running with its stage, failed with
// the reason; times are readable; submitter text is escaped.

const base: AuditView = {
  id: 'a'.repeat(16),
  status: 'queued',
  source: 'https://github.com/o/r/tree/main/<b>x</b>',
  createdAt: '2026-12-01T23:52:10.000Z',
  attempts: 0,
  statusUrl: '/api/audits/x',
  reportUrl: '/audits/x',
};

describe('statusPage', () => {
  it('queued: its place in line, refreshing', () => {
    const html = statusPage({ ...base, queuePosition: 3 });
    expect(html).toContain('data-state="queued"');
    expect(html).toContain('>Queued<');
    expect(html).toContain('3rd in line');
    expect(html).toContain('http-equiv="refresh"');
    expect(html).toContain('2026-12-01 23:52 UTC');
    expect(html).not.toContain('2026-12-01T23:52:10');
    expect(html).not.toContain('<b>x</b>');
  });

  it('running: the stage in words', () => {
    const html = statusPage({ ...base, status: 'running', stage: 'detonate', attempts: 1 });
    expect(html).toContain('>Running<');
    expect(html).toContain('detonate: running its scripts in the sandbox');
  });

  it('failed: the reason, no refresh', () => {
    const html = statusPage({
      ...base,
      status: 'failed',
      error: { code: 'GIT_FAILED', message: 'no branch <main>' },
    });
    expect(html).toContain('>Failed<');
    expect(html).toContain('GIT_FAILED: no branch &lt;main&gt;');
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it('the list shows each verdict in the shared words', () => {
    const html = auditsPage({
      audits: [{ ...base, status: 'done', verdict: { status: 'risky', safetyScore: 42, advice: '' } }],
      total: 1,
      page: 1,
      pageSize: 25,
    });
    expect(html).toContain('>Risky<');
    expect(html).toContain('safety score 42/100');
  });
});
