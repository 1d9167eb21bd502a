// Credentials shipped inside the skill: a connection URI with a real password, a live token of a known format,
// a private key block, a high-entropy value assigned to a secret-named key. PE3 (Credential Access): whoever
// installs or reads the skill holds that account's access, and a skill that runs with it acts as that account.
// Placeholders, environment interpolation and documentation of a URI format are not credentials.
import { clamp, contextConfidence, isTestPath } from '../code/hits.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { lineAt, lineStarts } from '../text.js';

export const SECRET_RULES = rulesDetectedBy('code-secrets');

const RULE = 'code.hardcoded-secret';

/** Lock files and minified bundles carry hashes and identifiers, not credentials. */
/** Cheap test that a document could hold a credential at all. */
const CREDENTIAL_SHAPE =
  /AKIA|gh[pousr]_|github_pat_|glpat-|xox[abpr]-|hooks\.slack|[rs]k_live_|AIza|sk-ant-|T3BlbkFJ|hf_|npm_|pypi-|SG\.|:AA|PRIVATE KEY|:\/\/[^\s:@/]*:[^\s@/]+@|(secret|token|key|passw(or)?d|pwd|credential)s?["']?\s*[:=]/i;
const MARKDOWN_PATH = /\.(md|markdown|mdx)$/i;
const SKIPPED_FILE =
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|Cargo\.lock|go\.sum)$|\.min\.js$/i;

