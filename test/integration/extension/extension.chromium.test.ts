import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_ADVICE, STATUS_LABEL } from '../../../src/core/verdict-words.js';
import { buildExtension, type ExtensionBrowser, launchWithExtension } from './extension-browser.js';
import { type FixtureSites, startFixtureSites } from './fixture-sites.js';
import { createSkillsMirror, type SkillAuditServer, startSkillAuditServer } from './skillaudit-server.js';

// The production build of the extension in real Debian Chromium, on local copies of GitHub, skills.sh and ClawHub
// pages served under their real names, against a real `skillaudit serve`.

const SCREENSHOT = fileURLToPath(new URL('../../../test-artifacts/extension-badge.png', import.meta.url));

const PAGES = {
  tree: 'https://github.com/acme/skills/tree/main/skills/pdf-tools',
  blob: 'https://github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md',
  blobV2: 'https://github.com/acme/skills/blob/v2/skills/pdf-tools/SKILL.md',
  folder: 'https://github.com/acme/skills/tree/main/skills',
  skillsSh: 'https://skills.sh/acme/skills/csv-tools',
  skillsShUnaudited: 'https://skills.sh/acme/skills/todo-notes',
  skillsShHome: 'https://skills.sh/',
  clawHub: 'https://clawhub.ai/acme/md-lint',
  clawHubUpload: 'https://clawhub.ai/acme/pasted-notes',
  clawHubHostile: 'https://clawhub.ai/acme/x',
} as const;

const ROUTES: Record<string, string> = {
  'github.com/acme/skills/tree/main/skills/pdf-tools': 'github-tree.html',
  'github.com/acme/skills/blob/main/skills/pdf-tools/SKILL.md': 'github-blob.html',
  'github.com/acme/skills/blob/v2/skills/pdf-tools/SKILL.md': 'github-blob.html',
  'github.com/acme/skills/tree/main/skills': 'github-folder.html',
  'skills.sh/acme/skills/csv-tools': 'skills-sh.html',
  'skills.sh/acme/skills/todo-notes': 'skills-sh.html',
  'skills.sh/': 'skills-sh-home.html',
  'clawhub.ai/acme/md-lint': 'clawhub.html',
  'clawhub.ai/acme/pasted-notes': 'clawhub-upload.html',
  'clawhub.ai/acme/x': 'clawhub-hostile.html',
};

// How long detection may take after the DOM settles (the content script checks at most every 250 ms).
const SETTLED_MS = 1500;

interface AuditJson {
  id: string;
  status: string;
  verdict?: {
    status: 'pass' | 'caution' | 'risky';
    rating: number;
    reason?: string;
    safetyScore: number;
    advice: string;
  };
  reportUrl: string;
  source: string;
  commit?: string;
}

// Callbacks passed to evaluate run in the page or in the extension's worker. The project compiles without DOM and
// chrome types, so they see those globals through these narrow views (types only: nothing is shared at run time).
interface WorkerGlobals {
  chrome: {
    storage: {
      local: {
        get(keys: null): Promise<Record<string, unknown>>;
        set(values: object): Promise<void>;
        clear(): Promise<void>;
      };
    };
  };
}
interface PageGlobals {
  __pwned?: number;
  __sameDocument?: boolean;
  getComputedStyle(node: unknown): {
    color: string;
    fontSize: string;
    backgroundColor: string;
    borderLeftWidth: string;
  };
}

let work: string;
let sites: FixtureSites;
let server: SkillAuditServer;
let browser: ExtensionBrowser;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.origin}${path}`, init);
  const body = (await response.json()) as T;
  if (!response.ok)
    throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body)}\n${server.output()}`);
  return body;
}

async function auditUntilFinished(source: string): Promise<AuditJson> {
  const { id } = await api<AuditJson>('/api/audits', {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source }),
  });
  for (const started = Date.now(); Date.now() - started < 180_000; ) {
    const audit = await api<AuditJson>(`/api/audits/${id}`);
    if (audit.status === 'done' || audit.status === 'failed') return audit;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`audit ${id} of ${source} did not finish in 180 s\n${server.output()}`);
}

async function setSettings(settings: { serverUrl?: string; token?: string }): Promise<void> {
  await browser.worker.evaluate(
    (values) => (globalThis as unknown as WorkerGlobals).chrome.storage.local.set(values),
    settings,
  );
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(url);
  return page;
}

