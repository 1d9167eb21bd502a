// Credential and secret locations whose opening is evidence (PE3). Rules are data: id, pattern, what it is.
// Patterns match the absolute path as the sandboxed process named it.

export interface SensitivePathRule {
  id: string;
  pattern: RegExp;
  what: string;
}

export const SENSITIVE_PATH_RULES: readonly SensitivePathRule[] = [
  {
    id: 'ssh-key',
    pattern: /\/\.ssh\/(?!known_hosts|config$)[^/]+$/,
    what: 'SSH private key or agent material',
  },
  { id: 'aws-credentials', pattern: /\/\.aws\/(credentials|config)$/, what: 'AWS credentials' },
  { id: 'dotenv', pattern: /(^|\/)\.env(\.[\w.-]+)?$/, what: 'dotenv secrets file' },
  { id: 'netrc', pattern: /\/\.netrc$/, what: 'netrc login passwords' },
  {
    id: 'git-credentials',
    pattern: /\/\.git-credentials$|\/\.config\/git\/credentials$/,
    what: 'git credential store',
  },
  { id: 'kube-config', pattern: /\/\.kube\/config$/, what: 'Kubernetes credentials' },
  {
    id: 'database-client',
    pattern: /\/\.pgpass$|\/\.my\.cnf$|\/\.mylogin\.cnf$/,
    what: 'database client passwords',
  },
  { id: 'docker-config', pattern: /\/\.docker\/config\.json$/, what: 'Docker registry auth' },
  { id: 'npmrc', pattern: /\/\.npmrc$/, what: 'npm auth token' },
  { id: 'pypirc', pattern: /\/\.pypirc$/, what: 'PyPI credentials' },
  { id: 'gh-cli', pattern: /\/\.config\/gh\/hosts\.yml$/, what: 'GitHub CLI token' },
  { id: 'gcloud', pattern: /\/\.config\/gcloud\//, what: 'Google Cloud credentials' },
  { id: 'azure', pattern: /\/\.azure\//, what: 'Azure credentials' },
  { id: 'gnupg', pattern: /\/\.gnupg\//, what: 'GnuPG keyring' },
  {
    id: 'crypto-wallet',
    pattern:
      /\/\.ethereum\/keystore\/|\/\.electrum\/wallets\/|\/\.bitcoin\/(?:wallets\/|wallet\.dat$)|\/\.config\/solana\/id\.json$|\/\.config\/Exodus\/exodus\.wallet\//,
    what: 'cryptocurrency wallet keys',
  },
  {
    id: 'jupyter-kernel',
    pattern: /\/\.local\/share\/jupyter\/runtime\/kernel-[^/]*\.json$/,
    what: "a running notebook kernel's signing key",
  },
  {
    id: 'package-registry',
    pattern:
      /\/\.cargo\/credentials(?:\.toml)?$|\/\.gem\/credentials$|\/\.terraform\.d\/credentials\.tfrc\.json$/,
    what: 'package registry or Terraform token',
  },
  {
    id: 'browser-store',
    pattern:
      /\/(google-chrome|chromium|BraveSoftware|microsoft-edge)\/.*\/(Cookies|Login Data|Web Data)$|\/\.mozilla\/firefox\/.*\/(cookies\.sqlite|logins\.json|key4\.db)$/,
    what: 'browser cookie or password store',
  },
  { id: 'shell-history', pattern: /\/\.(bash|zsh)_history$/, what: 'shell history' },
  {
    id: 'agent-config',
    pattern: /\/\.(claude|codex)\/|\/\.config\/opencode\//,
    what: 'agent configuration or memory',
  },
  {
    id: 'system-secrets',
    pattern: /^\/etc\/(shadow|gshadow|sudoers)$/,
    what: 'system password or sudo file',
  },
];

export function matchSensitivePath(path: string): SensitivePathRule | null {
  for (const rule of SENSITIVE_PATH_RULES) if (rule.pattern.test(path)) return rule;
  return null;
}
