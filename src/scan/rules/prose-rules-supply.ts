import { negated, type PhraseRule } from './prose-phrase.js';
import {
  FETCH_CMD,
  NO_REPUTATION_SOURCE,
  PASTE_HOST,
  RAW_IP_URL,
  rx,
  SHELL_SINK,
  URL_SHORTENER,
  VENDOR_INSTALLER,
} from './prose-vocabulary.js';

// Supply-chain and privilege rules over prose and inline code: remote scripts and lures (SC2), encoded
// commands (SC3), unverifiable install sources (SC5), broad permission requests (PE1), sudo and root (PE2).

const SHADY_SOURCE = `(?:${PASTE_HOST}|${URL_SHORTENER}|${RAW_IP_URL})`;
const RUN_VERB = String.raw`\b(?:run|execute|launch|open|install|start|double-click|paste\s+(?:it\s+|this\s+)?into\s+(?:your|the|a)\s+terminal|chmod\s+\+x|bash|sh|source)\b`;
// A literal password given next to the archive ("password: infected", "pass 1234").
const ARCHIVE_PASSWORD = String.raw`\bpass(?:word|phrase|code)?\b\s*(?::|=|is|-)\s*["'\x60“]?[\w!@#$%^&*.-]{3,}|\bpassword\s+["'\x60“][^"'\x60”\s]{3,}["'\x60”]`;

export const remoteScriptLure: PhraseRule = {
  id: 'md.remote-script-lure',
  pattern: 'SC2',
  message:
    'Text has the agent or user fetch and run remote code (curl | sh, a paste site, a raw IP, an archive with a password).',
  help: 'Code fetched at run time is not the code that was reviewed, and paste sites, raw IPs, URL shorteners and password-protected archives are how malware campaigns deliver their second stage. Vendor the script into the skill, or pin a checksum and a trusted source.',
  mention: 1,
  framing: { 'user-action': 0.8, example: 0.5 },
  variants: [
    {
      all: [rx(FETCH_CMD, String.raw`[^\n|;]{0,300}?`, SHELL_SINK)],
      base: 0.8,
      why: 'pipes downloaded code into an interpreter',
    },
    {
      all: [
        rx(
          String.raw`\b(?:ba|z|da|k)?sh\s+(?:-c\s+)?["']?\s*(?:<\(|\$\()\s*`,
          FETCH_CMD,
          String.raw`|\b(?:iex|Invoke-Expression)\s*\(?\s*(?:\(?\s*New-Object\s+(?:System\.)?Net\.WebClient\)?\.DownloadString|\(?\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod))`,
        ),
      ],
      base: 0.8,
      why: 'runs downloaded code through a shell',
    },
    {
      all: [
        rx(String.raw`\b(?:download|get|fetch|grab|obtain|save|visit|go\s+to|open|copy)\b`),
        rx(SHADY_SOURCE),
        rx(RUN_VERB),
      ],
      base: 0.9,
      why: 'sends the reader to run something from a paste site, shortener or raw IP',
    },
    {
      all: [
        rx(
          String.raw`\b(?:prerequisites?|before\s+(?:using|you|running|installing|starting)|setup\s+required|required\s+(?:step|setup|component|dependency)|must\s+(?:first\s+)?(?:install|download|run)|first,?\s+(?:install|download|run)|requires?\s+(?:the\s+)?\w+\s+(?:agent|helper|driver|component|utility))`,
        ),
        rx(SHADY_SOURCE),
      ],
      base: 0.85,
      why: 'a "prerequisite" step pointing at a paste site, shortener or raw IP',
    },
    {
      all: [
        rx(
          String.raw`\b(?:download|fetch|get)\s+(?:\S+\s+){0,6}?https?://\S+\.(?:exe|msi|dmg|pkg|sh|ps1|bat|bin|appimage|zip|tar\.gz|tgz|jar|scr|vbs|command)\b`,
        ),
        rx(String.raw`\b(?:run|execute|launch|open|install|double-click)\b`),
      ],
      base: 0.6,
      why: 'downloads a program to run',
    },
  ],
  adjust: [
    { re: rx(SHADY_SOURCE), factor: 1.15, why: 'from a paste site, URL shortener or raw IP' },
    {
      // Source reputation: with no one behind the host, who was told to run it does not make it safer.
      re: rx(
        FETCH_CMD,
        String.raw`[^\n|;]{0,200}?`,
        NO_REPUTATION_SOURCE,
        String.raw`[^\n|;]{0,200}?`,
        SHELL_SINK,
      ),
      factor: 1.15,
      framing: { 'user-action': 1 },
      why: 'the source has no reputation (raw IP, plain http, paste site or dynamic DNS)',
    },
    { re: rx(VENDOR_INSTALLER), factor: 0.55, why: 'the vendor’s own installer' },
    negated('run|execute|pipe|use|download|paste|curl|wget'),
    {
      re: rx(
        String.raw`\b(?:do\s+not|don'?t|never|avoid)\s+(?:use|run|pipe|trust|follow|copy)\s+(?:them|these|this|that|it|such|those)\b`,
      ),
      factor: 0.15,
      why: 'the sentence warns against it',
    },
  ],
};