/** Values that stand for a credential instead of being one. */
const PLACEHOLDER =
  /your|example|sample|dummy|placeholder|changeme|change[_-]?me|replace|insert|redacted|fake|secret[_-]?here|here$|^(test|demo|foo|bar|none|null|undefined|true|false)$|x{4,}|\*{3,}|\.{3}|…|<|>|\{|\}|\$|%\(|%s|^\(|\bTODO\b|^[A-Z_]+$/i;

/** Passwords people put in documentation and local development set-ups. */
const DUMMY_PASSWORD =
  /^(pass(word|wd)?\d*|secret\d*|postgres|mysql|mariadb|root|admin|guest|test\w*|user\w*|pwd|mongo\w*|redis|rabbit\w*|default|letmein|qwerty|123456\d*|1234|abc123|foobar|s3cr3t|p@ssw0rd|hunter2|dev\w*|local\w*|docker|app|example\w*)$/i;

/** Hosts that are not a deployed service: loopback, documentation domains, compose service names. */
const NOT_A_SERVER =
  /^(localhost|127\.|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)|(^|\.)(example|test|invalid|localhost|local|internal|lan|svc|cluster\.local)$|^[^.]+$|^(example|your|my)[\w-]*\./i;

/** `scheme://user:password@host`: credentials inside a connection URI. */
const URI_CREDENTIAL =
  /\b((?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|oracle|clickhouse|cockroachdb|neo4j(?:\+s)?|bolt|nats|couchdb|influxdb|ftps?|sftp|smtps?|ldaps?|https?)(?:\+[a-z0-9]+)?):\/\/([^:@/\s"'`]*):([^@/\s"'`]+)@([^/\s"'`:?#,;)]+)/gi;
/**
 * What every URI_CREDENTIAL match holds, as an expression that starts with a literal: the engine finds "://"
 * by a fast search where the full expression tries its scheme list at every word; most files hold no match.
 */
const URI_CREDENTIAL_CORE = /:\/\/[^:@/\s"'`]*:[^@/\s"'`]+@/;

/** Token formats of common services (live keys only; test-mode and publishable keys are meant to be shared). */
const TOKEN_FORMATS: readonly [RegExp, string][] = [
  [/\bAKIA[0-9A-Z]{16}\b/g, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{60,}\b/g, 'a GitHub token'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, 'a GitLab token'],
  [/\bxox[abpr]-[0-9]{6,}-[A-Za-z0-9-]{10,}\b/g, 'a Slack token'],
  [/\bhooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{16,}/g, 'a Slack webhook'],
  [/\b[rs]k_live_[A-Za-z0-9]{20,}\b/g, 'a Stripe live key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, 'a Google API key'],
  [/\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{40,}/g, 'an Anthropic API key'],
  [/\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}/g, 'an OpenAI API key'],
  [/\bhf_[A-Za-z0-9]{34}\b/g, 'a Hugging Face token'],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, 'an npm token'],
  [/\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g, 'a PyPI token'],
  [/\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, 'a SendGrid key'],
  [/\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g, 'a Telegram bot token'],
];

const PRIVATE_KEY = /-----BEGIN ((?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----/g;
/** A line of key material under the header (not `...` or a prose placeholder). */
const KEY_BODY = /^\s*["'`]?[A-Za-z0-9+/=]{40,}/;

/** `api_key = "…"`, `SECRET: …`, `"client_secret": "…"`: a value given to a secret-named key. */
const ASSIGNED =
  /(?<![\w$])["']?([A-Za-z_][\w.-]{0,60})["']?[ \t]*(?::=|=>|[:=])[ \t]*(?:[rbuf]?(["'`]))?([^\s"'`,;)}\]]{10,200})/g;
const SECRET_KEY_NAME =
  /(api[_-]?key|apikey|secret|token|passw(or)?d|passwd|pwd|access[_-]?key|private[_-]?key|auth[_-]?key|credential|consumer[_-]?key)s?$|^(secret|token|password)[_-]/i;
/** Keys that name something about a secret (its URL, file, length), not the secret itself. */
const NOT_A_SECRET_KEY =
  /(url|uri|endpoint|path|file|name|id|field|type|count|len|length|limit|max|min|env|var|header|prefix|pattern|regex|label|placeholder|hint|param|key_id|expires?\w*|ttl|format|policy|mode|scope|hash|source|provider|table|column)$|^(max|num|n)_|_(tokens|count)$/i;

/** Shannon entropy per character: generated secrets score high, words and identifiers low. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

function charClasses(s: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(s)).length;
}

/** Words and runs that people type into example credentials (`sk-1234567890abcdef`, `SecurePass123!`). */
const TYPED =
  /p[a@4]ss|w[o0]rd|s[e3]cr[e3]t|secure|test|demo|user|admin|prod|dev|review|example|change|letmein|welcome|qwerty|dummy|fake|sample|mock|my[_-]?key|1234|2345|3456|abcd|bcde|cdef|0000|9876|123!?$/i;

/**
 * A value that looks generated: long enough, mixed, not a word, a reference (`process.env.X`, `op://…`, a
 * dotted name), a flag, a path or a placeholder.
 */
function looksGenerated(value: string, min: number): boolean {
  if (value.length < min || PLACEHOLDER.test(value) || TYPED.test(value)) return false;
  if (/^([a-z][\w+.-]*:|\/|\.\/|~|-)|\.(json|ya?ml|toml|txt|pem|key|env|py|js)$|\(|^[\d.]+$/i.test(value))
    return false;
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value) || /(.)\1{5,}/.test(value)) return false;
  return charClasses(value) >= 2 && entropy(value) >= 3.3;
}

/** `AKIAQ3…M5K`: enough to recognise the credential, not enough to reuse it. */
function redact(line: string, secret: string): string {
  const shown = secret.length > 12 ? `${secret.slice(0, 4)}…${secret.slice(-3)}` : '…';
  return line.split(secret).join(shown).trim().slice(0, 300);
}

interface Found {
  index: number;
  secret: string;
  base: number;
  why: string;
}

function connectionUris(text: string): Found[] {
  const out: Found[] = [];
  if (!URI_CREDENTIAL_CORE.test(text)) return out;
  for (const m of text.matchAll(URI_CREDENTIAL)) {
    const [, scheme, user, password, host] = m as unknown as [string, string, string, string, string];
    if (PLACEHOLDER.test(password) || DUMMY_PASSWORD.test(password) || password === user) continue;
    if (NOT_A_SERVER.test(host) || PLACEHOLDER.test(host) || !/^[\w.-]+$/.test(host)) continue;
    // A pattern describing the format (`redis://:[^@]+@…` in a scanner's rules) is not a password.
    if (/[[\]\\()|^]/.test(password)) continue;
    // A token in the password slot (`https://x:ghp_…@github.com`) is reported by its format below.
    if (password.length < 6 || (charClasses(password) < 2 && password.length < 12)) continue;
    out.push({
      index: m.index,
      secret: password,
      base: 0.65,
      why: `a ${scheme.toLowerCase()} connection URI carries the password of ${user || 'its user'} for ${host}`,
    });
  }
  return out;
}

function tokens(text: string): Found[] {
  const out: Found[] = [];
  for (const [re, what] of TOKEN_FORMATS)
    for (const m of text.matchAll(re)) {
      const secret = m[0];
      if (/EXAMPLE|x{6,}|X{6,}|0{8,}|(.)\1{7,}/.test(secret)) continue;
      out.push({ index: m.index, secret, base: 0.7, why: `${what} is written into the file` });
    }
  return out;
}

function privateKeys(text: string): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(PRIVATE_KEY)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 400).split('\n');
    const body = after.slice(0, 3).find((l) => KEY_BODY.test(l.replace(/\\n/g, '')));
    if (!body) continue;
    out.push({
      index: m.index,
      secret: m[0],
      base: 0.75,
      why: `a ${m[1] ? `${m[1].trim()} ` : ''}private key with its key material is embedded`,
    });
  }
  return out;
}

