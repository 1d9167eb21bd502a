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

  it('a source of several skills: its parts in a table, counted by state, refreshing while any runs', () => {
    const part = (id: string, over: Partial<AuditView>): AuditView => ({
      ...base,
      id: id.repeat(16),
      reportUrl: `/audits/${id.repeat(16)}`,
      partOf: { id: base.id, statusUrl: `/api/audits/${base.id}`, reportUrl: `/audits/${base.id}` },
      ...over,
    });
    const parts = [
      part('b', { status: 'done', skill: 'pdf', verdict: { status: 'pass', safetyScore: 95, advice: '' } }),
      part('c', { status: 'running', stage: 'scan', skill: 'notes' }),
    ];
    const live = statusPage({ ...base, status: 'running', parts });
    expect(live).toContain('>2 skills<');
    expect(live).toContain('1 pass, 1 running');
    expect(live).toContain(`href="/audits/${'b'.repeat(16)}"`);
    expect(live).toContain('http-equiv="refresh"');
    expect(live).toContain('tone-busy');
    const risky = part('c', {
      status: 'done',
      skill: 'notes',
      verdict: { status: 'risky', safetyScore: 30, advice: '' },
    });
    const done = statusPage({ ...base, status: 'done', parts: [parts[0]!, risky] });
    expect(done).toContain('1 pass, 1 risky');
    expect(done).toContain('card tone-bad');
    expect(done).not.toContain('http-equiv="refresh"');
    // A part links back to its group.
    expect(statusPage(parts[1]!)).toContain(`<a href="/audits/${base.id}">all skills of this source</a>`);
  });

  it('the list shows each verdict in the shared words', () => {
    const html = auditsPage({
      audits: [
        {
          ...base,
          status: 'done',
          verdict: {
            status: 'risky',
            rating: 12,
            reason: 'risky because: code from a paste site',
            safetyScore: 92,
            advice: '',
          },
        },
      ],
      total: 1,
      page: 1,
      pageSize: 25,
    });
    expect(html).toContain('>Risky<');
    // The rating, never the finding score that can read 92 beside Risky; the reason beside it.
    expect(html).toContain('safety 12/100 · risky because: code from a paste site');
    expect(html).not.toContain('92');
  });
});
