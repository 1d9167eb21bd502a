// Debian Chromium for the browser tests, launched with the flags DESIGN.md §10 lists for this machine.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