export const encodedCommand: PhraseRule = {
  id: 'md.encoded-command',
  pattern: 'SC3',
  message: 'Text has a command decoded from base64 or hex and run, hiding what it does.',
  help: 'Decoding a blob and piping it to a shell hides the command from the reader and from review; it is the signature of the ClawHub-style lures. Write the command in the clear.',
  mention: 1,
  framing: { 'user-action': 0.85, example: 0.5 },
  variants: [
    {
      all: [
        rx(
          String.raw`\b(?:base64\s+(?:-d|-D|--decode)|openssl\s+(?:base64|enc)\s+(?:-\S+\s+)*-d|xxd\s+-r|certutil\s+-decode|FromBase64String|b64decode|atob)\b[^\n]{0,200}?(?:\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\|\s*(?:python[0-9.]*|perl|ruby|node|iex|pwsh|powershell)\b|\beval\b|\bexec\b|Invoke-Expression|\biex\b)`,
        ),
      ],
      base: 0.9,
      why: 'decodes a payload and runs it',
    },
    {
      all: [
        rx(
          String.raw`(?:\beval\b|\bexec\b|\biex\b|Invoke-Expression|\b(?:ba)?sh\s+-c)\s*[("'$]*\s*(?:\$\()?\s*(?:echo\s+\S+\s*\|\s*)?(?:base64\s+(?:-d|-D|--decode)|xxd\s+-r)`,
        ),
      ],
      base: 0.9,
      why: 'runs a decoded payload',
    },
    {
      all: [rx(String.raw`\b(?:echo|printf)\s+["']?[A-Za-z0-9+/=]{40,}["']?\s*\|\s*(?:base64|openssl)\b`)],
      base: 0.7,
      why: 'decodes a long base64 blob in a command',
    },
    {
      // Steps in words around an opaque blob: "decode it from base64 and follow the decoded instructions",
      // "XOR each byte with 0x5A, then execute the result". What the blob says cannot be reviewed; that the
      // agent is told to obey it can.
      all: [
        rx(
          String.raw`(?:\b(?:decode|decrypt|deobfuscate|unscramble|xor|rot-?13|base64\s+-d)\w*\b|\b(?:reverse|join|concatenate|reassemble|combine|unpack)\w*\s+(?:the\s+|these\s+|those\s+)?(?:\w+\s+)?(?:strings?|fragments?|parts|pieces|chunks|bytes|characters|segments|blobs?)\b)[^.;]{0,160}?\b(?:follow|execute|run|obey|apply|carry\s+out|perform|act\s+on|eval(?:uate)?|pipe|paste)\s+(?:(?:exactly|all|every|each)\s+)?(?:it|them|this|that|these|the\s+(?:decoded|resulting|result(?:ing)?|output|plain(?:text)?|hidden|embedded|recovered)\b|the\s+(?:result|output|payload|command|commands|script|instructions?|steps?)\b|whatever\b)(?!\s+through\b)`,
        ),
      ],
      base: 0.85,
      why: 'tells the agent to decode an opaque blob and obey or run what it says',
    },
    {
      // In-memory loaders run code that never touches the disk, out of reach of review and antivirus.
      all: [
        rx(
          String.raw`\b(?:run|runs|running|start|launch|execute|use|uses|invoke|load|loads|inject|injects|call|fetch\w*)\b`,
        ),
        rx(
          String.raw`\bInvoke-(?:ReflectivePEInjection|Shellcode|ReflectiveDLLInjection)\b|\bReflection\.Assembly\]::Load(?:File)?\s*\(|\bexecute-assembly\b|\bsRDI\b|\bmemfd_create\b|\bVirtualAlloc(?:Ex)?\b[^\n]{0,200}?\b(?:CreateThread|CreateRemoteThread)\b|\bshellcode\s+(?:runner|loader|injector)\b|\breflective(?:ly)?\s+(?:dll\s+|pe\s+)?(?:load|inject)\w*`,
        ),
      ],
      base: 0.8,
      why: 'loads code straight into memory, where it is never reviewed or scanned',
    },
  ],
  adjust: [
    negated(String.raw`(?:run|execute|use|load|inject|invoke|decode|pipe|follow|obey)\b`),
    {
      // A detection guide names the loaders attackers use.
      re: rx(
        String.raw`\b(?:detects?|detection|alerts?\s+(?:on|when)|attackers?|adversar(?:y|ies)|threat\s+actors?|mitre|indicators?|iocs?|hunt(?:ing)?|monitor(?:s|ing)?\s+for|looks?\s+for)\b`,
      ),
      factor: 0.3,
      why: 'describes what attackers do or a tool detects',
    },
  ],
};

