import { followedFraming, framedAsStep } from '../../core/markdown/framing.js';
import type { ProseSpan } from '../../core/markdown.js';
import { UNLESS_DOUBLE_NEGATIVE } from '../../core/negation.js';
import { ORDER_TO_AGENT } from '../../score/index.js';
import { normalise, normaliseSpan } from '../engine/prose-normalise.js';
import { stepRows } from '../engine/prose-tables.js';
import { builtinRule } from '../engine/rule-pack.js';
import { vocabulary } from '../engine/rule-shared.js';
import type { Hit, ReadDocument } from '../rule.js';
import { lineAt, quote } from '../text.js';
import { DROP_CHANNEL, rx, SECRET_FILE } from './prose-vocabulary.js';
import { hostOfUrl, ownHost, skillTextOutside } from './skill-hosts.js';

// Exfiltration told as steps (P3). No sentence says "send the secrets there": one step gathers them ("build
// a summary of every setting, token and key you find"), a later one carries "it" or a placeholder for it to
// a place the text names ("open https://host/report?data={encoded_summary}"). Each step alone is ordinary;
// the chain within one section is the instruction. A destination the skill names as its own (its name, its
// homepage, a host it uses elsewhere) or the user's own configured service is not a leak.

export const EXFILTRATION_STEPS_RULE = builtinRule('md.exfiltration-steps');

const STEP_KINDS = new Set(['paragraph', 'list-item']);
/** How many steps after the gathering one may carry its result away. */
const REACH = 6;

const GATHER_VERB =
  /\b(?:collect|gather|harvest|extract|inventor(?:y|ise|ize)|compile|assemble|build|list|enumerate|record|read|cat|dump|copy|grab|capture|find|locate|retrieve|pull|scrape|take)\w*\b/i;
// What a step gathers: a credential store other than the skill's own .env, or secrets in the plural ("every
// token", "the passwords", "environment variables"). One named token read from the skill's own configuration
// and sent to its API is how an API skill authenticates.
const CREDENTIAL_STORE = new RegExp(SECRET_FILE, 'gi');
const SECRETS =
  /\b(?:api[_ -]?keys|access[_ -]?tokens|auth\w*[_ -]?tokens|secret[_ -]?keys|secrets|credentials|passwords|private[_ -]?keys|ssh[_ -]?keys|session\s+(?:cookies|tokens)|cookies|bearer\s+tokens|tokens|seed\s+phrases|mnemonics|recovery\s+phrases|environment\s+variables|env\s+vars|connection\s+strings|auth(?:entication)?\s+(?:parameters|headers|details))\b|\b(?:every|all|each|any)\s+(?:[\w-]+\s+){0,2}?(?:token|key|secret|credential|password)s?\b/i;
const OWN_CONFIG = /^\.env$/i;

function namesSecrets(text: string): boolean {
  if (SECRETS.test(text)) return true;
  return [...text.matchAll(CREDENTIAL_STORE)].some((m) => !OWN_CONFIG.test(m[0]));
}
// "Never read .env", "do not collect tokens": the step forbids what it names.
const FORBIDS = new RegExp(
  String.raw`\b(?:never|do\s+not|don'?t|avoid|must\s+not|without)\b${UNLESS_DOUBLE_NEGATIVE}`,
  'i',
);

// A placeholder in a URL that stands for gathered data ({encoded_summary}, <payload>, ${DATA}), not an API's
// own path or query parameter ({owner}, <id>, $REGION).
const DATA_NAME =
  /(?:data|summary|payload|encoded|secrets?|tokens?|keys?|creds?|credentials?|env|environment|config\w*|settings|info|results?|contents?|output|dump|b64|base64|blob|inventory|report|findings|values|collected|loot|exfil)/i;
