import { type Adjustment, negated, type PhraseRule, REFUSES_QUOTED } from './prose-phrase.js';
import {
  CONTEXT_OBJECT,
  EXTERNAL_DESTINATION,
  PASTE_HOST,
  RAW_IP_URL,
  rx,
  SECRET_FILE,
  SECRET_WORD,
  USER_OWNED_DESTINATION,
} from './prose-vocabulary.js';

// Data rules over prose: sending files, secrets or the conversation out (P3), leaking the agent's context
// (E4), and reading credential stores (PE3).

// Where the data goes: an external destination introduced as a target ("from https://..." is where a key comes from).
const TO_EXTERNAL = String.raw`\b(?:to|into|via|through|onto|towards?|using|with)\s+(?:[\w'./:@-]+\s+){0,4}?${EXTERNAL_DESTINATION}`;
const SEND_VERB = String.raw`\b(?:send|sends|sending|upload|uploads|uploading|post|posts|posting|transmit|transmits|exfiltrate|exfiltrates|forward|forwards|email|e-mail|mail|beacon|leak|ship|sync|push|submit|report|copy|share|relay|dump|deliver|attach|paste|pipe|curl)\b`;
// The user's personal data and environment dumps are as sensitive as keys when they leave the machine.
const PERSONAL_DATA = String.raw`(?:\b(?:the\s+)?user'?s\s+(?:[\w-]+\s+){0,2}?(?:email(?:\s+address)?|phone(?:\s+number)?|address|full\s+name|resume|cv|contacts?|location|messages?|files?|documents?|photos?|data|history|browsing)\b|\b(?:personal|private|sensitive)\s+(?:data|information|details)\b|\bpii\b|\btranscripts?\b|\bresume\s+text\b|\buser'?s?\s+home\s+directory\b|\b(?:every|all)\s+(?:the\s+)?files?\s+(?:in|under)\s+(?:the\s+|your\s+)?(?:user'?s?\s+)?home\b|\benv(?:ironment)?[_ -]?(?:report|dump|output|snapshot)\b|\bprintenv\b|\b(?:all|every|full|whole)\s+(?:the\s+)?environment(?:\s+variables)?\b)`;
const SENSITIVE = String.raw`(?:${SECRET_FILE}|${SECRET_WORD}|${CONTEXT_OBJECT}|${PERSONAL_DATA}|\b(?:the\s+)?(?:user'?s\s+)?(?:home\s+directory|ssh\s+keys|private\s+files|personal\s+(?:files|data|information)|source\s+code|codebase|entire\s+(?:repo|repository|workspace|project)|documents\s+folder|clipboard|keystrokes|screenshots?\s+of\s+the\s+screen))`;
const STRONG_RECEIVER = String.raw`(?:${PASTE_HOST}|${RAW_IP_URL}|\bwebhooks?\b|\bdiscord\b|\btelegram\b|\bngrok\b|\brequestbin\b|\bpipedream\b|webhook\.site|\binteract\.sh\b|\boast\.\w+|burpcollaborator)`;
const READ_VERB = String.raw`\b(?:read|reads|reading|cat|open|opens|load|loads|access|accesses|grab|collect|collects|copy|copies|extract|dump|harvest|retrieve|parse|print|view|inspect|look\s+(?:at|in|inside|through)|search|scan|enumerate|steal|gather|fetch|obtain|type|head|tail|base64|Get-Content|gc|tar|zip)\b`;
const STRONG_SECRET_FILE = String.raw`(?:\.docker/config\.json|\.kube/config\b|\bkubeconfig\b|\b(?:session\s+)?cookies\s+(?:from|in|of)\s+(?:the\s+|your\s+|their\s+)?(?:user'?s?\s+)?(?:chrome|chromium|firefox|safari|edge|brave|browser)|\b(?:chrome|chromium|firefox|safari|edge|brave)(?:'s)?\s+(?:profile|cookies|passwords|login\s+data|password\s+store)\b|\.ssh/(?:id_[a-z0-9]+(?!\.pub)\b|[\w.-]*key\b(?!\.pub)|\*)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws/credentials|\.netrc\b|\.git-credentials|application_default_credentials|\.azure/(?:accessTokens|msal_token_cache)|/etc/shadow|wallet\.dat|\bkeychains?\b|login\.keychain|\bLogin Data\b|cookies\.sqlite|\bbrowser\s+(?:cookies|passwords|(?:saved\s+)?(?:credentials|logins))|\bsaved\s+passwords|\bseed\s+phrases?|\b(?:metamask|phantom|exodus)\s+(?:vault|wallet)|\bkeystore\b)`;

