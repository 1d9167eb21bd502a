import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';

// Debian Chromium with the production build of the extension loaded (wxt build extension).

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXTENSION_DIR = join(ROOT, 'extension/.output/chrome-mv3');

export function buildExtension(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/wxt/bin/wxt.mjs'), 'build', 'extension'], {
    cwd: ROOT,
    stdio: 'pipe',
  });
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
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is required for this test and was not found at ${CHROMIUM}: apt-get install -y chromium`,
    );
  }
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
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