export const unverifiableInstall: PhraseRule = {
  id: 'md.unverifiable-install-source',
  pattern: 'SC5',
  message:
    'Text installs from an unverifiable source: a raw URL or IP, a custom index, or a password-protected archive.',
  help: 'Packages from a custom index, a raw URL or IP, an unpinned git URL or a password-protected archive bypass the registry’s provenance and cannot be reviewed. Install from the public registry with a pinned version.',
  mention: 1,
  framing: { 'user-action': 0.7, example: 0.5 },
  variants: [
    {
      all: [
        rx(
          String.raw`\b(?:pip3?|uv\s+pip|pipx|python[0-9.]*\s+-m\s+pip|poetry\s+source\s+add)\b[^\n|;]{0,200}?(?:--(?:extra-)?index-url|\s-i)\s*=?\s*(?!https://(?:pypi\.org|test\.pypi\.org|download\.pytorch\.org))\S+|--trusted-host\b`,
        ),
      ],
      base: 0.7,
      why: 'installs from a custom package index',
    },
    {
      all: [
        rx(
          String.raw`\b(?:pip3?|uv\s+pip|pipx|npm|pnpm|yarn|bun|gem|cargo|go)\s+(?:install|i|add|get)\b[^\n|;]{0,120}?(?:https?://|git\+|git@|${RAW_IP_URL})(?![^\s]*(?:@|#|/tree/|/commit/)[0-9a-f]{7,40}\b)`,
        ),
      ],
      base: 0.6,
      why: 'installs a package from a URL instead of the registry',
    },
    {
      all: [
        rx(
          String.raw`\b(?:npm|pnpm|yarn)\s+(?:config\s+set\s+(?:@[\w-]+:)?registry|(?:install|i|add)\b[^\n]{0,120}--registry)\s*[= ]\s*(?!https://registry\.(?:npmjs\.org|yarnpkg\.com))\S+`,
        ),
      ],
      base: 0.65,
      why: 'installs from a custom npm registry',
    },
    {
      all: [rx(String.raw`\b(?:download|install|get|fetch|curl|wget|pip|npm)\b`), rx(RAW_IP_URL)],
      base: 0.8,
      why: 'downloads from a raw IP address',
    },
    {
      all: [
        rx(
          String.raw`\b(?:zip|rar|7z|7-zip|archive|compressed|extract|unzip|unpack|unrar|\.zip|\.rar|\.7z)\b`,
        ),
        rx(ARCHIVE_PASSWORD),
      ],
      base: 0.85,
      why: 'a password-protected archive, which scanners cannot open',
    },
    {
      all: [rx(String.raw`\bpassword[- ]protected\s+(?:zip|archive|rar|7z|file|download)`)],
      base: 0.65,
      why: 'a password-protected archive, which scanners cannot open',
    },
    {
      all: [rx(String.raw`\b(?:download|install|get|fetch)\b[^\n]{0,80}?(?:${PASTE_HOST}|${URL_SHORTENER})`)],
      base: 0.75,
      why: 'downloads from a paste site or URL shortener',
    },
  ],
  adjust: [
    {
      re: rx(
        // Whose choice: "the user's own password", not an audience ("Windows users: download …").
        String.raw`\b(?:user'?s\s+(?:own\s+)?(?:password|passphrase|key|source|index|registry|mirror|choice)|your\s+own|(?:provided|set|supplied)\s+by\s+the\s+user|chosen|of\s+your\s+choice|encrypt\w*)\b`,
      ),
      factor: 0.3,
      why: 'the user chooses the password or source',
    },
    { re: rx(VENDOR_INSTALLER), factor: 0.6, why: 'a known vendor source' },
    {
      re: rx(String.raw`\b(?:curl|wget|pip3?|npm|install|download)\b[^\n]{0,200}?`, NO_REPUTATION_SOURCE),
      factor: 1.1,
      framing: { 'user-action': 0.95 },
      why: 'the source has no reputation (raw IP, plain http, paste site or dynamic DNS)',
    },
    negated('install|download|use|add|trust'),
  ],
};