// API documentation: an LLM API takes the conversation and the system prompt as request fields, and caches
// them. "Send the conversation history in the `messages` array", "mark the system prompt with cache_control"
// describe how the skill's own API is called, not a leak. Not when a secret is in the sentence.
const API_REQUEST_SHAPE: Adjustment = {
  re: rx(
    String.raw`^(?![^]*(?:${SECRET_FILE}|${SECRET_WORD}))(?=[^]*(?:${CONTEXT_OBJECT}|\bmessages\b|\bprompts?\b))[^]*(?:\b(?:in|into|as|via|inside|under|through|to)\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+)?(?:[\w.'"-]+\s+){0,2}?(?:array|field|parameter|param|property|attribute|key|list|object|argument|arg)s?\b|\bcache_control\b|\bprompt[\s_-]+cach\w*|\bcach(?:e|es|ed|ing)\s+(?:the\s+|a\s+|your\s+)?(?:[\w-]+\s+)?(?:system\s+prompts?|prefix(?:es)?|conversation|context|prompts?|messages?)\b|\b(?:is|are|gets?|get)\s+cached\b|\bstateless\b|\b(?:api|model|server)\s+(?:does\s+not|doesn'?t)\s+(?:store|remember|keep)\b)`,
  ),
  factor: 0.3,
  why: 'describes the fields of an API request (conversation, system prompt, caching), not a leak',
};

