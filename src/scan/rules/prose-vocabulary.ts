// Shared vocabulary of the prose rules, as regular-expression source: secret stores, conversation state,
// external destinations, risky hosts. Kept here so the rules read as sentences built from named parts.

/** Builds a case-insensitive expression from parts (so long rules can be written as readable pieces). */
export function rx(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'i');
}

/** Files and stores that hold credentials. Public keys and `.env.example` templates are not secrets. */
export const SECRET_FILE = String.raw`(?:(?:~|\$HOME|%USERPROFILE%|/home/[\w.-]+|/root|/Users/[\w.-]+)?/?\.ssh(?:/(?:id_[a-z0-9]+(?!\.pub)\b|[\w.-]*key\b(?!\.pub)|authorized_keys|\*)|/?(?=[\s"'\x60),;:]|$))|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws/(?:credentials|config)\b|~/\.aws(?=[\s"'\x60),;:]|/?$)|\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.kube/config\b|\bkubeconfig\b|application_default_credentials\.json|\.config/gcloud\b|\.azure/(?:accessTokens|msal_token_cache)|\.config/gh/hosts\.yml|/etc/shadow\b|\.(?:bash|zsh)_history\b|(?<![\w.$])\.env(?!\.(?:example|sample|template|dist|defaults)\b)(?:\.[\w-]+)?\b|wallet\.dat|\bkeychains?\b|login\.keychain|\bLogin Data\b|\bcookies\.sqlite\b|\bbrowser (?:cookies|passwords|(?:saved )?(?:credentials|logins))\b|\bsaved passwords\b|\bkeystore\b|\bseed phrases?\b|\b(?:metamask|phantom|exodus) (?:vault|wallet)\b)`;

/** Secret values named in prose. */
export const SECRET_WORD = String.raw`(?:\bapi[_ -]?keys?\b|\baccess[_ -]?tokens?\b|\bauth(?:entication)?[_ -]?tokens?\b|\bsecret[_ -]?keys?\b|\bsecrets\b|\bcredentials?\b|\bpasswords?\b|\bprivate[_ -]?keys?\b|\bssh[_ -]?keys?\b|\bsession (?:cookies|tokens)\b|\bcookies\b|\bbearer tokens?\b|\btokens\b|\bseed phrases?\b|\bmnemonics?\b|\brecovery phrases?\b|\benvironment variables\b|\benv vars\b|\b[A-Z0-9]+_(?:API_)?(?:KEY|TOKEN|SECRET)\b)`;

/** The agent's own context: prompt, conversation, memory, other skills. */
export const CONTEXT_OBJECT = String.raw`(?:\bsystem (?:prompt|message|instructions)\b|\b(?:your|the agent'?s?|the assistant'?s?) (?:initial |original |hidden |full |complete |entire )?(?:instructions|prompt|context|configuration)\b|\bdeveloper (?:message|prompt)\b|\b(?:the |this |full |entire |whole |complete |current )?(?:conversation|chat|session)(?:'s)?(?: history| log| transcript| contents?)\b|\b(?:entire|full|whole|complete) (?:conversation|chat)\b|\bconversation\b(?= (?:so far|to|into))|\bmessage history\b|\bprevious (?:messages|turns)\b|\bcontext window\b|\b(?:your|agent|long[- ]term|persistent) memor(?:y|ies)\b|\bMEMORY\.md\b|\b(?:all |the |other |installed )+skills?(?:'s?)? (?:contents?|files|instructions|definitions|SKILL\.md)\b|~/\.claude\b|\.claude/(?:skills|projects|settings)\b)`;

/**
 * Somewhere outside the user's machine and control. An address's local part is tried only from the first word
 * character of its run (the lookbehind): from any later start the same run must reach the same '@', so the
 * match is unchanged, and a long run with no '@' is read once instead of once per start (quadratic).
 */
export const EXTERNAL_DESTINATION = String.raw`(?:https?://(?!(?:localhost|127\.|0\.0\.0\.0|\[::1\]|example\.(?:com|org|net)\b|your[-.]))|\b(?:\d{1,3}\.){3}\d{1,3}\b|\bwebhooks?\b|\b(?<!\w[.+-]*)[\w.+-]+@(?!example\.)[\w-]+\.[a-z]{2,}\b|\bpastebin\b|\bpaste (?:site|service)\b|\bhastebin\b|\bgists?\b|\bdiscord\b|\btelegram\b|\bngrok\b|\brequestbin\b|\bpipedream\b|\bwebhook\.site\b|\b(?:remote|external|third[- ]party|attacker'?s?|collection|logging|telemetry|backup|analytics|c2|command[- ]and[- ]control) (?:server|host|endpoint|url|service|address|collector|api)\b|\b(?:our|my|this|a|the) (?:server|endpoint|collector|backend)\b|\bthe following (?:url|address|endpoint|email)\b|\bftp\b)`;

/** A destination the user owns and configured: uploading there is the skill's job, not exfiltration. */
export const USER_OWNED_DESTINATION = String.raw`\b(?:(?:the )?user'?s|your|their|(?:user|pre)[- ]?configured|configured|own|designated|specified|provided) (?:own )?(?:[\w-]+ ){0,3}(?:bucket|server|endpoint|account|drive|folder|repo|repository|workspace|database|instance|project|channel|inbox|address|storage|container|site|cluster|service)\b`;

/** Paste and anonymous file hosts: where malware campaigns park their second stage. */
export const PASTE_HOST = String.raw`(?:pastebin\.com|paste\.ee|glot\.io|rentry\.(?:co|org)|hastebin\.\w+|ghostbin\.\w+|dpaste\.\w+|controlc\.com|justpaste\.it|privatebin\.\w+|termbin\.com|ix\.io|sprunge\.us|gist\.githubusercontent\.com|transfer\.sh|file\.io|anonfiles\.\w+|mega\.nz|mediafire\.com|cdn\.discordapp\.com|telegra\.ph|temp\.sh|0x0\.st|catbox\.moe|pixeldrain\.com|gofile\.io)`;