export const dangerousPermissionRequest: PhraseRule = {
  id: 'md.dangerous-permission-request',
  pattern: 'PE1',
  message:
    'Text asks for broad permissions: skipping permission prompts, full disk access, world-writable files.',
  help: 'Running the agent with its permission checks off, or granting full disk access, gives every instruction in the session (including injected ones) the run of the machine. Ask for the narrow permission the task needs.',
  mention: 1,
  framing: { 'user-action': 0.55 },
  variants: [
    {
      all: [
        rx(
          String.raw`--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b|\bbypassPermissions\b|--allow-all-tools\b|--full-auto\b|--dangerously-\w+`,
        ),
      ],
      base: 0.6,
      why: 'runs the agent with its permission checks off',
    },
    {
      all: [
        rx(
          String.raw`\b(?:grant|give|enable|allow|request|needs?|requires?|turn\s+on)\s+(?:\w+\s+){0,3}?(?:full\s+disk\s+access|unrestricted\s+(?:access|permissions?)|full\s+(?:system|root|admin(?:istrator)?|file\s?system|computer)\s+(?:access|permissions?|privileges?|control)|all\s+permissions|accessibility\s+(?:access|permissions?)|screen\s+recording\s+permissions?)\b`,
        ),
      ],
      base: 0.7,
      why: 'asks for machine-wide access',
    },
    {
      all: [
        rx(
          String.raw`\b(?:Bash|Write|Edit|MultiEdit|Read|WebFetch|Shell|mcp__[\w-]+)\(\s*\*(?::\*)?\s*\)|"defaultMode"\s*:\s*"bypassPermissions"|["']allow["']\s*:\s*\[\s*["']\*["']`,
        ),
      ],
      base: 0.7,
      why: 'pre-approves a tool for any input',
    },
    {
      // A privileged container or the host's root mounted inside one is the whole machine.
      all: [
        rx(
          String.raw`\bdocker\s+(?:container\s+)?(?:run|create|exec)\b[^\n|;]{0,200}?(?:--privileged\b|--pid[= ]host\b|--cap-add[= ](?:ALL|SYS_ADMIN)\b|(?:-v|--volume)[= ]/:|--mount\s+\S*(?:source|src)=/(?:,|\s))|\bprivileged\s+(?:mode\s+)?containers?\b|\b(?:mount|mounts|mounting|mounted|bind[- ]mount\w*)\s+(?:\w+\s+){0,3}?(?:the\s+)?host(?:'s)?\s+(?:root(?:\s+(?:file\s?system|directory|folder))?|entire\s+file\s?system|whole\s+file\s?system|/)\b|\bhost\s+root\s+(?:file\s?system\s+)?mount(?:ed)?\b`,
        ),
      ],
      base: 0.65,
      why: 'runs a privileged container or mounts the host’s root',
    },
    {
      all: [rx(String.raw`\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|ugo\+rwx|o\+w)\b`)],
      base: 0.6,
      why: 'makes files world-writable',
    },
  ],
  adjust: [
    negated('use|run|pass|grant|give|enable|allow|chmod'),
    {
      re: rx(
        String.raw`\b(?:avoid|never|no|not|without|instead\s+of|rather\s+than)\s+(?:\w+\s+){0,2}?privileged\b`,
      ),
      factor: 0.15,
      why: 'the sentence rules privileged containers out',
    },
  ],
};

