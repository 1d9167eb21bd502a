import { readFileSync } from 'node:fs';
import { defineConfig } from 'wxt';

// The extension ships the CLI's version so a bug report names one number for both.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  // Explicit imports: every module says where defineBackground, browser etc. come from, and the sources type-check
  // with a plain tsconfig (no generated .wxt/ types needed).
  imports: false,
  // `wxt zip extension` names the upload after the product, not the checkout folder.
  zip: { name: 'skillaudit-extension' },
  manifest: {
    name: 'SkillAudit',
    description:
      'Shows the SkillAudit verdict on agent-skill pages (GitHub, skills.sh, ClawHub) and audits a skill on request.',
    version,
    // storage: the server URL and token. Nothing else: no tabs, no scripting, no broad host access.
    permissions: ['storage'],
    // The default server is local. Any other server's origin is asked for at run time, one origin at a time, from
    // the Options page (optional_host_permissions), so the install prompt never asks for "all sites".
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
  },
});