export const exfiltrationInstruction: PhraseRule = {
  id: 'md.exfiltration-instruction',
  pattern: 'P3',
  message: 'Text tells the agent to send files, secrets or the conversation to an external destination.',
  framing: { 'user-action': 0.6 },
  help: 'Sending credentials, private files or the conversation off the machine is data theft unless the user asked for it and chose the destination. Remove the instruction, or make the destination the user’s own configured service.',
  mention: 0.8,
  variants: [
    {
      all: [rx(SEND_VERB), rx(SENSITIVE), rx(TO_EXTERNAL)],
      base: 0.9,
      why: 'sends sensitive data to an external destination',
    },
    {
      // The verb and its receiver in one phrase: "email, Slack, … (via webhook scripts)" lists channels.
      all: [
        rx(
          SEND_VERB,
          String.raw`\s+(?:[\w'.~/\x60-]+\s+){0,8}?(?:to|into|via|through|at)\s+(?:[\w'-]+\s+){0,3}?`,
          STRONG_RECEIVER,
        ),
      ],
      base: 0.7,
      why: 'sends data to an anonymous receiver (webhook, paste site, raw IP)',
    },
    {
      all: [
        rx(
          String.raw`\b(?:curl|wget|http|https|httpie|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|nc|ncat|netcat|scp|rsync|ftp)\b[^|;&]{0,200}?(?:-d\s*@|--data(?:-binary|-raw|-urlencode)?[\s=]*@|-F\s*["']?\w*=@|--form\s*["']?\w*=@|-T\s|--upload-file|--post-file|-InFile|\$\(\s*cat\b|<\s*)[^|;&]{0,80}?`,
          SECRET_FILE,
        ),
      ],
      base: 0.9,
      why: 'a command that uploads a credential file',
    },
    {
      all: [
        rx(
          String.raw`\b(?:cat|type|base64|tar|zip|gzip|Get-Content)\b[^|;]{0,80}?`,
          SECRET_FILE,
          String.raw`[^|;]{0,60}(?:\|[^|;]{0,40}){0,3}?\|\s*(?:curl|wget|nc|ncat|netcat|telnet|openssl\s+s_client|Invoke-WebRequest|iwr)\b`,
        ),
      ],
      base: 0.9,
      why: 'a pipeline that ships a credential file over the network',
    },
    {
      // Data put into a request to a remote API leaves the machine as surely as an upload.
      all: [
        rx(
          String.raw`\b(?:include|embed|attach|add|put|insert|append)\s+(?:[\w'-]+\s+){0,4}?(?:in|into|with|to)\s+(?:the\s+|each\s+|every\s+|your\s+|its\s+)?(?:api\s+|outgoing\s+|http\s+)?(?:requests?|payloads?|query|queries|api\s+calls?|prompts?\s+(?:sent|to))\b`,
        ),
        rx(SENSITIVE),
      ],
      base: 0.8,
      why: 'puts sensitive data into an outgoing request',
    },
    {
      all: [
        rx(
          String.raw`\b(?:urlopen|urlretrieve|requests\.(?:post|put|get)|httpx\.(?:post|put)|fetch\s*\(|axios\.(?:post|put)|http\.request|Invoke-RestMethod|Invoke-WebRequest)\b`,
        ),
        rx(
          String.raw`\b(?:os\.environ|process\.env|dict\(os\.environ\)|\$env:|Get-ChildItem\s+env:|printenv|os\.getenv)`,
        ),
      ],
      base: 0.85,
      why: 'code in the prose that posts environment variables',
    },
    {
      all: [rx(String.raw`\bscp\s+(?:-\S+\s+)*\S*`, SECRET_FILE, String.raw`\S*\s+\S*@`)],
      base: 0.85,
      why: 'copies a credential file to a remote host',
    },
  ],
  adjust: [
    API_REQUEST_SHAPE,
    REFUSES_QUOTED,
    {
      re: rx(String.raw`\b(?:to|into|onto|in)\s+`, USER_OWNED_DESTINATION),
      factor: 0.25,
      why: 'the destination is the user’s own configured service',
    },
    { re: rx(String.raw`\bto\s+(?:the\s+)?user\b(?!'s)`), factor: 0.3, why: 'sent to the user' },
    negated(
      'send|upload|post|transmit|exfiltrate|forward|email|share|leak|copy|expose|commit|push|include|log',
    ),
    {
      re: rx(STRONG_SECRET_FILE),
      factor: 1.1,
      why: 'the data is a private key or credential store',
    },
    {
      // "Before sending text to an LLM, check for PII": the send is the occasion; the instruction is the check.
      re: rx(
        String.raw`^(?![^]*\b(?:send|upload|post|transmit|exfiltrate|forward|email|share|leak|ship|deliver|copy|dump)\b)[^]*\b(?:before|when|whenever|while|prior\s+to|ahead\s+of)\s+(?:\w+\s+)?(?:sending|uploading|posting|transmitting|forwarding|sharing|submitting|emailing|shipping|passing)\b`,
      ),
      factor: 0.3,
      why: 'the send is the occasion for another step, not the instruction',
    },
    {
      // "Hosts may include them in the LLM's system prompt": what some other party may do, not an instruction.
      re: rx(
        String.raw`(?:^|[.!?]\s+)\W*(?:the\s+|some\s+|most\s+|many\s+|other\s+)?(?!(?:you|we|i|it|this|the\s+(?:agent|assistant|model|skill))\b)(?:[\w-]+\s+){1,2}?(?:may|might|could|can|often|sometimes|typically|usually)\s+(?:also\s+|optionally\s+|choose\s+to\s+)?(?:include|send|forward|share|upload|post|embed|attach|add|put|pass|log)\b`,
      ),
      factor: 0.4,
      why: 'describes what another party may do, not an instruction',
    },
    {
      // "Commands send the API key only to the fixed https://… origin": a stated restriction to the skill's service.
      re: rx(
        String.raw`\bonly\s+(?:ever\s+)?(?:to|with)\s+(?:the\s+|its\s+|their\s+)?(?:fixed|official|configured|pinned|hard-?coded|own|documented|declared)\b`,
      ),
      factor: 0.35,
      why: 'states that the data goes only to the skill’s fixed service',
    },
    {
      // "Use this skill when the user mentions X, wants to index documents, store agent memory …": what the
      // user may want, listed to say when the skill applies. Not when an instruction follows the condition.
      re: rx(
        String.raw`^(?![^]*(?:\bthen\b|[,;:]\s*(?:also\s+|then\s+|quietly\s+|silently\s+|always\s+|first\s+)?(?:send|upload|post|forward|email|copy|write|save|include|attach|paste|dump|share|sync|push|submit|read|collect)\b))[^]*\b(?:when|whenever|if)\s+(?:the\s+)?users?\s+(?:mentions?|wants?|asks?|needs?|requests?|says?|is\s+(?:building|trying|working|looking))\b`,
      ),
      factor: 0.4,
      why: 'lists what the user may want, to say when the skill applies',
    },
  ],
};

