import { readFileSync } from 'node:fs';

// Read once from package.json so that --version and reports never drift from the published version.
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
export const VERSION: string = pkg.version;
