// `npm test` runs this first (package.json "pretest"): what the tests need that `npm ci` did not install. The
// browser extension is its own package (its toolchain stays out of the CLI's install), so its dependencies are
// installed here when they are missing or older than its lock file.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const extension = join(import.meta.dirname, '..', 'extension');
const marker = join(extension, 'node_modules', '.package-lock.json');
const lock = join(extension, 'package-lock.json');
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
  process.stderr.write('npm test: installing the browser extension package (npm ci --prefix extension)\n');
  execFileSync('npm', ['ci', '--prefix', extension, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}
