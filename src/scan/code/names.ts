// Vocabulary shared by extractors and rules: which names are network sinks, executors, decoders, readers,
// and which strings name secrets, credential stores or other agents' context. Data only.

import { AGENT_CONTEXT_SOURCE } from '../../core/agents.js';

/** Environment variable names that hold secrets. */
export const SECRET_NAME_RE =
  /(KEY|TOKEN|SECRET|PASSW(OR)?D|PASSWD|CREDENTIAL|PRIVATE|SESSION|COOKIE|AUTH|_PAT$|^PAT_|WEBHOOK)/i;

/** Paths of credential stores (after `~`/$HOME normalisation to `~`). */
export const CREDENTIAL_PATH_RE = new RegExp(
  [
    // `id_*` globs name every private key at once (`ls ~/.ssh/id_*`).
    String.raw`\.ssh(/(id_[\w*-]+(?<!\.pub)$|identity$|[\w.-]*key$|\*$)|/?$)`,
    String.raw`\.aws(/(credentials|config)|/?$)`,
    String.raw`\.netrc`,
    String.raw`\.git-credentials`,
    String.raw`\.kube/config`,
    String.raw`\.docker/config\.json`,
    String.raw`\.config/gcloud`,
    String.raw`\.azure(/|$)`,
    String.raw`\.npmrc`,
    String.raw`\.pypirc`,
    String.raw`\.gnupg`,
    String.raw`\.config/gh/hosts\.yml`,
    'Login Data',
    String.raw`Cookies(\.sqlite)?$`,
    String.raw`cookies\.sqlite`,
    String.raw`logins\.json`,
    String.raw`key[34]\.db`,
    'Keychains/',
    String.raw`login\.keychain`,
    String.raw`\.password-store`,
    String.raw`wallet\.dat`,
    'Local State$',
    // The browser's autofill and card store, and its history: private data a stealer takes with the cookies.
    'Web Data$',
    String.raw`(?:Default|Profile \d+)/History$`,
    String.raw`places\.sqlite`,
    String.raw`formhistory\.sqlite`,
    String.raw`Safari/History\.db`,
    '/etc/shadow',
    // Shell and REPL histories: tokens and passwords typed on command lines, which stealers sweep too.
    String.raw`(?:^|/)\.(?:bash|zsh|sh|python|node_repl|mysql|psql|rediscli)_history$`,
    'fish/fish_history$',
    String.raw`PSReadLine/ConsoleHost_history\.txt$`,
    // Cloud, registry and database credentials.
    String.raw`\.terraform\.d/credentials`,
    String.raw`\.vault-token`,
    String.raw`\.pgpass`,
    String.raw`\.my\.cnf`,
    String.raw`\.s3cfg`,
    String.raw`\.boto$`,
    String.raw`\.cargo/credentials`,
    String.raw`\.gem/credentials`,
    String.raw`\.config/(op|hub|github-copilot)/`,
    String.raw`application_default_credentials\.json`,
    // Crypto wallets, a favourite of skill-borne stealers.
    String.raw`\.config/solana/id\.json`,
    String.raw`\.ethereum/keystore`,
    String.raw`\.bitcoin/`,
    String.raw`\.electrum`,
    'Exodus/',
    'Local Extension Settings',
    'nkbihfbeogaeaoehlefnkodbefgpgknn',
  ].join('|'),
  'i',
);

/** Environment variables that hold the path of a credential file (`${KUBECONFIG:-~/.kube/config}`). */
export const CREDENTIAL_PATH_VARS =
  /^(KUBECONFIG|AWS_SHARED_CREDENTIALS_FILE|AWS_CONFIG_FILE|GOOGLE_APPLICATION_CREDENTIALS|CLOUDSDK_CONFIG|DOCKER_CONFIG|AZURE_CONFIG_DIR|NETRC|GNUPGHOME|PGPASSFILE|VAULT_TOKEN_FILE)$/;

// Who and where the machine is (T.HOST_ID): what a beacon reports home. Not the operating system's name or
// version, which honest telemetry and bug reports carry.
/** Commands that print the user's login name or the host's name. */
export const IDENTITY_COMMANDS = /^(?:whoami|hostname|hostnamectl|logname|id)$/;
/** Environment variables that hold the same. */
export const IDENTITY_VARS = /^(?:USER|USERNAME|LOGNAME|HOSTNAME|HOST|COMPUTERNAME|USERDOMAIN)$/;
/** Library calls that return the same, in Python and JavaScript. */
export const IDENTITY_CALL_RE =
  /^(?:getpass\.getuser|socket\.gethostname|socket\.getfqdn|platform\.node|platform\.uname|os\.uname|os\.getlogin|os\.userInfo|os\.hostname)$/;
/** Services that answer with the caller's public address. */
export const PUBLIC_IP_SERVICE =
  /\b(?:ifconfig\.(?:me|co|io)|api\d*\.ipify\.org|ipinfo\.io|icanhazip\.com|checkip\.amazonaws\.com|ipecho\.net|myexternalip\.com|wtfismyip\.com|ident\.me|ipapi\.co|ip-api\.com)\b/i;