export const contextLeakage: PhraseRule = {
  id: 'md.context-leakage',
  pattern: 'E4',
  message:
    'Text tells the agent to capture its system prompt, conversation, memory or other skills and emit them.',
  // Sending that context out is already said by the exfiltration rule (P3).
  yieldsTo: ['md.exfiltration-instruction', 'md.paraphrased-exfiltration'],
  help: 'The system prompt, the conversation and other skills’ instructions belong to the user’s session. A skill that makes the agent dump them to a file, a URL or its answer leaks that context.',
  mention: 0.6,
  variants: [
    {
      all: [
        rx(
          String.raw`\b(?:capture|dump|print|output|reveal|repeat|recite|copy|save|write|export|log|record|store|include|paste|send|upload|post|echo|extract|collect|gather|leak|disclose|exfiltrate|transmit|forward|append|attach)\b`,
        ),
        rx(CONTEXT_OBJECT),
        rx(TO_EXTERNAL),
      ],
      base: 0.9,
      why: 'sends the agent’s context to an external destination',
    },
    {
      all: [
        rx(
          String.raw`\b(?:reveal|repeat|recite|print|dump|output|disclose|leak|show|display|echo|return|write\s+out|spell\s+out|copy)\s+(?:\w+\s+){0,3}?(?:system\s+prompt|system\s+message|system\s+instructions|developer\s+(?:message|prompt)|(?:your|the)\s+(?:initial|original|hidden|full|complete|entire|exact|underlying)\s+(?:instructions|prompt))\b`,
        ),
      ],
      base: 0.75,
      why: 'makes the agent disclose its system prompt',
    },
    {
      all: [
        rx(
          String.raw`\b(?:save|write|copy|dump|store|export|log|append|include|attach|capture|record|commit|paste)\b`,
        ),
        rx(
          String.raw`\b(?:(?:full|entire|whole|complete|raw|verbatim)\s+(?:conversation|chat)(?:\s+(?:history|log|transcript))?|(?:conversation|chat|message)\s+history|system\s+prompt|(?:all|other|installed)\s+skills?(?:'s?)?\s+(?:contents?|files|instructions|SKILL\.md)|~/\.claude\b|\.claude/projects|(?:agent|long[- ]term|persistent)\s+memor(?:y|ies))`,
        ),
        rx(
          String.raw`\b(?:to|into|in)\s+(?:a\s+|the\s+)?(?:[\w./~-]+\.(?:txt|md|json|log|jsonl|html)\b|file|issues?|comments?|pull\s+requests?|commits?|gists?|logs?|repos?(?:itory)?|/tmp|artifacts?)`,
        ),
      ],
      base: 0.6,
      why: 'writes the agent’s context where others can read it',
    },
    {
      all: [
        rx(
          String.raw`\b(?:read|cat|list|copy|collect|enumerate|scan|dump|gather)\s+(?:[\w.*/-]+\s+){0,4}?(?:~/\.claude/(?:skills|projects)|(?:all|every|other)\s+(?:installed\s+)?skills?(?:'s?)?\s+(?:SKILL\.md|files|contents|instructions))`,
        ),
      ],
      base: 0.55,
      why: 'reads other skills’ instructions',
    },
  ],
  adjust: [
    negated(
      'reveal|repeat|print|dump|output|disclose|leak|share|send|save|write|log|store|include|expose|copy|echo',
    ),
    API_REQUEST_SHAPE,
    REFUSES_QUOTED,
    {
      re: rx(String.raw`\b(?:summar(?:y|ies|i[sz]e)|notes|handoff|handover|recap|changelog)\b`),
      factor: 0.5,
      why: 'a summary, not the raw context',
    },
    {
      // "Refuse system prompt reveal requests", "redact responses that repeat system prompt content": the defence.
      re: rx(
        String.raw`\b(?:refus\w*|detect\w*|redact\w*|filter\w*|block\w*|prevent\w*|protect\w*|guard\w*|mitigat\w*|defen[cs]\w*|confidential\w*|leakage\s+(?:test|check)s?)\b`,
      ),
      factor: 0.3,
      why: 'about defending against the leak',
    },
  ],
  scope: {
    re: rx(
      String.raw`\b(?:memory|conversation|transcript|session|chat\s+(?:export|history|log)|journal|notes|handoff|skills?[- ]?(?:[\w]+[- ])?(?:manager|creator|installer|auditor|scanner|linter|reviewer|checker|guard))`,
    ),
    factor: 0.45,
    why: 'the skill’s stated purpose is handling this context',
  },
};

