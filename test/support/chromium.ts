// Debian Chromium for the browser tests, launched with the flags DESIGN.md §10 lists for this machine.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** No user-namespace sandbox inside the test sandbox, no GPU, and no traffic of Chromium's own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A machine without Chromium fails the test with the fix; it never passes silently. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is required for this test and was not found at ${CHROMIUM}: apt-get install -y chromium`,
    );
  }
}

export function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', ...CHROMIUM_FLAGS] });
}

// The trap's globals as the page callbacks see them (the project compiles without DOM types).
interface TrapGlobals {
  __sprung: string[];
  __violations: string[];
  document: { addEventListener(type: string, listener: (e: { effectiveDirective: string }) => void): void };
}

/**
 * Injected by the browser driver, outside the page's CSP, before the page loads: any hostile payload that runs
 * and sets `__pwned` springs the trap, and every CSP violation is logged. Read both with `trapState`.
 */
export async function armTrap(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = globalThis as unknown as TrapGlobals;
    w.__sprung = [];
    w.__violations = [];
    Object.defineProperty(globalThis, '__pwned', {
      set: (v: unknown) => w.__sprung.push(String(v)),
      get: () => undefined,
    });
    w.document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.effectiveDirective));
  });
}

export function trapState(page: Page): Promise<{ sprung: string[]; violations: string[] }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as TrapGlobals;
    return { sprung: w.__sprung, violations: w.__violations };
  });
}

/**
 * Opens a self-contained page SkillAudit wrote (report.html, dashboard.html) from file:// in a new page with the
 * trap armed, and records in `problems` what such a page must never do: console errors or warnings, page
 * errors, and any request other than file: or data:.
 */
export async function openFilePage(
  browser: Browser,
  file: string,
  width = 1280,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`request: ${r.url()}`);
  });
  await armTrap(page);
  await page.goto(pathToFileURL(file).href);
  return { page, problems };
}
