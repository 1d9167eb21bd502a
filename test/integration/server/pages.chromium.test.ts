// The service's pages as a reader sees them, in real Chromium at desktop (1280 px) and phone (390 px) width:
// the report of a real audit with runtime evidence, the audits list and the status page. Screenshots go to
// test-artifacts/; the checks are what a reader would trip over: text wider than the screen, evidence named
// twice, the same process listed again and again, alarm colours on evidence that confirmed nothing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { launchChromium } from '../../support/chromium.js';
import { buildZip } from '../../support/intake/zip-writer.js';
import { type AuditJson, startTestService, TOKEN, waitFor } from './support.js';

const ARTIFACTS = new URL('../../../test-artifacts/', import.meta.url).pathname;
const WIDTHS = { desktop: 1280, phone: 390 } as const;

// A skill whose setup script runs a helper several times and reads a credential-looking variable: the
// sandbox runs it, so the report has processes, runtime records and a finding the run did not confirm.
const SKILL = `---
name: table-tidy
description: Tidies CSV tables into Markdown. Use when the user asks to clean up a table.
---
# Table tidy

Run \`bash scripts/setup.sh\` once, then \`python3 scripts/tidy.py input.csv\`.
`;
const SETUP = `#!/bin/bash
for i in 1 2 3; do echo "step $i"; done
python3 -c 'print("ready")'
python3 -c 'print("ready")'
`;
const TIDY = `import csv, os, sys
token = os.environ.get("GITHUB_TOKEN", "")
rows = list(csv.reader(open(sys.argv[1]))) if len(sys.argv) > 1 else []
print("\\n".join("| " + " | ".join(r) + " |" for r in rows))
`;

let root: string;
let service: RunningService;
let browser: Browser;
let done: AuditJson;
let queuedId: string;
let failedId: string;
let group: AuditJson;

