import { hostOf } from '../code/hosts.js';
import { isPublicIpHost } from '../code/network.js';
import { isCredentialPath } from '../code/values.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { quote } from '../text.js';
import { codeLanguage } from '../treesitter.js';
import { declaredHow } from './code-exfiltration.js';

// E1 for a script in a language the scanner has no syntax tree for (Ruby, Perl, PHP, Lua, Go, batch, …). The
// code model sees nothing there, so a stealer written in one of them passed whole. What every language writes
// the same way is left: the path of a credential store and an address outside the machine, as literals of one
// file that also calls the network. Without the data flow a tree gives, this says less than the modelled
// languages' findings do, and its confidence is set below theirs.

export const UNPARSED_SEND_RULE = builtinRule('code.unparsed-credential-send');

// A whole line that is a comment in the languages this reads (#, //, --, ;, REM, ::, %).
const COMMENT_LINE = /^\s*(?:#(?!!)|\/\/|--|;|%|::|rem\b|\*)/i;
const URL_IN_TEXT = /\b(?:https?|ftp|wss?):\/\/[^\s'"`<>]+/i;
const IP_LITERAL = /^(?:\d{1,3}\.){3}\d{1,3}$/;
// Reading a file, in the languages this reads: a call, a shell command, curl's `@file`, Perl's `'<'` mode.
const READS =
  /\b(?:read\w*|Read(?:File|All)|open|fopen|file_get_contents|slurp|binread|cat|type|Get-Content)\b|=@|['"]<['"]/i;
const WORD_BREAK = /[\s"'`(),;{}[\]]+/;
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n]){2,400})\1/g;
// The network calls of the languages without a parser here, and the commands any of them may shell out to.
const NETWORK_CALL =
  /\b(?:Net::HTTP|HTTParty|Faraday|RestClient|URI\.open|open-uri|LWP|HTTP::Tiny|IO::Socket|Mojo::UserAgent|curl_(?:init|exec)|file_get_contents|fsockopen|stream_context_create|GuzzleHttp|socket\.http|http\.request|ltn12|http\.(?:Post|Get|NewRequest|PostForm)|net\.Dial|reqwest|ureq|TcpStream|HttpClient|WebClient|HttpURLConnection|URLSession|Invoke-WebRequest|Invoke-RestMethod|bitsadmin|certutil|curl|wget|nc|ncat)\b/;
// A store's own service: a script of the AWS CLI's kind reads ~/.aws/credentials to sign its calls to AWS.
const STORE_VENDOR: readonly [RegExp, RegExp][] = [
  [/\.aws\b/i, /(?:^|\.)(?:amazonaws\.com|aws\.amazon\.com)$/],
  [/\.docker\b/i, /(?:^|\.)(?:docker\.io|docker\.com)$/],
  [/\.config\/gh\b|\.git-credentials/i, /(?:^|\.)github\.com$/],
  [/gcloud|application_default_credentials/i, /(?:^|\.)googleapis\.com$/],
  [/\.azure\b/i, /(?:^|\.)(?:azure\.com|windows\.net|microsoftonline\.com)$/],
  [/\.npmrc/i, /(?:^|\.)npmjs\.(?:org|com)$/],
  [/\.pypirc/i, /(?:^|\.)pypi\.org$/],
];

interface Piece {
  text: string;
  line: number;
}

/**
 * What a line of code names: its quoted literals, and its bare words (a batch or make recipe writes
 * `type %USERPROFILE%\.ssh\id_rsa` and `http://…` unquoted). Whole-line comments say nothing.
 */
function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  text.split('\n').forEach((line, i) => {
    if (COMMENT_LINE.test(line)) return;
    for (const m of line.matchAll(LITERAL)) out.push({ text: m[2]!.trim(), line: i + 1 });
    for (const word of line.split(WORD_BREAK)) if (word) out.push({ text: word, line: i + 1 });
  });
  return out;
}

/** The skill's own service (declared as the modelled languages' sends are), or the store's own vendor. */
function ownService(ctx: FileContext, host: string, store: string): boolean {
  if (declaredHow(ctx, host) === 'declared') return true;
  return STORE_VENDOR.some(([s, h]) => s.test(store) && h.test(host));
}

function unparsedSendHits(ctx: FileContext): Hit[] {
  if (!NETWORK_CALL.test(ctx.text)) return [];
  const found = pieces(ctx.text);
  // `File.join(Dir.home, '.ssh', 'id_rsa')` writes the path in pieces: a piece that names a store counts, on a
  // line that reads it (a deploy script that hands its key to ssh, `keys: ['~/.ssh/id_rsa']`, reads nothing).
  const lines = ctx.text.split('\n');
  const store = found.find((p) => isCredentialPath(p.text) && READS.test(lines[p.line - 1]!));
  if (!store) return [];
  for (const p of found) {
    // A URL anywhere in the piece: a command a script shells out to carries its address inside a longer string.
    const url = URL_IN_TEXT.exec(p.text)?.[0] ?? null;
    const dest = hostOf(url).host ?? (IP_LITERAL.test(p.text) ? p.text : null);
    if (!dest || ownService(ctx, dest, store.text)) continue;
    const language = ctx.file.language ?? ctx.file.path.split('.').pop() ?? 'unknown';
    return [
      {
        rule: UNPARSED_SEND_RULE.id,
        line: p.line,
        endLine: p.line,
        evidence: quote(lines[p.line - 1]!.trim()),
        confidence: isPublicIpHost(dest) ? 0.85 : 0.75,
        rationale: `a ${language} script (a language the scanner does not parse) names the credential store ${quote(store.text, 60)} (line ${store.line}) and sends to ${dest}, which the skill does not declare`,
      },
    ];
  }
  return [];
}

export const unparsedScriptDetector: Detector = {
  name: 'code-unparsed-script',
  rules: [UNPARSED_SEND_RULE],
  appliesTo: (file) => file.text !== null && file.kind === 'script' && codeLanguage(file.language) === null,
  detect: unparsedSendHits,
};
