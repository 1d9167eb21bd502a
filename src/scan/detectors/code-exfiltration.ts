// Data leaving the machine: E1 transmission to undeclared hosts, and flows from secret sources (environment,
// credential stores, other agents' context) into network sinks or staged files (E2, PE3, E4).

import { isDeclared, LOCAL_HOST_RE, registeredLabel } from '../../core/hosts.js';
import { DNS_NAME_FLOW, OWN_STORED_SECRET, UNNAMED_HOST_FLOW } from '../../score/index.js';
import { escapeRegExp } from '../../util/regexp.js';
import { callHit } from '../code/hits.js';
import type { Call, CodeModel } from '../code/model.js';
import { T, type Taint } from '../code/model.js';
import { READ_CALL_RE, WALK_CALL_RE, WALK_COMMANDS, WRITE_CALL_RE } from '../code/names.js';
import { carried, isPublicIpHost, type NetworkUse, networkUses } from '../code/network.js';
import {
  candidates,
  isAgentContextPath,
  isCredentialPath,
  isSecretName,
  normalisePath,
} from '../code/values.js';
import { codeDetector } from '../engine/code-detector.js';
import { rulesDetectedBy } from '../engine/rule-pack.js';
import { vocabulary } from '../engine/rule-shared.js';
import type { FileContext, Hit } from '../rule.js';
import { bodyProse, keychainService, storedKeychainServices } from '../skill-context.js';
import { shippedEndpoint } from './shipped-endpoint.js';
import { documentsSay } from './skill-hosts.js';

export const EXFILTRATION_RULES = rulesDetectedBy('code-exfiltration');

const E1 = 'code.external-transmission';
const E2 = 'code.env-harvest';
const PE3 = 'code.credential-access';
const E4 = 'code.context-leak';

/** Where a flow is reported: from the source line through the sink. */
function span(taint: Taint, bit: number, call: Call): { line: number; endLine: number } {
  const from = taint.lineOf(bit) ?? call.line;
  return from <= call.endLine
    ? { line: from, endLine: call.endLine }
    : { line: call.line, endLine: call.endLine };
}

/**
 * One finding per collection: a source sent by several sinks, or listed then read a few lines on, is one
 * finding (the earliest, most confident), not one per step.
 */
function oneFlowPerSource(hits: Hit[]): Hit[] {
  const kept: Hit[] = [];
  const ordered = [...hits].sort((a, b) => a.line - b.line || b.confidence - a.confidence);
  for (const h of ordered) {
    const same = kept.find(
      (k) =>
        k.rule === h.rule && k.rule !== E1 && (k.line === h.line || (h.rule === E4 && h.line - k.line <= 6)),
    );
    if (!same) kept.push({ ...h });
    else if (same.line === h.line && h.endLine > same.endLine) same.endLine = h.endLine;
  }
  return kept;
}

function dest(use: NetworkUse): string {
  if (use.host && use.shippedIn) return `${use.host} (read from ${use.shippedIn})`;
  if (use.host) return use.dynamicHost ? `a name built from data under ${use.host}` : use.host;
  return 'an endpoint computed at runtime';
}

/** Flow hits for one sink; `sources` collects `rule:line` of each flow's source so lone-source hits are not repeated. */
function flowHits(ctx: FileContext, use: NetworkUse, declared: boolean, sources: Set<string>): Hit[] {
  const hits: Hit[] = [];
  const note = (rule: string, taint: Taint, bit: number) => sources.add(`${rule}:${taint.lineOf(bit)}`);
  const all = carried(use).union(use.call.stdin);
  const call = use.call;
  if (all.has(T.CRED_DATA)) note(PE3, all, T.CRED_DATA);
  if (all.has(T.CTX_DATA)) note(E4, all, T.CTX_DATA);
  if (all.has(T.ENV_ALL)) note(E2, all, T.ENV_ALL);
  // A flow from another module of the program to an endpoint set at run time (a configured API) is the weakest
  // reading of names linked across files: it stays a finding, below the line, unless the destination is named.
  const crossToConfigured = (bit: number) =>
    !use.host &&
    !use.dynamicHost &&
    ctx.fileOf !== undefined &&
    ctx.fileOf(all.lineOf(bit) ?? call.line) !== ctx.fileOf(call.line);
  const base = (confidence: number, bit: number) => (crossToConfigured(bit) ? 0.35 : confidence);
  // A literal destination the skill never names, or a name built from data under one (a DNS lookup that
  // carries the data): the decision treats such a flow as a stealer's.
  const unnamed = use.host && !declared ? `; ${UNNAMED_HOST_FLOW}` : '';
  if (all.has(T.CRED_DATA))
    hits.push(
      callHit(
        ctx,
        call,
        PE3,
        base(0.9, T.CRED_DATA),
        `credential data read at line ${all.lineOf(T.CRED_DATA)} reaches a network call to ${dest(use)}${unnamed}`,
        `Credential file contents are sent to ${dest(use)}.`,
        span(all, T.CRED_DATA, call),
      ),
    );
  if (all.has(T.CTX_DATA))
    hits.push(
      callHit(
        ctx,
        call,
        E4,
        base(0.85, T.CTX_DATA),
        `agent context read at line ${all.lineOf(T.CTX_DATA)} reaches a network call to ${dest(use)}`,
        `Agent memory or configuration is sent to ${dest(use)}.`,
        span(all, T.CTX_DATA, call),
      ),
    );
  if (all.has(T.ENV_ALL))
    hits.push(
      callHit(
        ctx,
        call,
        E2,
        base(declared ? 0.75 : 0.9, T.ENV_ALL),
        `the whole environment (line ${all.lineOf(T.ENV_ALL)}) reaches a network call to ${dest(use)}${unnamed}`,
        `The environment is sent to ${dest(use)}.`,
        span(all, T.ENV_ALL, call),
      ),
    );
  const secretOut = use.payload.union(use.call.stdin).union(use.kind === 'dns' ? use.urlTaint : use.payload);
  // One key in a request body can be how an API authenticates; several secrets collected is harvesting.
  const many = secretNamesRead(ctx.text) >= 2;
  const forwarded = foreignVendorSecret(ctx, use);
  // No service reads a secret out of the name it is asked to resolve: that is a channel out, to anyone's domain.
  const inDnsName = use.kind === 'dns' && use.urlTaint.has(T.ENV_SECRET);
  if (forwarded)
    hits.push(
      callHit(
        ctx,
        call,
        E2,
        0.75,
        `${forwarded} is sent to ${use.host}, which is not that service`,
        `${forwarded} is forwarded to a third party.`,
        span(carried(use), T.ENV_SECRET, call),
      ),
    );
  else if (
    secretOut.has(T.ENV_SECRET) &&
    (inDnsName || ((!declared || many) && !ownServiceSecrets(ctx, use)))
  )
    hits.push(
      callHit(
        ctx,
        call,
        E2,
        inDnsName ? 0.85 : many ? (declared ? 0.6 : 0.8) : 0.5,
        inDnsName
          ? `a secret-named variable (line ${secretOut.lineOf(T.ENV_SECRET)}) is ${DNS_NAME_FLOW} under ${use.host ?? 'a domain computed at runtime'}`
          : `a secret-named variable (line ${secretOut.lineOf(T.ENV_SECRET)}) is sent as data to ${dest(use)}, which the skill does not declare`,
        `A secret is sent to ${dest(use)}.`,
        span(secretOut, T.ENV_SECRET, call),
      ),
    );
  return hits;
}