/** A `.env` file under home or a parent directory (another project's secrets), not the working dir's own. */
export const FOREIGN_DOTENV_RE = /(^~|^\/|\.\.\/)(?:.*\/)?\.env(\.[a-z]+)?$/i;

/** Other agents' configuration, memory, transcripts and skills (the agents' folders from rules/_data/agents.yaml). */
export const AGENT_CONTEXT_RE = new RegExp(
  `${AGENT_CONTEXT_SOURCE}|\\/skills\\/|conversations?[._/-]|transcripts?[._/-]|chat[_-]?history|history\\.jsonl`,
  'i',
);

/** Commands whose job is moving data over the network. */
export const NETWORK_COMMANDS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ftp',
  'sftp',
  'scp',
  'rsync',
  'ssh',
  'nslookup',
  'dig',
  'host',
  'http',
  'https',
  'invoke-webrequest',
  'invoke-restmethod',
  'send-mailmessage',
]);

/** Cloud CLIs whose copy commands upload local files to storage (`aws s3 cp`, `gsutil cp`, `az storage blob upload`). */
export const STORAGE_COMMANDS = new Set(['aws', 'gsutil', 'gcloud', 'az', 'rclone', 'azcopy']);

/** A cloud storage location: a bucket URL or an Azure blob endpoint. */
export const STORAGE_URL_RE =
  /^(s3|s3a|gs|az|abfss?|wasbs?|r2|b2):\/\/|^https:\/\/[\w-]+\.blob\.core\.windows\.net/i;

/** SDK calls that put data into cloud storage (canonical names, after aliasing of clients). */
export const STORAGE_CALL_RE = new RegExp(
  [
    String.raw`^(aio)?boto3\.[\w$.()]*\.(put_object|upload_file|upload_fileobj)$`,
    String.raw`^(aio)?boto3\.[\w$.()]*Object\(\)\.put$`,
    String.raw`^google\.cloud\.storage\.[\w$.()]*\.(upload_from_filename|upload_from_string|upload_from_file)$`,
    String.raw`^azure\.storage\.blob\.[\w$.()]*\.upload_blob$`,
    String.raw`^@aws-sdk/client-s3\.PutObjectCommand$`,
    String.raw`^@aws-sdk/lib-storage\.Upload$`,
    String.raw`^aws-sdk\.[\w$.()]*S3\(\)\.(upload|putObject)$`,
    String.raw`^@google-cloud/storage\.[\w$.()]*\.(upload|save)$`,
    String.raw`^@azure/storage-blob\.[\w$.()]*\.(upload|uploadData|uploadFile|uploadStream)$`,
  ].join('|'),
);

/** A message or file handed to a client opened earlier; group 1 is the call that opened the client. */
export const CLIENT_SEND_RE =
  /^(smtplib\.SMTP(?:_SSL)?|smtplib\.LMTP|nodemailer\.createTransport|ftplib\.FTP(?:_TLS)?|http\.client\.HTTPS?Connection|WebSocket|dgram\.createSocket)\(\)\.(send_message|sendmail|sendMail|storbinary|storlines|request|send)$/;

/** Openers of clients that speak HTTP or a raw socket (the rest of CLIENT_SEND_RE are mail and file transfer). */
export const SOCKET_OPENER_RE = /HTTPS?Connection|WebSocket|dgram/;

/** Shell mailers: what they read on stdin (or attach) goes to the recipient. */
export const MAIL_COMMANDS = new Set(['mail', 'mailx', 'sendmail', 'mutt', 'msmtp', 's-nail']);

/** Openers of mail clients (the rest of CLIENT_SEND_RE are file transfer). */
export const MAIL_OPENER_RE = /smtp|mail/i;

/** DNS lookups: a name built from data is an exfiltration channel. */
export const DNS_COMMANDS = new Set(['nslookup', 'dig', 'host', 'resolve-dnsname']);

/** Call names (canonical) that make network requests, with the index of the URL argument. */
export const NETWORK_CALL_RE =
  /^(requests|httpx|aiohttp\.ClientSession\(\)|requests\.Session\(\)|httpx\.(Async)?Client\(\)|urllib3\.PoolManager\(\))\.(get|post|put|patch|delete|head|request|options|stream)$|^(urllib\.request\.urlopen|urllib2\.urlopen|urllib\.request\.urlretrieve|urllib\.urlretrieve|urllib\.request\.Request|fetch|axios|axios\.(get|post|put|patch|delete|request)|got|got\.(get|post|put)|ky\.(get|post)|needle|superagent\.(get|post)|https?\.(request|get)|http\.client\.HTTPS?Connection|socket\.create_connection|ftplib\.FTP|smtplib\.SMTP(_SSL)?|net\.connect|net\.createConnection|tls\.connect|dgram\.createSocket|dns\.(lookup|resolve[a-z0-9]*|promises\.(lookup|resolve[a-z0-9]*))|socket\.gethostbyname|socket\.getaddrinfo|dns\.resolver\.(resolve|query)|navigator\.sendBeacon|XMLHttpRequest\(\)\.open|WebSocket|pycurl\.Curl\(\)\.setopt)$/;