export const URL_SHORTENER = String.raw`(?:\bbit\.ly|\btinyurl\.com|\bt\.co|\bgoo\.gl|\bis\.gd|\bcutt\.ly|\brb\.gy|\bshorturl\.at|\bow\.ly|\bbuff\.ly|\bt\.ly|\btiny\.cc|\bs\.id|\bv\.gd|\brebrand\.ly|\bshort\.io)/`;

/** A URL whose host is a public IP address (private and loopback ranges are local services). */
export const RAW_IP_URL = String.raw`(?:https?|ftp)://(?!(?:127|10|0)\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)(?:\d{1,3}\.){3}\d{1,3}`;

/** Installers many real projects document with `curl | sh`: still remote code, but from the vendor itself. */
export const VENDOR_INSTALLER = String.raw`(?:sh\.rustup\.rs|get\.docker\.com|raw\.githubusercontent\.com/(?:nvm-sh|Homebrew|ohmyzsh|pyenv)/|bun\.sh/|deno\.land/|astral\.sh/|install\.python-poetry\.org|ollama\.com/|claude\.ai/install|get\.pnpm\.io|fnm\.vercel\.app|volta\.sh|starship\.rs|get\.sdkman\.io|brew\.sh|tailscale\.com/install|fly\.io/install|deb\.nodesource\.com|rpm\.nodesource\.com|get\.helm\.sh|sdk\.cloud\.google\.com|aka\.ms/install|cli\.doppler\.com|supabase\.com|vercel\.com|railway\.app|opencode\.ai/install|foundry\.paradigm\.xyz|install\.determinate\.systems|nixos\.org|mise\.run|get\.k3s\.io)`;

/** Commands that fetch a URL. */
export const FETCH_CMD = String.raw`(?:\bcurl\b|\bwget\b|\biwr\b|\birm\b|\bInvoke-WebRequest\b|\bInvoke-RestMethod\b|\bfetch\b)`;

/**
 * An interpreter at the receiving end of a pipe that runs what it reads. Given a module, a script file or
 * inline code (`| python -m json.tool`, `| python3 parse.py`, `| sh -c '…'`, `| node -e …`), it reads the
 * download as data instead.
 */
export const SHELL_SINK = String.raw`\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|Invoke-Expression|pwsh|powershell)\b(?!\s+(?:-(?:m|c|e|ne|pe|r|E)\b|(?!-)[^\s|;&]+\.(?:py|pyw|js|mjs|cjs|ts|pl|rb|php|sh|bash|ps1)\b))`;

/** Free dynamic-DNS and tunnel hosts: anyone can point one at any machine in a minute. */
export const DYNAMIC_DNS_HOST = String.raw`(?:[\w-]+\.(?:duckdns\.org|no-ip\.(?:com|org|biz|info)|ddns\.net|hopto\.org|zapto\.org|sytes\.net|dynu\.net|servebeer\.com|serveftp\.com|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me))`;

/** Plain http to a public host: the script can be swapped on the wire, and nobody vouches for it. */
export const PLAIN_HTTP_URL = String.raw`\bhttp://(?!(?:localhost|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|example\.(?:com|org|net)\b|host\.docker\.internal|[\w.-]+\.(?:local|internal|lan|test|localhost)\b))[\w-]+(?:\.[\w-]+)+`;

/** Where code comes from with no reputation at all: raw IPs, paste sites, shorteners, dynamic DNS, plain http. */
export const NO_REPUTATION_SOURCE = `(?:${PASTE_HOST}|${URL_SHORTENER}|${RAW_IP_URL}|${DYNAMIC_DNS_HOST}|${PLAIN_HTTP_URL})`;

/** Request catchers and interaction loggers: a URL anyone creates to receive and read what is sent to it. */
export const REQUEST_CATCHER = String.raw`(?:webhook\.site|requestbin\.\w+|pipedream\.net|interact\.sh|oast\.\w+|burpcollaborator\.net|beeceptor\.com|hookbin\.com|requestcatcher\.com|webhookrelay\.com)`;

/**
 * Free hosting and app platforms: anyone gets `<name>.<platform>` in a minute, under the platform's
 * reputation. Sources: the ClawHavoc samples (openclawcli.vercel.app), abuse reports on phishing kits hosted
 * on app platforms (Netlify, Vercel, Pages, Workers, Glitch, Firebase, Render, Replit), and the dynamic-DNS
 * and tunnel hosts above.
 */
export const FREE_HOSTING_SUFFIXES: readonly string[] = [
  'vercel.app',
  'netlify.app',
  'netlify.com',
  'pages.dev',
  'workers.dev',
  'r2.dev',
  'glitch.me',
  'herokuapp.com',
  'github.io',
  'gitlab.io',
  'web.app',
  'firebaseapp.com',
  'onrender.com',
  'fly.dev',
  'replit.app',
  'repl.co',
  'surge.sh',
  'azurewebsites.net',
  'blogspot.com',
  'wixsite.com',
  'weebly.com',
  '000webhostapp.com',
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'trycloudflare.com',
  'duckdns.org',
  'ddns.net',
  'no-ip.org',
  'serveo.net',
  'loca.lt',
];

/** Free-hosting platform a host is a subdomain of, if any. */
export function freeHostOf(host: string): string | undefined {
  return FREE_HOSTING_SUFFIXES.find((s) => host.endsWith(`.${s}`));
}