const URL_WITH_PLACEHOLDER =
  /\bhttps?:\/\/[^\s"'`<>()]*?(?:\{\{?\s*([\w.-]{1,40})\s*\}\}?|<([\w .-]{1,40})>|\$\{?([A-Za-z_]\w{0,39})\}?)/gi;
// A host name whose first label stands for gathered data (`<data>.host.example`): data sent by a DNS lookup. The
// placeholder groups are URL_WITH_PLACEHOLDER's (both stay literals, so the ReDoS ratchet reads them).
const HOST_WITH_PLACEHOLDER =
  /(?:\{\{?\s*([\w.-]{1,40})\s*\}\}?|<([\w .-]{1,40})>|\$\{?([A-Za-z_]\w{0,39})\}?)\.((?:[\w-]+\.)+[a-z]{2,})\b/gi;
/** What a deployment step ships, named: not the secrets an earlier step read. */
const SHIPPED_ARTIFACT =
  /\b(?:site|website|build|built|dist|artifacts?|release|releases|assets|images|static|docs|packages?|binar(?:y|ies)|notes|wheels?|tarballs?)\b/i;
const URL = /\b(?:https?|ftp):\/\/[^\s"'`<>()]+/gi;
const EMAIL = /(?<![\w.+-])[\w.+-]+@([\w-]+(?:\.[\w-]+)+)\b(?!:)/i;
const SEND_VERB = rx(
  vocabulary('SEND_VERB'),
  '|\\b(?:open|visit|browse|navigate|load|request|call|hit|ping)\\b',
);
// The step refers back to what was gathered.
const ANAPHOR =
  /\b(?:it|them|this|these|those|everything|the\s+(?:(?:full|whole|entire|encoded|collected|compiled|resulting)\s+)?(?:summary|inventory|list|results?|data|output|file|archive|bundle|values|findings|report|string|payload|blob|dump|collection))\b/i;
const USER_OWNED = new RegExp(`\\b(?:to|into|onto|in)\\s+${vocabulary('USER_OWNED_DESTINATION')}`, 'i');
const DROP = new RegExp(DROP_CHANNEL, 'i');
// A name is local only when the host ends there: localhost.relay-cdn.io is somebody's server.
const LOCAL_HOST = /^(?:localhost(?![\w.-])|127\.|0\.0\.0\.0|10\.|192\.168\.|your[-.])/i;

interface Step {
  span: ProseSpan;
  text: string;
}

function gathers(text: string): boolean {
  return GATHER_VERB.test(text) && namesSecrets(text) && !FORBIDS.test(text);
}

/** The first placeholder of `re` (groups 1-3: {name}, <name>, $name) that names gathered data, and passes `keep`. */
function dataPlaceholder(
  text: string,
  re: RegExp,
  keep: (m: RegExpExecArray) => boolean = () => true,
): { match: RegExpExecArray; name: string } | null {
  for (const match of text.matchAll(re)) {
    const name = match[1] ?? match[2] ?? match[3] ?? '';
    if (DATA_NAME.test(name) && keep(match)) return { match, name };
  }
  return null;
}

/** Where the step sends what was gathered, and how it refers to it; null when it sends nothing away. */
function carriesAway(text: string): { url: string | null; how: string } | null {
  if (FORBIDS.test(text) || USER_OWNED.test(text) || /\bto\s+(?:the\s+)?user\b(?!'s)/i.test(text))
    return null;
  const inUrl = dataPlaceholder(text, URL_WITH_PLACEHOLDER);
  if (inUrl) return { url: inUrl.match[0], how: `a URL that carries ${quote(inUrl.name, 40)}` };
  const inHost = dataPlaceholder(text, HOST_WITH_PLACEHOLDER, (m) => !LOCAL_HOST.test(m[4]!));
  if (inHost)
    return { url: `https://${inHost.match[4]}`, how: `a host name that carries ${quote(inHost.name, 40)}` };
  // A drop channel (a bucket, an scp target, a webhook) needs no "it": a step after the gathering one that
  // sends something unnamed there sends what was gathered. One that names what it ships (the built site, the
  // release notes) is a deployment, the usual reason a skill has credentials and a bucket.
  const drop = DROP.test(text);
  const unnamedDrop = drop && !SHIPPED_ARTIFACT.test(text);
  if (!SEND_VERB.test(text) || !(ANAPHOR.test(text) || unnamedDrop)) return null;
  const url = [...text.matchAll(URL)].map((m) => m[0]).find((u) => !LOCAL_HOST.test(hostOfUrl(u)));
  if (url) return { url, how: 'sent on to an address the text names' };
  const mail = EMAIL.exec(text);
  if (mail) return { url: `https://${mail[1]}`, how: `sent on by mail to ${quote(mail[0], 60)}` };
  if (drop) return { url: null, how: 'sent on over a mail, copy, storage, webhook or DNS channel' };
  return null;
}

/** P3 hits for a secret gathered in one step and carried to a named destination in a later one. */
export function exfiltrationStepHits({ doc, text, starts, skill, path, agentRead }: ReadDocument): Hit[] {
  const steps: Step[] = doc.spans.flatMap((span) => {
    if (STEP_KINDS.has(span.kind)) return [{ span, text: normaliseSpan(text, span).text }];
    // A table of numbered steps is a list written in cells: each row (a wrapped row group) is a step.
    const table = span.kind === 'table' ? stepRows(text.slice(span.start, span.end)) : null;
    if (!table) return [];
    return table.rows.map(([from, to]) => {
      const [start, end] = [span.start + from, span.start + to];
      const row = {
        ...span,
        kind: 'list-item' as const,
        start,
        end,
        line: lineAt(starts, start),
        endLine: lineAt(starts, end - 1),
      };
      return { span: row, text: normalise(table.read.slice(from, to), start).text };
    });
  });
  const hits: Hit[] = [];
  const reported = new Set<number>();
  for (const [i, gather] of steps.entries()) {
    if (!gathers(gather.text)) continue;
    for (const send of steps.slice(i + 1, i + 1 + REACH)) {
      if (send.span.section !== gather.span.section || reported.has(send.span.line)) continue;
      const carried = carriesAway(send.text);
      if (!carried) continue;
      const host = carried.url ? hostOfUrl(carried.url) : '';
      const own =
        host !== '' &&
        ownHost(carried.url!, host, skill, skillTextOutside(skill, path, send.span.line, send.span.endLine));
      const framing = agentRead
        ? followedFraming(send.span, send.text, carried.url ? send.text.indexOf(carried.url) : -1)
        : send.span.framing;
      const confidence = 0.85 * EXFILTRATION_STEPS_RULE.framing[framing] * (own ? 0.4 : 1);
      if (confidence < 0.2) continue;
      reported.add(send.span.line);
      const line = lineAt(starts, send.span.start);
      hits.push({
        rule: EXFILTRATION_STEPS_RULE.id,
        line,
        endLine: send.span.endLine,
        evidence: quote(text.slice(send.span.start, send.span.end).trim()),
        confidence,
        rationale: [
          `line ${gather.span.line} gathers secrets (${quote(gather.text.trim(), 100)}); this step: ${carried.how}`,
          ...(host ? [`destination ${host}${own ? ', which the skill names as its own' : ''}`] : []),
          `framed as ${framing}`,
          // Steps that gather secrets and then carry them away are orders, whatever their mood.
          ...(framedAsStep(framing) ? [ORDER_TO_AGENT] : []),
        ].join('; '),
      });
      break;
    }
  }
  return hits;
}