/** Socket objects: connect/send on them is a network sink. */
export const SOCKET_CALL_RE = /^socket\.socket\(\)\.(connect|connect_ex|send|sendall|sendto)$/;

/** Reads from a python socket object: what they return was sent by the remote host. */
export const SOCKET_READ_RE =
  /^socket\.socket\(\)(\.accept\(\))?\.(recv|recvfrom|recv_into|recvmsg|makefile)$/;

/** DNS resolution calls (python/JS). */
export const DNS_CALL_RE =
  /^(socket\.gethostbyname|socket\.getaddrinfo|dns\.(lookup|resolve[a-z0-9]*)|dns\.promises\.(lookup|resolve[a-z0-9]*)|dns\.resolver\.(resolve|query))$/;

/** Calls whose result is the response body of a request (taints it as fetched). */
export const FETCH_RESULT_RE = /^(.*\.)?(text|content|json|read|body|data|iter_content|arrayBuffer|buffer)$/;

/** Code execution sinks for calls: string or code object in, code runs. */
export const EXEC_CALL_RE =
  /^(exec|eval|compile|execfile|runpy\.run_path|Function|Function\(\)|vm\.runInThisContext|vm\.runInNewContext|vm\.runInContext|vm\.Script|new Function|setTimeout|setInterval|importlib\.import_module|marshal\.loads|pickle\.loads|types\.FunctionType)$/;

/** Process execution calls: their string argument is a shell command. */
export const SHELL_CALL_RE =
  /^(os\.system|os\.popen|os\.exec[lv]p?e?|os\.spawn[lv]p?e?|subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|child_process\.(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)|execa|execa\.command|execaSync|shelljs\.exec|Bun\.spawn|Deno\.run|sh|zx|\$)$/;

/** Decoders: their output is DECODED. */
export const DECODE_CALL_RE =
  /^(base64\.(b64decode|b32decode|b16decode|b85decode|a85decode|urlsafe_b64decode|decodebytes|decodestring)|binascii\.(a2b_base64|unhexlify|a2b_hex)|bytes\.fromhex|codecs\.decode|zlib\.decompress|gzip\.decompress|bz2\.decompress|lzma\.decompress|marshal\.loads|atob|zlib\.(inflateSync|gunzipSync|inflateRawSync|brotliDecompressSync)|unescape)$/;

/** Calls that read a file named by their first argument. */
export const READ_CALL_RE =
  /^(open|io\.open|codecs\.open|(pathlib\.)?Path\(\)\.(read_text|read_bytes|open)|(.*\.)?read_text|(.*\.)?read_bytes|fs\.(readFileSync|readFile|createReadStream|promises\.readFile|copyFileSync|copyFile)|fs\/promises\.readFile|shutil\.(copy|copy2|copyfile|copytree|make_archive)|tarfile\.open\(\)\.add|zipfile\.ZipFile\(\)\.write|sqlite3\.connect|configparser\.ConfigParser\(\)\.read|dotenv\.load_dotenv|dotenv\.dotenv_values|load_dotenv|dotenv_values|dotenv\.config|json\.load|yaml\.safe_load|get-content|gc|cat)$/;

/** Calls that write data (first arg path, data in another arg) for later upload. */
export const WRITE_CALL_RE =
  /^(fs\.(writeFileSync|writeFile|appendFileSync|promises\.writeFile)|fs\/promises\.writeFile|(.*\.)?write_text|(.*\.)?write_bytes|json\.dump|pickle\.dump|set-content|out-file|add-content)$/;

/** Directory listing and walking calls (python/JS) with the path argument first. */
export const WALK_CALL_RE =
  /^(os\.walk|os\.listdir|os\.scandir|glob\.glob|glob\.iglob|glob|globSync|fast-glob|fg|fg\.sync|tinyglobby\.glob|(pathlib\.)?Path\(\)\.(rglob|glob|iterdir|walk)|(.*\.)?rglob|fs\.(readdirSync|readdir|opendir|opendirSync|promises\.readdir)|fs\/promises\.readdir|walkdir|get-childitem|gci|ls|dir)$/;

/** Commands that walk a directory tree. */
export const WALK_COMMANDS = new Set([
  'find',
  'ls',
  'tree',
  'du',
  'locate',
  'fd',
  'rg',
  'grep',
  'get-childitem',
  'gci',
  'dir',
]);

/** Shells and interpreters that run code read from stdin or an argument. */
export const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'php',
  'eval',
  'source',
  '.',
  'exec',
  'iex',
  'invoke-expression',
  'powershell',
  'pwsh',
  'osascript',
  'deno',
  'bun',
]);

/** A host that is an IP literal (v4, or bracketed v6). */
export const IP_HOST_RE = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i;