export const privilegeEscalation: PhraseRule = {
  id: 'md.privilege-escalation',
  pattern: 'PE2',
  message: 'Text tells the agent to use sudo, su or root, or to write system directories.',
  // Telling the user to install a system package with sudo is their own decision on their machine.
  framing: { 'user-action': 0.15 },
  help: 'A skill rarely needs root. Running as root lets any mistake or injected instruction change the whole system. Drop sudo, or leave installing system packages to the user.',
  mention: 1,
  variants: [
    {
      // "approve any sudo prompt" names sudo, it does not run it.
      all: [
        rx(
          String.raw`(?<![\w-])sudo\s+(?!-[lkvV]\b)(?!(?:or|and|nor|prompts?|passwords?|access|rights|privileges?|permissions?|group|mode|dialogs?|requests?|rules?|session|timeouts?|is|are|will|may|might|can|when|if)\b)(?:-\S+\s+)*[\w./-]+`,
        ),
      ],
      base: 0.7,
      why: 'runs a command with sudo',
    },
    {
      all: [
        rx(
          String.raw`\b(?:run|execute|start|launch|invoke|open)\s+(?:\w+\s+){0,4}?(?:as|with)\s+(?:root|sudo|superuser|admin(?:istrator)?|elevated\s+(?:privileges|permissions|rights)|administrator\s+privileges)\b`,
        ),
      ],
      base: 0.7,
      why: 'runs as root or administrator',
    },
    {
      all: [
        rx(
          String.raw`\b(?:use|using|with|via|needs?|requires?)\s+(?:sudo|root\s+(?:access|privileges|permissions|rights)|administrator\s+(?:rights|privileges|access))\b`,
        ),
      ],
      base: 0.55,
      why: 'asks for root privileges',
    },
    {
      all: [rx(String.raw`(?<![\w-])su\s+(?:-\s+|-c\s+|root\b|-l\b)`)],
      base: 0.7,
      why: 'switches to root with su',
    },
    {
      all: [
        rx(
          String.raw`\bchmod\s+(?:[ugoa]*\+s|[4267][0-7]{3})\b|\b(?:set|add|enable|give|make)\s+(?:\w+\s+){0,3}?(?:the\s+)?setuid(?:\s+bit)?\b|/etc/sudoers|\bNOPASSWD\b`,
        ),
      ],
      base: 0.75,
      why: 'grants lasting root (setuid, sudoers)',
    },
    {
      all: [
        rx(
          String.raw`\b(?:write|copy|install|save|place|move|edit|modify|append|put)\s+(?:\S+\s+){0,4}?(?:to|into|in|under)\s+(?:/etc/|/usr/(?:local/)?(?:s?bin|lib)|/System/|/Library/(?!Caches)|/boot/|C:\\Windows)`,
        ),
      ],
      base: 0.55,
      why: 'writes into a system directory',
    },
  ],
  adjust: [
    {
      re: rx(
        String.raw`\bsudo\s+(?:-\S+\s+)*(?:apt(?:-get)?|yum|dnf|pacman|zypper|apk|port|snap|dpkg|rpm|installer|npm\s+(?:install|i)\s+-g|pip3?\s+install|gem\s+install)\b`,
      ),
      factor: 0.6,
      why: 'installs a system package',
    },
    {
      re: rx(
        String.raw`\bsudo\s+(?:-\S+\s+)*(?:rm|chmod|chown|tee|dd|mount|visudo|usermod|useradd|sh|bash|su|sysctl|iptables|launchctl|passwd|cp\s+\S+\s+/etc)\b|/etc/sudoers|NOPASSWD`,
      ),
      factor: 1.25,
      why: 'changes the system as root',
    },
    negated('use|run|need|require|execute'),
    {
      // A downloaded script run as root is the skill's lure, not the user's own package choice.
      re: rx(
        FETCH_CMD,
        String.raw`[^\n;]{0,300}?\|\s*sudo\s+(?:-\S+\s+)*(?:(?:ba|z|da|k)?sh|python[0-9.]*|perl|ruby|node)\b`,
      ),
      factor: 2.2,
      // Root for a fetched script is the skill's lure, not the user's own package choice.
      framing: { 'user-action': 0.6 },
      why: 'runs a downloaded script as root',
    },
    {
      // "Tutorials that say `curl … | sudo bash`": reports what others advise, as a warning does.
      re: rx(
        String.raw`\b(?:tutorials?|guides?|blog\s*posts?|blogs?|posts?|readmes?|articles?|answers?|forums?|sites?|people|strangers|some\s+(?:docs|projects|vendors))\s+(?:that\s+|which\s+|who\s+)?(?:say|says|tell|tells|suggest|suggests|recommend|recommends|show|shows|advise|advises|often\s+(?:say|suggest|show))\b`,
      ),
      factor: 0.3,
      why: 'reports what others advise',
    },
    {
      re: rx(
        String.raw`\bonly\s+(?:if|when)\s+(?:the\s+)?user\b|\b(?:if|when)\s+the\s+user\s+(?:explicitly\s+)?(?:asks|requests|approves)`,
      ),
      factor: 0.3,
      why: 'only at the user’s request',
    },
    {
      re: rx(
        String.raw`\b(?:when|if|whether|unless|while)\s+(?:\w+\s+){0,2}?(?:run|running|executed|started|launched)\s+as\s+root\b`,
      ),
      factor: 0.4,
      why: 'describes what happens under root',
    },
    {
      re: rx(
        String.raw`\b(?:never|not|no|without)\s+(?:with\s+|using\s+|via\s+|requiring\s+|needing\s+)?(?:sudo|root)\b`,
      ),
      factor: 0.1,
      why: 'the sentence rules sudo out',
    },
  ],
};

export const supplyRules: readonly PhraseRule[] = [
  remoteScriptLure,
  encodedCommand,
  unverifiableInstall,
  dangerousPermissionRequest,
  privilegeEscalation,
];