/** A word that every key SECRET_KEY_NAME accepts holds, in any case. */
const SECRET_KEY_WORD = /key|secret|token|passw|pwd|credential/gi;

/**
 * The lines of `text` that hold a SECRET_KEY_WORD, with their offsets. An ASSIGNED match never spans lines, so
 * its matches on these lines are all its matches whose key can name a secret: most lines of code hold no such
 * word, and running the expression over every line was the detector's largest cost.
 */
function keyLines(text: string): { at: number; line: string }[] {
  const lines: { at: number; line: string }[] = [];
  for (let from = 0; from < text.length; ) {
    SECRET_KEY_WORD.lastIndex = from;
    const m = SECRET_KEY_WORD.exec(text);
    if (m === null) break;
    const at = text.lastIndexOf('\n', m.index) + 1;
    const end = text.indexOf('\n', m.index);
    from = end < 0 ? text.length : end + 1;
    lines.push({ at, line: text.slice(at, from) });
  }
  SECRET_KEY_WORD.lastIndex = 0;
  return lines;
}

function assignedSecrets(text: string, quotedOnly: boolean): Found[] {
  const out: Found[] = [];
  for (const { at, line } of keyLines(text))
    for (const m of line.matchAll(ASSIGNED)) {
      const [, key, quoteMark, value] = m as unknown as [string, string, string | undefined, string];
      if (quotedOnly && !quoteMark) continue;
      const leaf = key.split('.').pop() ?? key;
      if (!SECRET_KEY_NAME.test(leaf) || NOT_A_SECRET_KEY.test(leaf)) continue;
      const password = /passw|pwd/i.test(leaf);
      if (!looksGenerated(value, password ? 10 : 16)) continue;
      out.push({
        index: at + m.index,
        secret: value,
        base: 0.5,
        why: `${leaf} is given a literal high-entropy value`,
      });
    }
  return out;
}

const MAX_PER_FILE = 6;

function secretHits(ctx: FileContext): Hit[] {
  const { text } = ctx;
  const data = ctx.file.kind === 'data';
  const doc = ctx.file.kind === 'doc';
  const found = [
    ...privateKeys(text),
    ...tokens(text),
    ...connectionUris(text),
    // Config files write values bare (`API_KEY=…`, `token: …`); code quotes its literals. Tests and examples
    // assign made-up secrets to see them handled: only a known token format or key block counts there.
    ...(isTestPath(ctx.file.path) ? [] : assignedSecrets(text, !data)),
  ];
  if (found.length === 0) return [];
  const starts = lineStarts(text);
  const lines = text.split('\n');
  // An AWS key id with its secret beside it is a usable key pair, not an identifier on its own.
  const pair =
    found.some((f) => f.secret.startsWith('AKIA')) &&
    found.some((f) => !f.secret.startsWith('AKIA') && f.secret.length === 40);
  const byLine = new Map<number, Found>();
  for (const f of found) {
    const line = lineAt(starts, f.index);
    const prev = byLine.get(line);
    if (!prev || prev.base < f.base) byLine.set(line, f);
  }
  const hits: Hit[] = [];
  for (const [line, f] of [...byLine].sort((a, b) => a[0] - b[0]).slice(0, MAX_PER_FILE)) {
    let base = f.base;
    const notes: string[] = [];
    if (pair && (f.secret.startsWith('AKIA') || f.secret.length === 40)) {
      base = 0.8;
      notes.push('an AWS access key id and secret key are both present');
    }
    // Documentation shows the shape of a credential more often than a real one.
    if (doc) {
      base *= 0.8;
      notes.push('in documentation');
    }
    const { confidence, notes: where } = contextConfidence(ctx, base);
    hits.push({
      rule: RULE,
      line,
      endLine: line,
      evidence: redact(lines[line - 1] ?? '', f.secret),
      confidence: clamp(confidence),
      rationale: [f.why, ...notes, ...where].join('; '),
    });
  }
  return hits;
}

export const secretsDetector: Detector = {
  name: 'code-secrets',
  rules: SECRET_RULES,
  // Markdown is read whole, fenced blocks included, and only when it holds something shaped like a credential
  // (prose is otherwise the prose rules' business); the engine's per-block pass (a markdown path read as a
  // script) would only report the same lines again.
  appliesTo: (file) =>
    file.text !== null &&
    file.kind !== 'binary' &&
    !SKIPPED_FILE.test(file.path) &&
    !(file.kind === 'script' && MARKDOWN_PATH.test(file.path)) &&
    (file.kind !== 'doc' || CREDENTIAL_SHAPE.test(file.text)),
  detect: secretHits,
};
