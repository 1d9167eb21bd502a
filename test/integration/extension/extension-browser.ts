import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../../support/chromium.js';

// Debian Chromium with the production build of the extension loaded. The extension is its own package
// (extension/package.json): its toolchain is installed by `npm ci --prefix extension`, not by the CLI's.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXTENSION_DIR = join(ROOT, 'extension/.output/chrome-mv3');

export function buildExtension(): void {
  const wxt = join(ROOT, 'extension/node_modules/wxt/bin/wxt.mjs');
  if (!existsSync(wxt)) {
    throw new Error(
      'the extension toolchain is missing: run `npm ci --prefix extension` before the extension tests',
    );
  }
  execFileSync(process.execPath, [wxt, 'build'], { cwd: join(ROOT, 'extension'), stdio: 'pipe' });
}

export interface ExtensionBrowser {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
}

export async function launchWithExtension(
  profileDir: string,
  extraArgs: string[],
): Promise<ExtensionBrowser> {
  requireChromium();
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      ...CHROMIUM_FLAGS,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      ...extraArgs,
    ],
  });
  const worker =
    context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
  const extensionId = new URL(worker.url()).host;
  return { context, worker, extensionId };
}
