// Official installers that tools publish for `curl … | sh`: the vendor's own script from the vendor's own
// host. A run that fetched only these and ran what arrived installed the tool the way its documentation says;
// that is shown and leaves SC2 suspected, never confirmed. Host and path both must match: anyone can put a
// script on raw.githubusercontent.com, so only the vendors' own repositories there count.

export interface VendorInstaller {
  tool: string;
  host: string;
  /** The path the installer is served at; any path on the host when absent. */
  path?: RegExp;
}

export const VENDOR_INSTALLERS: readonly VendorInstaller[] = [
  { tool: 'uv', host: 'astral.sh', path: /^\/(uv|ruff)\// },
  { tool: 'rustup', host: 'sh.rustup.rs' },
  { tool: 'Docker', host: 'get.docker.com' },
  { tool: 'Deno', host: 'deno.land', path: /^\/install\.(sh|ps1)$/ },
  { tool: 'Bun', host: 'bun.sh', path: /^\/install(\.ps1)?$/ },
  { tool: 'pnpm', host: 'get.pnpm.io', path: /^\/install\.(sh|ps1)$/ },
  { tool: 'Poetry', host: 'install.python-poetry.org' },
  { tool: 'pyenv', host: 'pyenv.run' },
  { tool: 'SDKMAN', host: 'get.sdkman.io' },
  { tool: 'Ollama', host: 'ollama.com', path: /^\/install\.(sh|ps1)$/ },
  { tool: 'Claude Code', host: 'claude.ai', path: /^\/install\.(sh|ps1|cmd)$/ },
  { tool: 'Homebrew', host: 'raw.githubusercontent.com', path: /^\/Homebrew\/install\// },
  { tool: 'nvm', host: 'raw.githubusercontent.com', path: /^\/nvm-sh\/nvm\// },
  { tool: 'Helm', host: 'raw.githubusercontent.com', path: /^\/helm\/helm\/[^/]+\/scripts\/get(-helm-3)?$/ },
  { tool: 'Starship', host: 'starship.rs', path: /^\/install\.sh$/ },
  { tool: 'fnm', host: 'fnm.vercel.app', path: /^\/install$/ },
  { tool: 'Google Cloud SDK', host: 'sdk.cloud.google.com' },
];

/** The vendor installer a download is (`GET astral.sh/uv/install.sh`), or null. */
export function vendorInstaller(host: string, path: string): VendorInstaller | null {
  const h = host.toLowerCase();
  const p = path.split('?')[0] ?? '';
  return VENDOR_INSTALLERS.find((v) => v.host === h && (!v.path || v.path.test(p))) ?? null;
}