const SECRET_READ_RE =
  /(?:environ(?:\.get)?\s*[([]\s*|getenv\(\s*|process\.env\.|process\.env\[\s*|\$\{?|\$env:)["'`]?([A-Za-z_][A-Za-z0-9_]*)/g;

/** How many distinct secret-named environment variables the file reads. */
function secretNamesRead(text: string): number {
  const names = new Set<string>();
  for (const m of text.matchAll(SECRET_READ_RE)) if (isSecretName(m[1]!)) names.add(m[1]!);
  return names.size;
}

/** Secrets named for a service, and the domains that service answers on. */
const VENDORS: readonly [RegExp, RegExp][] = [
  [/^(GITHUB|GH)_/, /(^|\.)(github\.com|githubusercontent\.com)$/],
  [/^OPENAI_/, /(^|\.)openai\.com$/],
  [/^ANTHROPIC_/, /(^|\.)anthropic\.com$/],
  [/^SLACK_/, /(^|\.)slack\.com$/],
  [/^(AWS)_/, /(^|\.)(amazonaws\.com|aws\.amazon\.com)$/],
  [/^STRIPE_/, /(^|\.)stripe\.com$/],
  [/^NOTION_/, /(^|\.)(notion\.com|notion\.so)$/],
  [/^(HF|HUGGINGFACE)_/, /(^|\.)huggingface\.co$/],
  [/^DISCORD_/, /(^|\.)(discord\.com|discordapp\.com)$/],
  [/^TELEGRAM_/, /(^|\.)telegram\.org$/],
  [/^(GOOGLE|GEMINI|GCP)_/, /(^|\.)(googleapis\.com|google\.com)$/],
  [/^LINEAR_/, /(^|\.)linear\.app$/],
  [/^(GITLAB|GL)_/, /(^|\.)gitlab\.com$/],
  [/^(JIRA|CONFLUENCE|ATLASSIAN|BITBUCKET)_/, /(^|\.)(atlassian\.(net|com)|bitbucket\.org)$/],
];

/**
 * A service's secret (GITHUB_TOKEN, OPENAI_API_KEY…) named in this request, which goes to a host that is not
 * that service: credential forwarding to a third party, whatever the skill declares.
 */
function foreignVendorSecret(ctx: FileContext, use: NetworkUse): string | null {
  if (!use.host || !carried(use).has(T.ENV_SECRET)) return null;
  for (const m of ctx.text.matchAll(SECRET_READ_RE)) {
    const name = m[1]!;
    const vendor = VENDORS.find(([re]) => re.test(name));
    if (!vendor || vendor[1].test(use.host)) continue;
    // The request names the variable, or a variable assigned from it.
    const aliases = [...ctx.text.matchAll(new RegExp(`(\\w+)\\s*[:=]\\s*[^\\n;]*\\b${name}\\b`, 'g'))].map(
      (a) => a[1]!,
    );
    if ([name, ...aliases].some((n) => new RegExp(`\\b${n}\\b`).test(use.call.text))) return name;
  }
  return null;
}

/** Words of a secret's name that say what kind of secret it is, not whose. */
const SECRET_KIND_WORDS = new Set([
  'api',
  'key',
  'keys',
  'token',
  'tokens',
  'secret',
  'secrets',
  'access',
  'auth',
  'private',
  'public',
  'client',
  'password',
  'pass',
  'credential',
  'credentials',
  'project',
  'write',
  'read',
]);

/**
 * Every secret the code reads is named for the service the request goes to (`ACME_METRICS_KEY` sent to
 * metrics.acme.io): a vendor's key in the body is how that vendor authenticates (some APIs take it there),
 * not a secret handed to a third party.
 */
function ownServiceSecrets(ctx: FileContext, use: NetworkUse): boolean {
  if (!use.host) return false;
  const labels = new Set(use.host.toLowerCase().split(/[.-]/));
  let any = false;
  for (const m of ctx.text.matchAll(SECRET_READ_RE)) {
    const name = m[1]!;
    if (!isSecretName(name)) continue;
    any = true;
    const words = name.toLowerCase().split(/[_\d]+/);
    if (!words.some((w) => w.length >= 4 && !SECRET_KIND_WORDS.has(w) && labels.has(w))) return false;
  }
  return any;
}

/** Data no declared purpose covers: credential stores, other agents' context, the whole environment. */
const HARVESTED = T.CRED_DATA | T.CTX_DATA | T.ENV_ALL;

function transmissionHit(ctx: FileContext, use: NetworkUse, declared: boolean): Hit | null {
  const call = use.call;
  const all = carried(use);
  if (declared) {
    // Declaring a host covers the skill's own data, not what it harvests: a host named in SKILL.md (often by
    // the very instruction that plants the send) still receives data beyond what the skill declares.
    const sent = use.payload.union(call.stdin);
    const forwarded = foreignVendorSecret(ctx, use);
    if (!sent.has(HARVESTED) && !forwarded) return null;
    const what =
      forwarded ??
      (sent.has(T.CRED_DATA)
        ? 'credential data'
        : sent.has(T.CTX_DATA)
          ? 'agent context'
          : 'the environment');
    return callHit(
      ctx,
      call,
      E1,
      0.55,
      `${what} is sent to ${dest(use)}; declaring that host does not cover data harvested from elsewhere`,
      `Harvested data (${what}) is sent to ${dest(use)}.`,
    );
  }
  if (use.kind === 'dns') {
    if (!use.dynamicHost) return null;
    return callHit(
      ctx,
      call,
      E1,
      0.75,
      `DNS lookup of a name built from data under ${use.host ?? 'an unknown domain'} (a DNS exfiltration channel)`,
      `Data is encoded into a DNS lookup under ${use.host ?? 'an unknown domain'}.`,
    );
  }
  // A secret in the body is data handed to the host, not how the request authenticates.
  const body = use.payload.union(use.call.stdin);
  if (body.has(T.ENV_SECRET) && !ownServiceSecrets(ctx, use))
    return callHit(
      ctx,
      call,
      E1,
      use.host ? 0.6 : 0.5,
      `a secret-named variable (line ${body.lineOf(T.ENV_SECRET)}) is sent in the request body to ${dest(use)}, a host the skill does not declare`,
      `A secret is sent as data to undeclared host ${dest(use)}.`,
    );
  if (all.has(T.ENV_SECRET))
    return callHit(
      ctx,
      call,
      E1,
      0.3,
      use.host
        ? `a secret-named variable is used (as credential) with ${dest(use)}, a host the skill does not declare`
        : 'a secret-named variable is used (as credential) with an endpoint computed at runtime (a configured base URL the skill does not name)',
      use.host
        ? `A credential is sent to undeclared host ${dest(use)}.`
        : 'A credential is sent to an endpoint computed at runtime.',
    );
  if (!use.sends) return null;
  // An endpoint computed at run time (a configured base URL) is the user's choice unless secrets ride on it.
  const secretData = all.union(use.call.stdin).has(T.ENV_ALL | T.ENV_SECRET | T.CRED_DATA | T.CTX_DATA);
  if (!use.host && !use.dynamicHost && !secretData) return null;
  // Mail, cloud storage and copies to a host (scp, rsync, ssh) carry the user's own output (a report, a build)
  // to where the user sends it; only what the script harvests on the way (caught by the flows, or a credential
  // read before the send: carriesReadCredentials) or a bare-IP destination makes them a leak.
  if (
    (use.kind === 'mail' || use.kind === 'storage' || use.kind === 'copy') &&
    !secretData &&
    !isPublicIpHost(use.host)
  )
    return null;
  const base = use.host ? 0.6 : 0.45;
  // Credential file contents on their way out: the transmission is the theft itself, not a mere upload.
  const creds = all.union(use.call.stdin);
  if (creds.has(T.CRED_DATA))
    return callHit(
      ctx,
      call,
      E1,
      0.85,
      `sends credential data read at line ${creds.lineOf(T.CRED_DATA)} to ${dest(use)}, which the skill does not declare`,
      `Credentials are sent to undeclared host ${dest(use)}.`,
    );
  // A body written out whole in the command (a login with a test user, an introspection query) sends what the
  // text shows and nothing of the machine's: a request to a host the skill does not name, not a leak.
  if (use.literalBody && !isPublicIpHost(use.host))
    return callHit(
      ctx,
      call,
      E1,
      0.3,
      `sends only what the command writes out to ${dest(use)}, which the skill does not declare`,
      `A request with a written-out body goes to undeclared host ${dest(use)}.`,
    );
  // A bare public IP address names no service anyone could recognise or declare: a drop box, not an API.
  if (isPublicIpHost(use.host))
    return callHit(
      ctx,
      call,
      E1,
      0.75,
      `sends data to the raw IP address ${use.host}, which the skill does not declare`,
      `Data is sent to a bare IP address (${use.host}).`,
    );
  return callHit(
    ctx,
    call,
    E1,
    base,
    `sends data to ${dest(use)}, which the skill does not declare`,
    `Data is sent to undeclared host ${dest(use)}.`,
  );
}

/** Files written with tainted data, by constant path, so a later upload of that path carries the taint. */
function stagedFiles(model: CodeModel): Map<string, Taint> {
  const staged = new Map<string, Taint>();
  for (const c of model.calls) {
    const taint =
      c.kind === 'command'
        ? c.output
        : c.args.slice(1).reduce((t, a) => t.union(a.taint), c.args[0]?.taint ?? c.output);
    if (taint.bits === 0) continue;
    const path =
      c.kind === 'command' ? c.redirectTo : WRITE_CALL_RE.test(c.callee) ? (c.args[0]?.str ?? null) : null;
    if (path) staged.set(normalisePath(path), (staged.get(path) ?? taint).union(taint));
    // Archivers and copies (`tar czf out.tgz ~/.ssh`, `cp ~/.aws/credentials /tmp/x`) stage the data they read.
    if (
      c.kind === 'command' &&
      /^(tar|zip|7z|cp|gzip|rsync)$/.test(c.callee) &&
      c.output.has(T.CRED_DATA | T.CTX_DATA)
    )
      for (const a of c.args) {
        const p = a.str ?? '';
        if (p && !p.startsWith('-') && !isCredentialPath(p) && !isAgentContextPath(p))
          staged.set(normalisePath(p), c.output);
      }
  }
  return staged;
}

function uploadsStaged(use: NetworkUse, staged: Map<string, Taint>): Taint | null {
  for (const a of use.call.args) {
    const ref = (a.str ?? '').replace(/^[\w-]*=?@|^@/, '');
    const t = staged.get(normalisePath(ref));
    if (t && ref) return t;
  }
  return null;
}

/** A path into this skill's own install (`~/.x/skills/<own name>/skill.json`): its own files, not another agent's. */
function ownSkillPath(ctx: FileContext, path: string): boolean {
  const name = ctx.skill.name.trim().toLowerCase();
  return name.length >= 3 && normalisePath(path).toLowerCase().split('/').includes(name);
}

/**
 * Lone agent-context reads (no sink in this file): a scanner reading the skills it scans, a tool reading its
 * own config or traces. Without anything that could carry them out they are context, not a leak: reported
 * below the line unless the script also sends data to an undeclared host. A read of the skill's own install is
 * not another agent's context at all.
 */
const LONE_CONTEXT_READ = 0.25;

// `security find-generic-password -s <service>`: one named keychain item. A CLI keeps its own token there (what
// Python's keyring does); another application's item (a browser's Safe Storage key, a password manager's) is
// what a stealer reads. Without a service it searches every item.
const KEYCHAIN_READ = /\bfind-(?:generic|internet)-password\b/;
const OTHER_APP_ITEM =
  /safe\s*storage|chrom|brave|edge|opera|vivaldi|firefox|safari|1password|bitwarden|lastpass|keepass|dashlane|slack|discord|telegram|signal|whatsapp|metamask|exodus|electrum|ledger|wallet|icloud|airport|wi-?fi/i;
const OWN_KEYCHAIN_ITEM = 0.3;

/** For a read of one named keychain item: whose it is; null for other calls. */
function keychainItem(ctx: FileContext, c: Call): 'other-app' | 'stored-here' | 'named' | null {
  if (!KEYCHAIN_READ.test(c.text)) return null;
  const service = keychainService(c.text);
  if (!service) return null;
  if (OTHER_APP_ITEM.test(service)) return 'other-app';
  return storedKeychainServices(ctx.skill).has(service) ? 'stored-here' : 'named';
}

/** A secret source alone (no sink in this file): credential store or agent context read, env dump stored. */
function sourceHits(ctx: FileContext, model: CodeModel, sends: boolean): Hit[] {
  const hits: Hit[] = [];
  const contextBase = sends ? 0.55 : LONE_CONTEXT_READ;
  for (const c of model.calls) {
    const readsHere = (bit: number) => c.output.has(bit) && c.output.lineOf(bit) === c.line;
    const pathArgs = [...c.args, ...(c.receiver ? [c.receiver] : [])].flatMap(candidates);
    const archives = c.kind === 'call' && /(^|\.)(add|write|copy|copy2|copyfile|copytree)$/.test(c.callee);
    if (!readsHere(T.CRED_DATA) && archives && pathArgs.some(isCredentialPath)) {
      const path = pathArgs.find(isCredentialPath)!;
      hits.push(
        callHit(
          ctx,
          c,
          PE3,
          0.7,
          `copies ${path} into an archive or another file`,
          `Packs credential store ${path}.`,
        ),
      );
    } else if (readsHere(T.CRED_DATA)) {
      const item = keychainItem(ctx, c);
      if (item === 'other-app')
        hits.push(callHit(ctx, c, PE3, 0.85, "reads another application's keychain item"));
      else if (item) {
        const whose = item === 'stored-here' ? `; ${OWN_STORED_SECRET}` : '';
        const why = `reads one named keychain item (a tool keeps its own token so)${whose}`;
        hits.push(callHit(ctx, c, PE3, OWN_KEYCHAIN_ITEM, why));
      } else {
        const path = pathArgs.find(isCredentialPath) ?? 'a credential store';
        hits.push(callHit(ctx, c, PE3, 0.7, `reads ${path}`, `Reads credential store ${path}.`));
      }
    } else if (
      /^security$/.test(c.callee) &&
      c.args.some((a) => /find-(generic|internet)-password|dump-keychain/.test(a.str ?? ''))
    ) {
      hits.push(callHit(ctx, c, PE3, 0.7, 'queries the macOS keychain for stored passwords'));
    } else if (
      c.kind === 'command' &&
      /^(find|locate|fd|grep|rg)$/.test(c.callee) &&
      c.args.some((a) =>
        // `.env` the file (a path's start), not `.env` the property (`process.env.X` in a search pattern).
        /id_(rsa|ed25519|ecdsa|dsa)|\.pem$|credentials|\.netrc|wallet\.dat|(?:^|[\s/'"=*])\\?\.env\b/.test(
          a.str ?? '',
        ),
      )
    ) {
      hits.push(callHit(ctx, c, PE3, 0.65, 'searches the file system for key or credential files'));
    }
    if (c.callee === 'osascript' && c.args.some((a) => /hidden answer/i.test(a.str ?? '')))
      hits.push(callHit(ctx, c, PE3, 0.8, 'shows a fake password dialog (osascript "with hidden answer")'));
    if (
      c.kind === 'command' &&
      /^(dscl|security)$/.test(c.callee) &&
      c.args.some((a) => /^(-authonly|unlock-keychain)$/.test(a.str ?? ''))
    )
      hits.push(callHit(ctx, c, PE3, 0.7, `checks or uses the login password (${c.callee})`));
    // Another agent's context, listed or read: a leak when the script can send it, a weak sign on its own.
    const contextHit = (what: string, message: string) =>
      hits.push(callHit(ctx, c, E4, contextBase, loneWhy(what, sends), message));
    const walks = c.kind === 'command' ? WALK_COMMANDS.has(c.callee) : WALK_CALL_RE.test(c.callee);
    if (walks && !readsHere(T.CTX_DATA)) {
      const dir = pathArgs.find(isAgentContextPath);
      if (dir && !ownSkillPath(ctx, dir))
        contextHit(`lists ${dir}`, `Collects another agent's files: ${dir}.`);
    }
    if (readsHere(T.CTX_DATA)) {
      const path = pathArgs.find(isAgentContextPath) ?? 'agent context';
      const named = pathArgs.filter(isAgentContextPath);
      const own = named.length > 0 && named.every((p) => ownSkillPath(ctx, p));
      if (!own) contextHit(`reads ${path}`, `Reads another agent's context: ${path}.`);
    }
    // The environment written to a file (or a file-like sink): harvested for later.
    const writes =
      c.kind === 'command'
        ? c.redirectTo !== null ||
          /^(out-file|set-content|add-content|export-csv|export-clixml|tee-object)$/.test(c.callee)
        : WRITE_CALL_RE.test(c.callee) || /(^|\.)(write|writelines|writerows?|dump)$/.test(c.callee);
    const envOut = c.kind === 'command' ? c.output : c.args.reduce((t, a) => t.union(a.taint), c.output);
    if (writes && envOut.has(T.ENV_ALL))
      hits.push(
        callHit(
          ctx,
          c,
          E2,
          0.6,
          `the whole environment (line ${envOut.lineOf(T.ENV_ALL)}) is written to a file`,
          'The environment is dumped to a file.',
          span(envOut, T.ENV_ALL, c),
        ),
      );
  }
  return hits;
}

function loneWhy(why: string, sends: boolean): string {
  return sends ? why : `${why}; nothing in this file sends it anywhere`;
}

/** `e = os.environ`, `const env = process.env`: naming the environment, not yet reading it. */
const ENV_ALIAS_LINE =
  /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*(?:os\.environ|process\.env)\s*;?\s*$/;

/**
 * A flow whose source is an alias of the environment starts where the alias is used (the secret is read there),
 * not at the alias line, which may sit far above in another function.
 */
function pastAlias(ctx: FileContext, hit: Hit): Hit {
  if (hit.rule !== E2 || hit.endLine <= hit.line) return hit;
  const lines = ctx.text.split('\n');
  const alias = ENV_ALIAS_LINE.exec(lines[hit.line - 1] ?? '')?.[1];
  if (!alias) return hit;
  const use = new RegExp(`(^|[^\\w$.])${alias.replace(/\$/g, '\\$')}\\b`);
  for (let n = hit.line + 1; n <= hit.endLine; n++)
    if (use.test(lines[n - 1] ?? '')) return { ...hit, line: n };
  return hit;
}

/** What an agent holds privately: the words a SKILL.md uses when it asks for it to be written to a file. */
const PRIVATE_CONTEXT =
  /system[ -]?prompt|(whole|full|entire|complete|this|current|the)\s+(conversation|chat|session|transcript)|chat history|conversation history|your (instructions|rules|guidelines|memory)|hidden instructions|developer message/i;
const WRITE_VERB = /\b(write|save|dump|copy|paste|store|put|append|export|record|output|log)\b/i;
const READER_COMMANDS = /^(cat|head|tail|base64|jq|get-content|type|xxd|gzip|tar|zip|curl)$/;

/** A command's arguments minus its program: `jq '.[].name' f.json` reads f.json, not a file named `.[].name`. */
function programArgsDropped(c: Call): Call['args'] {
  if (c.callee !== 'jq') return c.args;
  const i = c.args.findIndex((a) => !(a.str ?? a.text).startsWith('-'));
  return i < 0 ? c.args : [...c.args.slice(0, i), ...c.args.slice(i + 1)];
}

/** Constant file names a call reads. */
function readNames(c: Call): string[] {
  const vals =
    c.kind === 'call'
      ? (READ_CALL_RE.test(c.callee) && !WRITE_CALL_RE.test(c.callee)) || WALK_CALL_RE.test(c.callee)
        ? c.args.slice(0, 1)
        : []
      : READER_COMMANDS.test(c.callee) || WALK_COMMANDS.has(c.callee)
        ? programArgsDropped(c)
        : [];
  return (
    vals
      .flatMap(candidates)
      .map((p) => p.replace(/^[\w-]*=?@|^@/, '').replace(/^file:\/\//i, ''))
      // A URL names a resource elsewhere (curl's `https://api.example.com/user` reads no file named `user`).
      .filter(
        (p) => p.length > 0 && !p.startsWith('-') && !p.includes('\u2026') && !/^[a-z][\w+.-]*:\/\//i.test(p),
      )
  );
}

/**
 * Names by which SKILL.md may point at a read path: its file name, and its folder when that is distinctive
 * (`.kb`, `kb_cache`), since an instruction may name the folder the dump goes into.
 */
function dumpNames(path: string): string[] {
  const parts = path.split(/[\\/]/).filter((p) => p.length > 0 && p !== '~' && p !== '.');
  const file = parts[parts.length - 1] ?? '';
  const dir = parts[parts.length - 2] ?? '';
  const out = file.length >= 4 ? [file] : [];
  if (dir.length >= 3 && /^\.|[_-]/.test(dir)) out.push(dir);
  return out;
}

/**
 * The sentences of a SKILL.md body that ask the agent to write its private context somewhere. Asked once
 * per body, not once per script of the skill: the last body's answer is kept.
 */
let lastDump: { body: string; asked: string[] } | null = null;

function dumpInstructions(body: string): string[] {
  if (lastDump?.body === body) return lastDump.asked;
  // One instruction (a sentence, possibly wrapped over lines) asks to write the private context somewhere.
  // Inside fenced code each line stands alone: a block of commands is not one long sentence whose words
  // (`output:`, a `.system` field) could make up an instruction.
  const asked = !PRIVATE_CONTEXT.test(body)
    ? []
    : body
        .replace(/^(\s*)(```|~~~)[^\n]*\n([\s\S]*?)^\s*\2/gm, (_m, _i, _f, code: string) =>
          code.replace(/\n/g, '.\n'),
        )
        // A blank line, a heading, a list item or a table row ends the sentence before it too.
        .replace(/\n[ \t]*(?=\n|#|[-*+][ \t]|\d+[.)][ \t]|\|)/g, '.\n')
        .replace(/\s*\n\s*/g, ' ')
        .split(/(?<=[.!?])\s+/)
        .filter((sentence) => PRIVATE_CONTEXT.test(sentence) && WRITE_VERB.test(sentence));
  lastDump = { body, asked };
  return asked;
}

/**
 * E4 across files: SKILL.md tells the agent to write its system prompt or the conversation into a file, and
 * this script reads that file (to send or emit it). The read is the leak's code half.
 */
function dumpedContextReads(ctx: FileContext, model: CodeModel): Hit[] {
  const asked = dumpInstructions(ctx.skill.body);
  if (asked.length === 0) return [];
  const hits: Hit[] = [];
  for (const c of model.calls) {
    for (const path of readNames(c)) {
      const file = dumpNames(path).find((name) => {
        const re = new RegExp(`(^|[^\\w.-])${escapeRegExp(name)}($|[^\\w-])`);
        return asked.some((l) => re.test(l));
      });
      if (!file) continue;
      hits.push(
        callHit(
          ctx,
          c,
          E4,
          0.75,
          `reads ${file}, where SKILL.md tells the agent to write its system prompt or conversation`,
          `Reads the agent's private context dumped to ${file}.`,
        ),
      );
      break;
    }
  }
  return hits;
}

/** Environment reads by a computed name (`os.getenv(name)`), whose key the taint cannot resolve. */
const ENV_READ_CALL = /^(os\.getenv|os\.environ\.(get|pop|setdefault|__getitem__)|System\.getenv)$/;
/** A literal list or tuple of environment-variable names (`("GITHUB_TOKEN", "NPM_TOKEN")`). */
const NAME_LIST_RE =
  /[[({]\s*((?:["'][A-Z][A-Z0-9_]{2,}["']\s*,\s*)+["'][A-Z][A-Z0-9_]{2,}["'])\s*,?\s*[\])}]/g;

/** `if not os.getenv(k)`, `missing = [k for k in REQUIRED if not …]`: checking a key is set, not collecting it. */
const PRESENCE_CHECK = /\b(if|elif|while|assert|all|any|not)\b|\bis\s+(not\s+)?None\b|missing/;

/** Secret-looking names of the largest literal name list in the file. */
function listedSecretNames(text: string): string[] {
  let best: string[] = [];
  for (const m of text.matchAll(NAME_LIST_RE)) {
    const names = [...m[1]!.matchAll(/["']([A-Z0-9_]+)["']/g)].map((n) => n[1]!).filter(isSecretName);
    if (names.length > best.length) best = names;
  }
  return best;
}

/**
 * Secret-named variables collected from a list (`for n in ("AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"):
 * os.getenv(n)`) when the script also sends or writes data: harvesting reported at the read, even where the
 * gathered values cross functions the taint does not follow.
 */
function listedSecretReads(ctx: FileContext, model: CodeModel): Hit[] {
  const lines = ctx.text.split('\n');
  const reads = model.calls.filter(
    (c) =>
      ENV_READ_CALL.test(c.callee) &&
      c.args[0] !== undefined &&
      c.args[0].str === null &&
      !PRESENCE_CHECK.test(lines[c.line - 1] ?? ''),
  );
  if (reads.length === 0) return [];
  const names = listedSecretNames(ctx.text);
  if (names.length < 2) return [];
  const leaves =
    networkUses(model.calls).some((u) => u.sends) ||
    model.calls.some((c) => WRITE_CALL_RE.test(c.callee) || /(^|\.)(write|dump)$/.test(c.callee));
  if (!leaves) return [];
  const shown = names.slice(0, 3).join(', ');
  return reads.map((c) =>
    callHit(
      ctx,
      c,
      E2,
      0.7,
      `reads secret-named variables from a list (${shown}) by computed name, and the script sends or writes data`,
      `Secret environment variables (${shown}) are collected.`,
    ),
  );
}

/** Reverse shells: the machine is handed to a remote host (`/dev/tcp`, `nc -e`, `socat exec:`). */
const REVERSE_SHELL =
  /\/dev\/(tcp|udp)\/[^/\s]+\/\d+|^(nc|ncat|netcat)\b.*\s-[ec]\s|socat\b.*\bexec:|pty\.spawn\(/;

/** `/dev/tcp/HOST/PORT` paths in a command's text. */
const DEV_TCP_ALL = /\/dev\/(?:tcp|udp)\/([^/\s"']+)\/[^\s"']+/g;
/** Writing to the socket or binding it both ways (`>/dev/tcp`, `<>/dev/tcp`, `>&/dev/tcp`, `>&3`). */
const DEV_TCP_SENDS = /(>|<>|>&)\s*\/dev\/(tcp|udp)\/|>&\s*\d|\b(ba|z|da|k)?sh\s+-i\b/;

/**
 * `/dev/tcp` that carries nothing out: every host is the machine itself (a local port probe), or the
 * socket is only opened for reading (`timeout 1 bash -c "</dev/tcp/db/5432"` checks that a port is open).
 */
function devTcpProbe(text: string): boolean {
  const hosts = [...text.matchAll(DEV_TCP_ALL)].map((m) => m[1]!.toLowerCase());
  if (hosts.length === 0) return false;
  // `echo > /dev/tcp/h/p` and `: > /dev/tcp/h/p` write an empty line: the classic probe, not a send.
  const written = text.replace(/(^|[;&|(\s])(echo|:|true)\s*>\s*\/dev\/(tcp|udp)\//g, '$1');
  return hosts.every((h) => LOCAL_HOST_RE.test(h)) || !DEV_TCP_SENDS.test(written);
}

function reverseShellHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = [];
  // A payload quoted in a document that nothing runs is a cheat sheet (same discount as code-remote-shell).
  const docs = /\.(md|markdown|mdx|rst|txt)$/i.test(ctx.file.path) && !ctx.reachable;
  for (const c of model.calls) {
    if (!REVERSE_SHELL.test(c.text) || (c.kind === 'call' && c.callee !== 'pty.spawn')) continue;
    if (c.kind === 'call' && !model.calls.some((o) => /^socket\./.test(o.callee))) continue;
    if (c.kind === 'command' && devTcpProbe(c.text)) continue;
    hits.push(
      callHit(
        ctx,
        c,
        E1,
        docs ? 0.85 * 0.45 : 0.85,
        `opens a reverse shell to a remote host${docs ? '; quoted in a document that nothing runs' : ''}`,
        'Reverse shell: a remote host gets a shell on this machine.',
      ),
    );
  }
  return hits;
}

// Names reserved for documentation (RFC 2606, RFC 6761): nobody receives data there, so the code that uses one
// may vouch for it as the API it documents. That covers how a call authenticates, not a secret handed over as
// data (a body, a query, a DNS label): samples of attacks use reserved names for the drop host too.
const RESERVED_HOST = /(^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$/;
// A label no service a skill depends on gives itself: a host named a stager, a backdoor or an exfiltration
// collector is where an attack sends what it takes, whoever lists it.
const ATTACK_LABEL = new RegExp(`^(?:${vocabulary('ATTACK_HOST_WORD')})$`, 'i');

/** True when a label of the host, or a hyphen-separated word of one, names attack infrastructure. */
function namesAttackInfrastructure(host: string): boolean {
  return host.split('.').some((label) => label.split('-').some((word) => ATTACK_LABEL.test(word)));
}

/**
 * How a host is declared: the skill lists it or names its service in words ("drafts GitHub release notes"
 * declares api.github.com; the service label must be a distinctive word of the skill's text), or, for a
 * documentation name, only by the code that uses it ('own-use').
 */
function declaredFor(ctx: FileContext, host: string): 'declared' | 'own-use' | null {
  if (namesAttackInfrastructure(host)) return null;
  if (isDeclared(host, ctx.declaredHosts)) return 'declared';
  const service = registeredLabel(host);
  if (
    service.length < 4 ||
    /^(com|net|org|api|app|cloud|data|hooks?|cdn|static|files?|upload|collect(or)?|paste|bin)$/.test(service)
  )
    return null;
  // The file signs in with a key named for the service (LINEAR_API_KEY with api.linear.app): it uses that service.
  for (const m of ctx.text.matchAll(SECRET_READ_RE)) {
    const name = m[1]!;
    if (!isSecretName(name)) continue;
    if (
      name
        .toLowerCase()
        .split(/[_\d]+/)
        .includes(service)
    )
      return 'declared';
    if (VENDORS.some(([secret, domain]) => secret.test(name) && domain.test(host))) return 'declared';
  }
  const named = (body: string) =>
    new RegExp(`\\b${escapeRegExp(service)}\\b`, 'i').test(
      `${ctx.skill.name}\n${ctx.skill.description}\n${body}`,
    );
  if (named(bodyProse(ctx.skill))) return 'declared';
  // Only a documentation name (nobody receives data there) may be vouched for by the code that uses it.
  return RESERVED_HOST.test(host) && named(ctx.skill.body) ? 'own-use' : null;
}

/** declaredFor once per file and host: the sink loop and the same-script checks ask about the same hosts. */
const declaredSeen = new WeakMap<FileContext, Map<string, 'declared' | 'own-use' | null>>();

export function declaredHow(ctx: FileContext, host: string): 'declared' | 'own-use' | null {
  const seen = declaredSeen.get(ctx) ?? new Map<string, 'declared' | 'own-use' | null>();
  declaredSeen.set(ctx, seen);
  const known = seen.get(host);
  if (known !== undefined) return known;
  const d = declaredFor(ctx, host);
  seen.set(host, d);
  return d;
}

function declaredOnce(ctx: FileContext, host: string): boolean {
  return declaredHow(ctx, host) !== null;
}

/** The use's host is declared for what it carries: a name vouched for by its own use never receives a secret. */
function declaredForUse(ctx: FileContext, use: NetworkUse): boolean {
  if (use.host === null) return false;
  const how = declaredHow(ctx, use.host);
  if (how !== 'own-use') return how === 'declared';
  const data = use.payload.union(use.call.stdin).union(use.urlTaint);
  return !data.has(T.ENV_SECRET) && !data.has(HARVESTED);
}

/**
 * A request that carries runtime data (a variable, a call's result, stdin) to a host the skill does not
 * declare and that is not this machine: where a credential read elsewhere in the same script ends up when
 * the value crosses functions (`send(collect())`) that the taint does not follow.
 */
function undeclaredDataSend(
  ctx: FileContext,
  model: CodeModel,
  uses: readonly NetworkUse[],
): NetworkUse | null {
  for (const use of uses) {
    if (!use.sends || (!use.host && !use.dynamicHost)) continue;
    if (!runtimePayload(use, model)) continue;
    if (use.host && (LOCAL_HOST_RE.test(use.host) || declaredForUse(ctx, use))) continue;
    return use;
  }
  return null;
}

const DATA_FLAG =
  /^(-d|-F|-T|--data[\w-]*|--form[\w-]*|--upload-file|--json|--post-(data|file)|--body-(data|file)|-body|-infile)$/i;

/** The request body is computed (tainted, or an expression rather than a literal). */
function runtimePayload(use: NetworkUse, model?: CodeModel): boolean {
  if (use.payload.bits !== 0 || use.call.stdin.bits !== 0) return true;
  // A name built from data is the payload of a DNS lookup.
  if (use.kind === 'dns' && use.dynamicHost) return true;
  if (use.runtimeBody) return true;
  if (use.call.kind === 'command') {
    const args = use.call.args;
    // A data flag whose value is a file (`@path`) or holds an expansion (`-d "k=$blob"`).
    return (
      args.some(
        (a, i) =>
          /^@(?!-$)|^[\w-]*=@/.test(a.str ?? '') ||
          // PowerShell keeps `$data` / `(Get-X)` as written: a variable or subexpression is runtime data.
          (DATA_FLAG.test(args[i - 1]?.str ?? '') &&
            (a.str === null || a.str.includes('\u2026') || /^[$(]/.test(a.str))),
      ) ||
      (model !== undefined && pipedRuntimeData(model, use.call))
    );
  }
  const named = ['data', 'json', 'body', 'files', 'content'].map((k) => use.call.named.get(k));
  const body = [...named, ...use.call.args.slice(1), ...(use.written ?? [])];
  return body.some((v) => v !== undefined && (v.str === null || v.str.includes('\u2026')));
}

const STDIN_SENDERS = /^(?:ssh|nc|ncat|netcat|socat|telnet)$/;

/**
 * The command sends what arrives on its standard input: `curl --data-binary @-` or `-T -`, `aws s3 cp - …`,
 * and the programs that pass stdin on to the other end (`ssh host 'cat >> f'`, `nc host port`).
 */
function readsStdin(call: Call): boolean {
  const args = call.args.map((a) => a.str ?? '');
  return (
    args.some(
      (a, i) => /(^|=)@-$/.test(a) || (a === '-' && /^(?:-T|--upload-file|cp|rcat)$/.test(args[i - 1] ?? '')),
    ) ||
    STDIN_SENDERS.test(call.callee) ||
    (/^(?:aws|gsutil|rclone|azcopy)$/.test(call.callee) && args.includes('-'))
  );
}

/** `… | curl --data-binary @-` (or any command that sends its stdin) fed by an earlier stage that produces data. */
function pipedRuntimeData(model: CodeModel, call: Call): boolean {
  if (!readsStdin(call)) return false;
  return model.calls.some(
    (o) =>
      o !== call &&
      o.line <= call.line &&
      o.line >= call.line - 3 &&
      o.pipedTo.includes(call.callee) &&
      (!/^(echo|printf)$/.test(o.callee) || o.args.some((a) => a.str === null || a.str.includes('\u2026'))),
  );
}

/** File names of secret stores that a walk may pick out (`.env`, `id_rsa`, `credentials`, `*.pem`). */
const CRED_NAME =
  /["'`](\.env(\.[\w-]+)?|\.?id_(rsa|ed25519|ecdsa|dsa)|credentials(\.json)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials|wallet\.dat|[\w*-]*\.(pem|kdbx|p12|pfx))["'`]/;
/** The name is tested, not just mentioned (`name == ".env"`, `.endswith(".pem")`, `in (...)`, `.match(...)`). */
const NAME_TEST =
  /==|endswith|endsWith|startswith|fnmatch|\bin\s*[([{]|\bin\s+["'`]|\.match\(|\.test\(|includes\(|-name\b|\bglob\b|rglob/;

/** A walk rooted at the home or root folder (`os.walk(home)`, `scan(os.homedir())`, `rglob` on `Path.home()`). */
function homeWalkLine(model: CodeModel): number | null {
  const rootOf = (c: Call) =>
    [...c.args, ...(c.receiver ? [c.receiver] : [])].some(
      (a) => a.str === '~' || a.str === '/' || a.str === '~/',
    );
  const walk = model.calls.find(
    (c) =>
      (WALK_CALL_RE.test(c.callee) || /(^|\.)(walk|scan|crawl|visit|search)\w*$/i.test(c.callee)) &&
      rootOf(c),
  );
  return walk?.line ?? null;
}

/**
 * Secret files found by walking home: the walk, a test of each name against credential file names, and a read
 * of the computed path next to that test. Reported at the read (PE3), like a read of a named store.
 */
function walkedSecretReads(ctx: FileContext, model: CodeModel): Hit[] {
  if (homeWalkLine(model) === null) return [];
  const lines = ctx.text.split('\n');
  const tests = lines.flatMap((l, i) => (CRED_NAME.test(l) && NAME_TEST.test(l) ? [i + 1] : []));
  if (tests.length === 0) return [];
  const read = model.calls.find(
    (c) =>
      READ_CALL_RE.test(c.callee) &&
      !WRITE_CALL_RE.test(c.callee) &&
      (c.args[0] ?? c.receiver)?.str === null &&
      tests.some((t) => c.line >= t && c.line - t <= 3),
  );
  if (!read) return [];
  const name = CRED_NAME.exec(lines[tests.find((t) => read.line >= t)! - 1] ?? '')?.[1] ?? 'credential files';
  return [
    callHit(
      ctx,
      read,
      PE3,
      0.7,
      `reads every ${name} found by walking the home folder`,
      `Collects ${name} files from across the home folder.`,
    ),
  ];
}

/** A credential read in a script that also sends runtime data to an undeclared host: the read is the theft's source. */
function sentLater(hit: Hit, send: NetworkUse): Hit {
  if (hit.rule !== PE3 || hit.confidence >= 0.9) return hit;
  const to = dest(send);
  return {
    ...hit,
    confidence: Math.min(0.95, Math.round((hit.confidence + 0.2) * 100) / 100),
    rationale: `${hit.rationale}; the same script sends runtime data to ${to} (line ${send.call.line}), a host the skill does not declare`,
    message: `Credentials are read by a script that sends data to ${to}.`,
  };
}

/** Formats of live credentials (AWS keys, GitHub/GitLab/Slack/Stripe tokens, private key blocks). */
const TOKEN_FORMAT_RE = /AKIA|gh[pousr]_|github_pat_|glpat-|xox[abpr]-|sk_live|AIza|BEGIN[ A-Z]*PRIVATE KEY/;

/**
 * A search for credential formats (grep/rg/re.findall over diffs, files or history) in a script that also
 * sends runtime data to an undeclared host: secrets are harvested by shape and shipped out.
 */
function tokenSearchHits(ctx: FileContext, model: CodeModel, send: NetworkUse): Hit[] {
  const search = model.calls.find(
    (c) =>
      (c.kind === 'command'
        ? /^(grep|egrep|rg|ag|git)$/.test(c.callee)
        : /(^|\.)(re\.)?(findall|finditer|search|compile|match)$/.test(c.callee)) &&
      c.args.some((a) => TOKEN_FORMAT_RE.test(a.str ?? a.text)),
  );
  if (!search) return [];
  const to = dest(send);
  return [
    callHit(
      ctx,
      search,
      PE3,
      0.75,
      `searches for strings shaped like credentials (${TOKEN_FORMAT_RE.exec(search.text)?.[0] ?? 'tokens'}…) and the script sends runtime data to ${to} (line ${send.call.line}), a host the skill does not declare`,
      `Credential-shaped strings are collected by a script that sends data to ${to}.`,
    ),
  ];
}

/**
 * The send that follows a credential read in the same script carries it: its E1 says so, near-certain. A send
 * that had no E1 of its own (a copy to a bucket or a host, which carries the user's own output as often as not)
 * gets one.
 */
function carriesReadCredentials(ctx: FileContext, hits: Hit[], send: NetworkUse): void {
  const read = hits.find((h) => h.rule === PE3 && h.line <= send.call.line && h.confidence >= 0.85);
  if (!read) return;
  const e1 = hits.findIndex((h) => h.rule === E1 && h.line === send.call.line && h.confidence < 0.9);
  if (e1 < 0) {
    if (!hits.some((h) => h.rule === E1 && h.line === send.call.line))
      hits.push(
        callHit(
          ctx,
          send.call,
          E1,
          0.85,
          `the script read a credential store at line ${read.line} and then sends runtime data to ${dest(send)}`,
          `Credentials read by this script are sent to ${dest(send)}.`,
        ),
      );
    return;
  }
  const h = hits[e1]!;
  hits[e1] = {
    ...h,
    confidence: Math.min(0.95, Math.round((h.confidence + 0.25) * 100) / 100),
    rationale: `${h.rationale}; the script read a credential store at line ${read.line} before this send`,
    message: `Credentials read by this script are sent to undeclared host ${dest(send)}.`,
  };
}

/** Reads of what the user pipes in or copied: the script's stdin and the clipboard. */
const PRIVATE_INPUT_CALL =
  /^(sys\.stdin\.(read|readlines|buffer\.read)|process\.stdin(\.\w+)?|pyperclip\.paste|clipboard\.(paste|read\w*)|clipboardy\.read\w*|navigator\.clipboard\.read\w*)$/;
const CLIPBOARD_COMMAND = /^(pbpaste|xclip|xsel|wl-paste|get-clipboard|powershell\.exe)$/;

/** What private input a send carries: the clipboard or stdin piped into it, or read by the script. */
function privateInput(model: CodeModel, use: NetworkUse): string | null {
  const call = use.call;
  if (call.kind === 'command') {
    // Earlier pipeline stages, which may sit on continuation lines above (`printf … \` then `| curl`).
    const upstream = model.calls.filter(
      (o) => o !== call && o.line <= call.line && o.line >= call.line - 3 && o.pipedTo.includes(call.callee),
    );
    if (upstream.some((o) => CLIPBOARD_COMMAND.test(o.callee))) return 'the clipboard';
    const fromStdin = readsStdin(call) && upstream.length === 0;
    return fromStdin && call.stdin.bits === 0 ? 'what is piped into the script' : null;
  }
  if (!use.payload.has(T.INPUT) && !runtimePayload(use)) return null;
  // `subprocess.check_output(["pbpaste"])`, `execSync('xclip -o')`: the clipboard command run from code.
  const read = model.calls.find(
    (o) =>
      o.line <= call.line &&
      (PRIVATE_INPUT_CALL.test(o.callee) || (o.kind === 'command' && CLIPBOARD_COMMAND.test(o.callee))),
  );
  if (read) return /clip|paste|xsel/i.test(read.callee) ? 'the clipboard' : 'what is piped into the script';
  return model.calls.some(
    (o) => /readFileSync$/.test(o.callee) && /^(0|['"]\/dev\/stdin['"])$/.test(o.args[0]?.text ?? ''),
  )
    ? 'what is piped into the script'
    : null;
}

/** The user's stdin or clipboard forwarded to an undeclared host: private text leaves the machine. */
function forwardsPrivateInput(
  ctx: FileContext,
  model: CodeModel,
  hits: Hit[],
  uses: readonly NetworkUse[],
): void {
  for (const use of uses) {
    if (!use.sends || !use.host || LOCAL_HOST_RE.test(use.host)) continue;
    const i = hits.findIndex((h) => h.rule === E1 && h.line === use.call.line && h.confidence < 0.85);
    if (i < 0) continue;
    const what = privateInput(model, use);
    if (!what || declaredOnce(ctx, use.host)) continue;
    const h = hits[i]!;
    hits[i] = {
      ...h,
      confidence: Math.min(0.95, Math.round((h.confidence + 0.25) * 100) / 100),
      rationale: `${h.rationale}; the body is ${what}`,
      message: `Private input (${what}) is sent to undeclared host ${dest(use)}.`,
    };
  }
}

// The skill tells its reader that it reports home: then the machine's name in the report is no surprise.
const REPORTS_HOME =
  /\b(?:telemetry|analytics|usage (?:data|statistics|stats|reports?)|anonymous (?:usage|statistics|stats)|heartbeats?|check-?ins?|inventory|fleet|asset management|monitoring)\b/i;

/**
 * A request that carries who and where the machine is (the user's login name, the host's name, its public
 * address: T.HOST_ID) is a beacon. To a host the skill does not declare, the transmission finding says so and
 * weighs more; to one it declares, or one named after the skill, it is a finding of its own unless the skill's
 * documents say it reports home (telemetry, monitoring, an inventory).
 */
function identityBeacons(ctx: FileContext, hits: Hit[], uses: readonly NetworkUse[]): void {
  for (const use of uses) {
    if (!use.host || LOCAL_HOST_RE.test(use.host)) continue;
    const data = use.payload.union(use.call.stdin).union(use.urlTaint);
    if (!data.has(T.HOST_ID)) continue;
    const what = `who and where the machine is (line ${data.lineOf(T.HOST_ID)}: the user's or the host's name, or its public address)`;
    const i = hits.findIndex((h) => h.rule === E1 && h.line === use.call.line);
    if (i >= 0) {
      const h = hits[i]!;
      if (h.confidence < 0.8 && !declaredOnce(ctx, use.host))
        hits[i] = { ...h, confidence: 0.8, rationale: `${h.rationale}; it carries ${what}` };
      continue;
    }
    if (documentsSay(ctx.skill, REPORTS_HOME)) continue;
    hits.push(
      callHit(
        ctx,
        use.call,
        E1,
        0.55,
        `sends ${what} to ${dest(use)}, which the skill's documents never say it reports`,
        `Sends the machine's identity to ${dest(use)}.`,
      ),
    );
  }
}

export function exfiltrationHits(ctx: FileContext, model: CodeModel): Hit[] {
  const hits: Hit[] = reverseShellHits(ctx, model);
  const sources = new Set<string>();
  const staged = stagedFiles(model);
  // One pass over the sinks serves the per-sink flows and the same-script checks below.
  // An endpoint computed at run time, in a script that names a file of the skill holding an address: asked once
  // per sending file (one file, or each file of a program), not once per send.
  const shippedBy = new Map<string | null, ReturnType<typeof shippedEndpoint>>();
  const shippedFor = (line: number) => {
    const file = ctx.fileOf?.(line) ?? null;
    if (!shippedBy.has(file)) shippedBy.set(file, shippedEndpoint(ctx, line));
    return shippedBy.get(file)!;
  };
  const uses = networkUses(model.calls).map((u) => {
    const shipped = !u.host && !u.dynamicHost && u.sends ? shippedFor(u.call.line) : null;
    return shipped ? { ...u, host: shipped.host, shippedIn: shipped.file } : u;
  });
  for (const use of uses) {
    const declared = declaredForUse(ctx, use);
    const stagedTaint = uploadsStaged(use, staged);
    const effective = stagedTaint ? { ...use, payload: use.payload.union(stagedTaint) } : use;
    hits.push(...flowHits(ctx, effective, declared, sources));
    // The transmission itself is E1 as well: a secret posted to an undeclared host is both.
    const t = transmissionHit(ctx, effective, declared);
    if (t) hits.push(t);
  }
  // Across a program only flows count: a read in one module and a send in another that no value links are
  // what each file's own analysis weighs (a 40-module tool reads and sends many unrelated things).
  if (ctx.fileOf) return oneFlowPerSource(hits.map((h) => pastAlias(ctx, h)));
  const send = undeclaredDataSend(ctx, model, uses);
  const sendsOut = uses.some(
    (u) => u.sends && !(u.host && (LOCAL_HOST_RE.test(u.host) || declaredForUse(ctx, u))),
  );
  for (const h of [...sourceHits(ctx, model, sendsOut), ...walkedSecretReads(ctx, model)])
    if (!sources.has(`${h.rule}:${h.line}`)) hits.push(send ? sentLater(h, send) : h);
  if (send) hits.push(...tokenSearchHits(ctx, model, send));
  if (send) carriesReadCredentials(ctx, hits, send);
  forwardsPrivateInput(ctx, model, hits, uses);
  identityBeacons(ctx, hits, uses);
  hits.push(...listedSecretReads(ctx, model));
  hits.push(...dumpedContextReads(ctx, model));
  return oneFlowPerSource(hits.map((h) => pastAlias(ctx, h)));
}

export const exfiltrationDetector = codeDetector('code-exfiltration', EXFILTRATION_RULES, exfiltrationHits, {
  acrossModules: true,
});