async function upload(name: string, files: Record<string, string>): Promise<AuditJson> {
  const response = await fetch(`${service.url}/api/audits?filename=${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/zip' },
    body: buildZip(
      Object.entries(files).map(([path, data]) => ({
        name: path,
        data,
        mode: path.endsWith('.sh') ? 0o100755 : 0o100644,
      })),
    ),
  });
  return (await response.json()) as AuditJson;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing wider than the screen: a phone reader would have to scroll sideways.
    const overflow = (await page.evaluate(
      'document.documentElement.scrollWidth - window.innerWidth',
    )) as number;
    expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${label}.png`), fullPage: true });
  }
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  root = mkdtempSync(join(tmpdir(), 'skillaudit-pages-chromium-'));
  service = await startTestService(join(root, 'data'), {
    public: true,
    detonate: true,
    maxRuns: 4,
  });
  const first = await upload('table-tidy.zip', {
    'SKILL.md': SKILL,
    'scripts/setup.sh': SETUP,
    'scripts/tidy.py': TIDY,
  });
  // One worker: the second audit waits in the queue while the first runs.
  const second = await upload('notes.zip', { 'SKILL.md': SKILL.replace('table-tidy', 'notes-helper') });
  queuedId = second.id;
  browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${service.url}/audits/${queuedId}`);
  const state = await page.getByTestId('audit-state').getAttribute('data-state');
  if (state === 'queued') await shoot(page, 'status-queued');
  await page.close();
  failedId = (await upload('empty.zip', { 'README.md': '# nothing here\n' })).id;
  done = await waitFor(service.url, first.id, undefined, 180_000);
  await waitFor(service.url, queuedId, undefined, 180_000);
  await waitFor(service.url, failedId, undefined, 60_000);
  const pack = await upload('pack.zip', {
    'pack/alpha/SKILL.md': SKILL.replace('table-tidy', 'alpha'),
    'pack/beta/SKILL.md': SKILL.replace('table-tidy', 'beta'),
  });
  group = await waitFor(service.url, pack.id, undefined, 120_000);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('pages in Chromium', () => {
  it('the report of a real audit: evidence named once, processes merged, colours follow the evidence', async () => {
    expect(done.status).toBe('done');
    const page = await browser.newPage();
    await page.goto(`${service.url}/audits/${done.id}`);
    await page.getByTestId('status').waitFor({ timeout: 15_000 });
    const report = (await (await fetch(`${service.url}/api/audits/${done.id}/report`)).json()) as {
      runtime: { processes: { argv: string[] }[] } | null;
      safety: { findings: { verdict: string; runtimeEvidence: { artifact?: string }[] }[] };
    };
    expect(report.runtime).not.toBeNull();
    // Every command line once, however often it ran.
    const lines = await page.getByTestId('runtime-processes').locator('li code').allTextContents();
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.length).toBe(new Set(report.runtime!.processes.map((p) => p.argv.join(' '))).size);
    // No runtime record names its artifact twice; red only where the runtime confirmed the finding.
    for (const text of await page.getByTestId('runtime-refs').allTextContents()) {
      for (const path of text.match(/evidence\/[\w.-]+\.json/g) ?? []) {
        expect(text.split(path).length - 1, text).toBe(1);
      }
    }
    const tones = await page.getByTestId('runtime-refs').evaluateAll((els) => els.map((e) => e.className));
    const confirmed = report.safety.findings.filter(
      (f) => f.runtimeEvidence.length && f.verdict === 'confirmed',
    );
    expect(tones.filter((t) => t.includes('tone-bad'))).toHaveLength(confirmed.length);
    await shoot(page, 'report');
    await page.close();
  });

  it('the audits list', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.url}/audits`);
    // The three audits, the group of the two-skill archive and its two parts.
    expect(await page.getByTestId('audit-row').count()).toBe(6);
    expect(await page.locator('[data-status="failed"] .chip').textContent()).toBe('Failed');
    await shoot(page, 'audits-list');
    await page.goto(`${service.url}/`);
    await shoot(page, 'home');
    await page.close();
  });

  it('the status page of a failed audit', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.url}/audits/${failedId}`);
    expect(await page.getByTestId('audit-state').getAttribute('data-state')).toBe('failed');
    expect(await page.getByTestId('audit-state').textContent()).toContain('NO_SKILL');
    await shoot(page, 'status-failed');
    await page.close();
  });

  it('the page of an archive of several skills: each part with its verdict and a link', async () => {
    const parts = group.parts as AuditJson[];
    expect(parts.map((p) => p.status)).toEqual(['done', 'done']);
    const page = await browser.newPage();
    await page.goto(`${service.url}/audits/${group.id}`);
    expect(await page.getByTestId('audit-state').textContent()).toContain('2 skills');
    const rows = page.getByTestId('audit-row');
    expect(await rows.count()).toBe(2);
    for (const part of parts) expect(await page.locator(`a[href="/audits/${part.id}"]`).count()).toBe(1);
    await shoot(page, 'status-group');
    await page.close();
  });

  it('the home page form: an archive and the token, submitted without scripts, lands on the audit page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    await shoot(page, 'home-form');
    const form = page.getByTestId('submit-form');
    await form.locator('input[name="archive"]').setInputFiles({
      name: 'form-skill.zip',
      mimeType: 'application/zip',
      buffer: buildZip([{ name: 'SKILL.md', data: SKILL.replace('table-tidy', 'form-skill') }]),
    });
    await form.locator('input[name="token"]').fill(TOKEN);
    await Promise.all([
      page.waitForURL(/\/audits\/[A-Za-z0-9_-]{16}$/),
      form.locator('button[type="submit"]').click(),
    ]);
    expect(await page.getByTestId('audit-state').count()).toBe(1);
    expect(await page.content()).toContain('form-skill');
    // The token went into an HttpOnly cookie for this origin, not into the page or its URL.
    const cookies = await context.cookies(service.url);
    expect(cookies.find((c) => c.name === 'skillaudit_token')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect(page.url()).not.toContain(TOKEN);
    await context.close();
  });
});