export const credentialAccess: PhraseRule = {
  id: 'md.credential-access',
  pattern: 'PE3',
  message: 'Text tells the agent to read credential files or secret stores.',
  // Setup advice does not make reading someone's keys safe; storing one's own key is handled below.
  framing: { 'user-action': 0.6 },
  yieldsTo: ['md.exfiltration-instruction'],
  help: 'SSH keys, cloud credentials, .env files, .netrc, git credential stores, kube configs, browser cookies and keychains hold the user’s secrets. A skill should receive the one credential it needs through configuration, never browse these stores.',
  mention: 1,
  variants: [
    {
      all: [rx(READ_VERB), rx(STRONG_SECRET_FILE)],
      base: 0.9,
      why: 'reads a private key or credential store',
    },
    {
      all: [rx(READ_VERB), rx(SECRET_FILE)],
      base: 0.45,
      why: 'reads a file that holds secrets',
    },
    {
      all: [
        rx(
          String.raw`\b(?:all|every|any)\s+(?:saved\s+|stored\s+|cached\s+)?(?:passwords|credentials|api\s+keys|tokens|secrets|cookies)\s+(?:\w+\s+)?(?:on|from|in|stored\s+(?:on|in))\s+(?:the|this|your|user'?s?)\s+(?:machine|system|computer|disk|browsers?|home\s+directory|keychain|profile)`,
        ),
      ],
      base: 0.85,
      why: 'collects every stored credential',
    },
    {
      all: [
        rx(
          String.raw`\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|\bcmdkey\s+/list\b|\bvaultcmd\b|\bmimikatz\b|\blazagne\b`,
        ),
      ],
      base: 0.9,
      why: 'queries the system credential store',
    },
    {
      // Offensive tooling run as a step ("for credential checks, start ntlmrelayx"): relays and poisoners
      // capture other machines' hashes, dumpers read LSASS or the domain's secrets.
      all: [
        rx(
          String.raw`\b(?:run|runs|running|start|starts|launch|launches|execute|executes|use|uses|invoke|invokes|call|calls)\b`,
        ),
        rx(
          String.raw`\bresponder(?:\.py)?\s+-I\b|\b(?:ntlmrelayx|smbrelayx|krbrelayx|secretsdump)(?:\.py)?\b|\bmitm6\b|\bInveigh\b|\bInvoke-Mimikatz\b|\b(?:sekurlsa|lsadump)::|\bRubeus(?:\.exe)?\s+(?:kerberoast|asreproast|dump|harvest)\b|\bprocdump\S*\s+[^\n]{0,40}\blsass\b|\bcomsvcs(?:\.dll)?\b[^\n]{0,40}\bMiniDump\b`,
        ),
      ],
      base: 0.8,
      why: 'runs a credential relay or dumper',
    },
  ],
  adjust: [
    {
      // "The CLI handles token caching, Keychain access, and expiry": a tool keeping its own login in the
      // system store is described, not the agent told to read it. Not when the sentence also moves data out.
      re: rx(
        String.raw`^(?![^]*\b(?:send|upload|post|curl|wget|scp|exfiltrat\w*|forward|copy|cat|print|base64|collect|harvest|dump)\b)[^]*\b(?:the|this|our|its|their)\s+(?:[\w-]+\s+){0,2}?(?:cli|sdk|tool|library|client|app|application|extension|plugin|credential\s+helper|login\s+command)\s+(?:handles|manages|takes\s+care\s+of|caches|stores|keeps|saves|persists)\b`,
      ),
      factor: 0.3,
      why: 'describes a tool managing its own login, not the agent reading a store',
    },
    {
      re: rx(
        String.raw`\b(?:set|put|add|store|place|save|define|configure|export|create|write|keep|copy|rename)\s+(?:\w+\s+){0,3}?(?:your|the|an?|a)\s+(?:\w+\s+){0,2}?(?:api[_ -]?keys?|tokens?|credentials?|secrets?|variables?|keys?|values?|settings)\s+(?:\w+\s+){0,2}?(?:in|into|to|inside)\s+`,
      ),
      factor: 0.2,
      why: 'user setup: the user stores their own key',
    },
    {
      re: rx(
        String.raw`\b(?:put|add|paste|save|store|place|set|write|define|configure|export|create|copy)\b.{0,60}?\b(?:in|into|to|inside)\s+(?:(?:your|the|a|an)\s+)?(?:own\s+|project'?s?\s+|local\s+)?(?:\.env|~/\.netrc|\.npmrc|\.pypirc|credentials\s+file|config\s+file)`,
      ),
      factor: 0.2,
      why: 'user setup: the user writes their own key into a config file',
    },
    negated('commit|push|share|check in|expose|print|log|read|access|open|cat|upload|send|include|store'),
    negated(String.raw`(?:run|start|launch|execute|use|invoke|call)\b`),
    {
      // Tightening permissions on the key folder protects it; nothing is read.
      re: rx(
        String.raw`^(?![^]*\b(?:cat|cp|copy|send|upload|base64|tar|zip|scp|curl|wget|print|type|Get-Content|grab|collect|extract|dump|harvest|steal)\b)(?!\s*(?:then\s+|first\s+)?(?:read|open|load)\b)[^]*\b(?:chmod|chown|icacls|setfacl|umask)\b`,
      ),
      factor: 0.2,
      why: 'sets permissions on the file rather than reading it',
    },
    {
      re: rx(String.raw`\.gitignore\b|\bgitignored\b`),
      factor: 0.2,
      why: 'about keeping secrets out of git',
    },
    {
      re: rx(
        String.raw`\b(?:loads?|reads?|picks\s+up|uses?)\s+(?:\w+\s+){0,4}?(?:from|in)\s+(?:the\s+|a\s+|your\s+)?(?:project'?s?\s+|local\s+|workspace\s+)?\.env\b`,
      ),
      factor: 0.5,
      why: 'loads the skill’s own configuration from .env',
    },
    {
      re: rx(String.raw`\bprocess\.env\b|\bdotenv\b|\bload_dotenv\b|\benv\s+file\s+(?:format|syntax)`),
      factor: 0.4,
      why: 'loading configuration with dotenv',
    },
    {
      re: rx(String.raw`\b(?:ls|check\s+(?:for|whether|if)|exists?|existing|ssh-keygen|ssh-add|generate)\b`),
      factor: 0.5,
      why: 'checks for or creates keys rather than reading them',
    },
  ],
};

export const dataRules: readonly PhraseRule[] = [exfiltrationInstruction, contextLeakage, credentialAccess];