const badge = (page: Page) => page.locator('skillaudit-badge .badge');

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'skillaudit-extension-'));
  buildExtension();
  const dataDir = join(work, 'server');
  mkdirSync(dataDir);
  server = await startSkillAuditServer(dataDir, createSkillsMirror(work));
  sites = await startFixtureSites(work, ROUTES);
  browser = await launchWithExtension(join(work, 'profile'), sites.chromiumArgs);
  await setSettings({ serverUrl: server.origin, token: server.token });
}, 180_000);

afterAll(async () => {
  await browser?.context.close();
  await sites?.close();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('an audited skill', () => {
  let audit: AuditJson;

  beforeAll(async () => {
    audit = await auditUntilFinished(PAGES.tree);
    expect(audit.status, JSON.stringify(audit)).toBe('done');
  }, 200_000);

  it('shows the server’s verdict on the GitHub folder page and opens its report in a new tab', async () => {
    const page = await openPage(PAGES.tree);
    await badge(page).and(page.locator('[data-state="done"]')).waitFor();
    const verdict = audit.verdict!;
    await expect(badge(page).locator('.verdict').textContent()).resolves.toBe(STATUS_LABEL[verdict.status]);
    // The rating beside the word, never the finding score that can read high beside Risky.
    await expect(badge(page).locator('.score').textContent()).resolves.toBe(`Safety ${verdict.rating}/100`);
    const reason = badge(page).locator('.reason');
    if (verdict.status === 'pass') await expect(reason.count()).resolves.toBe(0);
    else await expect(reason.textContent()).resolves.toBe(verdict.reason);
    await expect(badge(page).getAttribute('data-tone')).resolves.toBe(verdict.status);
    // The badge speaks the one verdict vocabulary: the status's own advice, no second recommendation word.
    await expect(badge(page).locator('.advice').textContent()).resolves.toBe(STATUS_ADVICE[verdict.status]);
    // The audit is of this page: no other source named, the audited commit shown.
    await expect(badge(page).locator('.source').count()).resolves.toBe(0);
    await expect(badge(page).locator('.version').textContent()).resolves.toMatch(
      new RegExp(`^Audited at ${audit.commit!.slice(0, 7)} \\(`),
    );
    const link = badge(page).locator('a.report');
    await expect(link.getAttribute('href')).resolves.toBe(`${server.origin}${audit.reportUrl}`);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');

    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    const [report] = await Promise.all([browser.context.waitForEvent('page'), link.click()]);
    await report.waitForLoadState();
    expect(report.url()).toBe(`${server.origin}${audit.reportUrl}`);
    await report.close();
    await page.close();
  });

  it('shows the same audit on the SKILL.md file page', async () => {
    const page = await openPage(PAGES.blob);
    await badge(page).and(page.locator('[data-state="done"]')).waitFor();
    await expect(badge(page).locator('a.report').getAttribute('href')).resolves.toBe(
      `${server.origin}${audit.reportUrl}`,
    );
    await page.close();
  });

  it('on a page at another ref, names the audit the server fell back to and offers to audit this version', async () => {
    const repositoryAudit = await auditUntilFinished('https://github.com/acme/skills#skills/pdf-tools');
    expect(repositoryAudit.commit, JSON.stringify(repositoryAudit)).toMatch(/^[0-9a-f]{40}$/);
    const page = await openPage(PAGES.blobV2);
    await badge(page).and(page.locator('[data-state="done"]')).waitFor();
    await expect(badge(page).locator('.source').textContent()).resolves.toBe(
      'Verdict for github.com/acme/skills#skills/pdf-tools',
    );
    await expect(badge(page).locator('.version').textContent()).resolves.toMatch(
      new RegExp(`^Audited at ${repositoryAudit.commit!.slice(0, 7)} \\(.*\\), this page shows v2$`),
    );
    await expect(badge(page).locator('button.submit').textContent()).resolves.toBe('Audit this version');
    await page.close();
  }, 200_000);

  it('follows GitHub’s navigation without a reload: no badge on a folder of skills, one on a skill', async () => {
    const page = await openPage(PAGES.folder);
    await page.evaluate(() => Object.assign(globalThis as unknown as PageGlobals, { __sameDocument: true }));
    await page.waitForTimeout(SETTLED_MS);
    await expect(page.locator('skillaudit-badge').count()).resolves.toBe(0);

    await page.locator('a[data-spa][title="pdf-tools"]').click();
    await page.waitForURL(PAGES.tree);
    await badge(page).and(page.locator('[data-state="done"]')).waitFor();

    await page.goBack();
    await page.waitForURL(PAGES.folder);
    await page.locator('skillaudit-badge').waitFor({ state: 'detached' });
    await expect(page.evaluate(() => (globalThis as unknown as PageGlobals).__sameDocument)).resolves.toBe(
      true,
    );
    await page.close();
  });
});

it('shows no badge on a page that is not a skill', async () => {
  const page = await openPage(PAGES.skillsShHome);
  await page.waitForTimeout(SETTLED_MS);
  await expect(page.locator('skillaudit-badge').count()).resolves.toBe(0);
  await page.close();
});

it('"Audit this skill" submits the skill and follows the audit to its verdict', async () => {
  const page = await openPage(PAGES.skillsSh);
  await badge(page).and(page.locator('[data-state="not-audited"]')).waitFor();
  await badge(page).locator('button.submit').click();
  // The submission answers at once with a queued audit; the badge shows it until a poll sees it move on.
  await badge(page).and(page.locator('[data-state="queued"], [data-state="running"]')).waitFor();
  await expect(badge(page).locator('.progress').textContent()).resolves.toMatch(/^Audit (queued|running)/);
  const final = badge(page).and(page.locator('[data-state="done"], [data-state="failed"]'));
  await final.waitFor({ timeout: 180_000 });
  const lookup = await api<{ found: boolean; audit: AuditJson }>(
    `/api/lookup?url=${encodeURIComponent(PAGES.skillsSh)}`,
  );
  expect(lookup.found).toBe(true);
  await expect(final.getAttribute('data-state')).resolves.toBe(lookup.audit.status);
  if (lookup.audit.verdict) {
    await expect(badge(page).locator('.verdict').textContent()).resolves.toBe(
      STATUS_LABEL[lookup.audit.verdict.status],
    );
  }
  await expect(badge(page).locator('a.report').getAttribute('href')).resolves.toBe(
    `${server.origin}${lookup.audit.reportUrl}`,
  );
  await page.close();
}, 200_000);

it('a ClawHub page asks about the GitHub repository it links and its slug, and audits that skill', async () => {
  const page = await openPage(PAGES.clawHub);
  await badge(page).and(page.locator('[data-state="not-audited"]')).waitFor();
  await expect(badge(page).locator('.name').textContent()).resolves.toBe('md-lint');
  await badge(page).locator('button.submit').click();
  await badge(page)
    .and(page.locator('[data-state="done"], [data-state="failed"]'))
    .waitFor({ timeout: 180_000 });
  const lookup = await api<{ found: boolean; audit: AuditJson }>(
    `/api/lookup?url=${encodeURIComponent('https://github.com/acme/skills')}&skill=md-lint`,
  );
  expect(lookup.found).toBe(true);
  await expect(badge(page).locator('a.report').getAttribute('href')).resolves.toBe(
    `${server.origin}${lookup.audit.reportUrl}`,
  );
  // The verdict covers the repository the publisher linked, which the badge must not pass off as the upload.
  await expect(badge(page).locator('.source').textContent()).resolves.toBe(
    'Verdict for the linked repository github.com/acme/skills, not for the files uploaded here',
  );
  await page.close();
}, 200_000);

it('a ClawHub skill without a GitHub source is named but not offered for audit', async () => {
  const page = await openPage(PAGES.clawHubUpload);
  await badge(page).and(page.locator('[data-state="no-source"]')).waitFor();
  await expect(badge(page).locator('.name').textContent()).resolves.toBe('pasted-notes');
  await expect(badge(page).locator('button.submit').count()).resolves.toBe(0);
  await page.close();
});

it('when the server cannot be used the badge says why and offers Options', async () => {
  try {
    // A closed port on the granted local host: no answer.
    await setSettings({ serverUrl: 'http://127.0.0.1:9' });
    const page = await openPage(PAGES.tree);
    await badge(page).and(page.locator('[data-state="failure"]')).waitFor({ timeout: 30_000 });
    await expect(badge(page).locator('.error').textContent()).resolves.toContain('no answer');
    await expect(badge(page).locator('button.options').count()).resolves.toBe(1);
    // Another origin that the user has not allowed: the worker does not even try it.
    await setSettings({ serverUrl: 'https://audit.example.com' });
    await page.reload();
    await badge(page).and(page.locator('[data-state="failure"]')).waitFor();
    await expect(badge(page).locator('.error').textContent()).resolves.toContain(
      'may not contact https://audit.example.com',
    );
    await page.close();
  } finally {
    await setSettings({ serverUrl: server.origin });
  }
});

it('without a token the badge says to set one and opens Options', async () => {
  await setSettings({ token: '' });
  try {
    const page = await openPage(PAGES.skillsShUnaudited);
    await badge(page).and(page.locator('[data-state="not-audited"]')).waitFor();
    await expect(badge(page).locator('button.submit').count()).resolves.toBe(0);
    await expect(badge(page).textContent()).resolves.toContain('Set a token in SkillAudit Options');
    const [options] = await Promise.all([
      browser.context.waitForEvent('page'),
      badge(page).locator('button.options').click(),
    ]);
    expect(options.url()).toBe(`chrome-extension://${browser.extensionId}/options.html`);
    await options.close();
    await page.close();
  } finally {
    await setSettings({ token: server.token });
  }
});

it('the Options page saves the server origin and token, and checks the server', async () => {
  await browser.worker.evaluate(() => (globalThis as unknown as WorkerGlobals).chrome.storage.local.clear());
  try {
    const page = await openPage(`chrome-extension://${browser.extensionId}/options.html`);
    await expect(page.locator('#server-url').inputValue()).resolves.toBe('http://127.0.0.1:8787');

    await page.locator('#server-url').fill('ftp://127.0.0.1/');
    await page.locator('button[type="submit"]').click();
    await expect(page.locator('#status').textContent()).resolves.toContain('http:// or https://');
    await expect(
      browser.worker.evaluate(() => (globalThis as unknown as WorkerGlobals).chrome.storage.local.get(null)),
    ).resolves.toEqual({});

    // A token the server does not know is not "Connected".
    await page.locator('#server-url').fill(server.origin);
    await page.locator('#token').fill('not-this-servers-token-0123');
    await page.locator('button[type="submit"]').click();
    await page.locator('#status', { hasText: 'the server refused the token' }).waitFor();
    await expect(page.locator('#status').textContent()).resolves.not.toContain('Connected');

    await page.locator('#server-url').fill(`${server.origin}/ignored/path`);
    await page.locator('#token').fill(` ${server.token} `);
    await page.locator('button[type="submit"]').click();
    const { version } = await api<{ version: string }>('/api/health');
    await page.locator('#status', { hasText: `Connected to SkillAudit ${version}` }).waitFor();
    await expect(
      browser.worker.evaluate(() => (globalThis as unknown as WorkerGlobals).chrome.storage.local.get(null)),
    ).resolves.toEqual({
      serverUrl: server.origin,
      token: server.token,
    });
    await page.reload();
    await expect(page.locator('#server-url').inputValue()).resolves.toBe(server.origin);
    await expect(page.locator('#token').inputValue()).resolves.toBe(server.token);
    await page.close();
  } finally {
    await setSettings({ serverUrl: server.origin, token: server.token });
  }
});

it('strings from a hostile page and from the server are shown as text, and no CSS crosses the badge', async () => {
  const page = await openPage(PAGES.clawHubHostile);
  await badge(page).and(page.locator('[data-state="failure"]')).waitFor();
  const slug = '<img src=x onerror="window.__pwned=1">';
  await expect(badge(page).locator('.name').textContent()).resolves.toBe(slug);
  // The server refuses the name and quotes it back in its error: that is shown as text too.
  await expect(badge(page).locator('.error').textContent()).resolves.toContain('<img src=x');
  await expect(page.locator('skillaudit-badge img').count()).resolves.toBe(0);
  await expect(page.evaluate(() => (globalThis as unknown as PageGlobals).__pwned)).resolves.toBeUndefined();

  // The page's `* { color: red !important }` and `div { font-size: 31px !important }` stay out of the badge...
  const inside = await badge(page).evaluate((node) => {
    const style = (globalThis as unknown as PageGlobals).getComputedStyle(node);
    return { color: style.color, fontSize: style.fontSize };
  });
  expect(inside).toEqual({ color: 'rgb(31, 35, 40)', fontSize: '13px' });
  // ...and the badge's `.badge` rule stays out of the page's own element of that class.
  const outside = await page.locator('#page-badge').evaluate((node) => {
    const style = (globalThis as unknown as PageGlobals).getComputedStyle(node);
    return { background: style.backgroundColor, borderLeft: style.borderLeftWidth };
  });
  expect(outside).toEqual({ background: 'rgb(0, 0, 255)', borderLeft: '0px' });
  await page.close();
});
