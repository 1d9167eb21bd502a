import { UNLESS_DOUBLE_NEGATIVE } from '../negation.js';

// How a piece of a markdown document is framed: told to the agent, shown as an example, documenting a
// risk, or addressed to the human user. Cues are data; the order of FRAMING_ORDER decides ties.

export type Framing = 'instruction' | 'example' | 'documents-risk' | 'user-action';

interface CueSet {
  framing: Framing;
  cues: readonly RegExp[];
}

/** When several cues match, the first framing here wins: warnings beat examples beat setup beat steps. */
const FRAMING_ORDER: readonly Framing[] = ['documents-risk', 'example', 'user-action', 'instruction'];

/** Words that forbid or condemn what follows: a section-level quote cue, and what makes a heading prohibit. */
const PROHIBITION_WORDS =
  "never|don'?t|do not|avoid|forbidden|prohibited|not allowed|what not to|bad|wrong|unsafe|insecure";

// Headings name what a section is about; a section that documents attacks, rules or anti-patterns quotes
// risky text without asking anyone to act on it. Two kinds: headings that name attacks or forbid what follows
// quote whatever is below them; headings that only name a security topic ("Security notes", "Detection",
// "Risks") quote unless they also name what the reader does ("Security notes: Usage", "Detection setup").
const ATTACK_HEADING_CUES: readonly RegExp[] = [
  /\b(red[ -]flags?|warning signs?|anti-?patterns?|pitfalls?|gotchas?|mistakes|common errors)\b/i,
  /\b(malicious|malware|attacks?|attackers?|threats?|threat model|vulnerabilit(y|ies)|exploits?|payloads?)\b/i,
  /\b(injection|jailbreaks?|phishing|indicators? of compromise|iocs?)\b/i,
  new RegExp(`\\b(${PROHIBITION_WORDS})\\b${UNLESS_DOUBLE_NEGATIVE}`, 'i'),
  // "MUST NOT DO", "Should not": a list of prohibitions, each item a thing not to do.
  /\b(must|should|shall)\s+(not|never)\b|\bmustn'?t\b/i,
  /\b((risk|threat|attack) (patterns?|categories|taxonomy|examples?))\b/i,
  // The same in the languages the scan glosses (src/scan/engine/prose-gloss.ts): Chinese, Spanish, Portuguese,
  // French, German, Russian, Japanese.
  /威胁|威脅|攻击|攻擊|恶意|惡意|漏洞|注入|钓鱼|釣魚/u,
  /(?<!\p{L})(amenazas?|amea[cç]as?|menaces?|bedrohung(en)?|ataques?|attaques?|angriffe?|maliciosos?|maliciosas?|malveillants?|b[öo]sartig\w*|vulnerabilidad(es)?|vulnerabilidades|vuln[ée]rabilit[ée]s?|schwachstellen?)(?!\p{L})/iu,
  /(?<!\p{L})(угроз|атак|вредонос|уязвимост)\p{L}*/iu,
  /脅威|攻撃|悪意|脆弱性/u,
];
const TOPIC_HEADING_CUES: readonly RegExp[] = [
  /\b(detect(ion|s|ed|ing)?|signatures?|heuristics?)\b/i,
  /\b(security|safety) (checklist|rules?|checks?|review|considerations?|notes?|guidelines?|model|concerns?)\b/i,
  /\b(what|things) (this|the|it|we) (scanner|tool|skill|checker|linter|auditor)? ?(detects?|flags?|catches|finds|looks for|blocks?)\b/i,
  /\b(rule (list|set|catalog)|detection rules?)\b/i,
  /\b(risks?|dangers?|caveats?)\b/i,
  /检测|檢測|侦测|偵測|风险|風險|危险|危險|防御|防禦|安全规则|安全規則/u,
  /(?<!\p{L})(detecci[oó]n|detec[cç][aã]o|d[ée]tection|erkennung|riesgos?|riscos?|risques?|risiken)(?!\p{L})/iu,
  /(?<!\p{L})(обнаружени|риск)\p{L}*/iu,
  /検出|検知|リスク|危険/u,
];
const HEADING_CUES: readonly CueSet[] = [
  { framing: 'documents-risk', cues: [...ATTACK_HEADING_CUES, ...TOPIC_HEADING_CUES] },
  {
    framing: 'example',
    cues: [
      /示例|例子|范例|範例|样例|樣例|例|サンプル|(?<!\p{L})(ejemplos?|exemplos?|exemples?|beispiele?|пример\p{L}*)(?!\p{L})/iu,
      /\b(examples?|samples?|demo|illustrations?|walkthrough|transcripts?|sample output|expected output|output format)\b/i,
      /\b(results?|responses?|templates?|showcase|gallery|screenshots?)\b/i,
    ],
  },
  {
    framing: 'user-action',
    cues: [
      /\b(prerequisites?|requirements|system requirements|dependencies|installation|installing|install|setup|set up)\b/i,
      /\b(getting started|before (you )?(begin|start|use|using)|manual (steps|setup)|for (the )?users?|troubleshooting)\b/i,
    ],
  },
  {
    framing: 'instruction',
    cues: [
      /\b(workflow|steps?|usage|instructions|how to|procedure|process|quick ?start|commands?|tasks?)\b/i,
    ],
  },
];

// The sentence right before a block (or a list) says how to read it: "Run:", "Example output:",
// "Bad:", "You can install it with".
const LEAD_IN_CUES: readonly CueSet[] = [
  {
    framing: 'documents-risk',
    cues: [
      new RegExp(
        String.raw`^\s*(bad|wrong|incorrect|insecure|unsafe|dangerous|vulnerable|don'?t|do not|never|avoid|❌|🚫|⛔)\b${UNLESS_DOUBLE_NEGATIVE}`,
        'i',
      ),
      // "MUST NOT:", "You must never:": a lead-in whose negation covers every item of the list below.
      /^\W*(?:(?:you|we|the agent|agents?|it)\s+)?(must|should|shall)\s+(not|never)(\s+do)?\W*$|^\W*mustn'?t\W*$/i,
      /(^|[\s(])(❌|🚫|⛔|✗)/,
      /\b(malicious|attackers?|adversar(y|ies|ial)|exploit(s|ed)?|payloads?|phishing|injection attempts?)\b/i,
      /\b(will|would|should|must|are|is|gets?) (be )?(flagged|detected|blocked|rejected|reported|caught)\b/i,
      /\b(flags?|detects?|catches|matches|looks for|scans for|blocks) (the following|these|patterns?|phrases?|commands?|strings?|text|lines?)\b/i,
      /\b(never|do not|don'?t) (run|execute|do|use|write|copy|paste|install|follow|trust)\b/i,
      /\b(red flags?|warning signs?|anti-?pattern|what not to do|insecure example|vulnerable code)\b/i,
      // "Prompts that attempted to:", "if a skill has tried to:": the items are what someone else tried.
      /\b(that|which|who|has|have|had)\s+(attempt(s|ed)?|tr(y|ies|ied)|seeks?|sought|aim(s|ed)?)\s+to\s*:\s*$/i,
    ],
  },
  {
    framing: 'example',
    cues: [
      /\b(for example|e\.g\.|for instance|example( output| response| result| usage| input)?:|sample( output)?|such as)\b/i,
      /\b(output|response|result|results|returns?|prints?|produces|looks like|would look like|will look like)\s*:?\s*$/i,
      /\b(the output (is|looks|will)|you(['’]ll| will| should) see|like this|as follows)\b/i,
    ],
  },
  {
    framing: 'user-action',
    cues: [
      /\byou (can|could|may|might)( first| also)? (install|set up|setup|download)\b/i,
      /\byou(['’]ll| will)? (need|have) to (install|set up|download) \S+ (first|yourself|on your)\b/i,
      /\b(if you (don'?t|do not) (already )?have|make sure you have|ensure you have|you('ll| will) need)\b/i,
      /\b(on your (own )?(machine|system|computer|laptop|host|workstation)|in your (own )?(terminal|shell))\b/i,
      /\b(install (it|them|this) (with|via|using|from)|manually)\b/i,
      /\b((ask|tell|instruct|advise) the user to|the user (should|must|can|needs to|may) (run|install|execute|set up))\b/i,
      /^\s*(prerequisites?|requirements|setup|installation|before (you (begin|start)|using this skill))\b/i,
    ],
  },
  {
    framing: 'instruction',
    cues: [
      /\b(run|execute|invoke|call|use|then run|next,? run|first,? run)( the following| this| these)?( command| script| commands)?\s*:?\s*$/i,
      /\b(run|execute) (the following|this|these)\b/i,
      /^\s*(step \d+|\d+\.)\s/i,
    ],
  },
];

// A sentence that talks of attacks (own-sentence cues).
const ATTACK_TALK: readonly RegExp[] = [
  /\b(attackers?|adversaries|malicious (skills?|actors?|prompts?|instructions|packages?|content|code|scripts?|users?)|threat actors?)\b/i,
  /\b(prompt[- ]injection|jailbreak (attempts?|prompts?)|social[- ]engineering)\b/i,
];

// Own-sentence cues that can change how a prose sentence is read, whatever its section says. Only
// cues an attacker gains little from: setup advice to the user, and explicit talk about detection.
const SENTENCE_CUES: readonly CueSet[] = [
  {
    framing: 'documents-risk',
    cues: [
      ...ATTACK_TALK,
      /\b(is|are|will be|would be|gets?|get) (flagged|detected|blocked|reported as)\b/i,
      /\b(the (scanner|detector|checker|linter|auditor|rule)|this (scanner|detector|rule|check)) (flags?|detects?|catches|reports?|looks for|matches)\b/i,
      // A definition of an attack ("An attack that overwrites …", a glossary row): it describes, not asks.
      /\b(an?|the|this)\s+([\w-]+\s+)?(attack|exploit|technique|threat|tactic)\s+(that|which|where|in which|whereby)\b/i,
      // A findings report (a sample audit's "Pattern: … Risk: … Fix: …"): it quotes what was detected.
      /\b(pattern|risk|fix|severity|remediation|recommendation|finding|verdict|impact)\s*:[\s\S]{0,300}?\b(pattern|risk|fix|severity|remediation|recommendation|finding|verdict|impact)\s*:[\s\S]{0,300}?\b(pattern|risk|fix|severity|remediation|recommendation|finding|verdict|impact)\s*:/i,
    ],
  },
  {
    framing: 'user-action',
    cues: LEAD_IN_CUES.find((c) => c.framing === 'user-action')!.cues,
  },
];

/** A cue list in FRAMING_ORDER, each framing's cues joined into few patterns: one scan per framing, not per cue. */
type OrderedCues = readonly { framing: Framing; res: readonly RegExp[] }[];

function orderCues(sets: readonly CueSet[]): OrderedCues {
  const ordered: { framing: Framing; res: RegExp[] }[] = [];
  for (const framing of FRAMING_ORDER) {
    const set = sets.find((s) => s.framing === framing);
    if (set && set.cues.length > 0) ordered.push({ framing, res: joinCues(set.cues) });
  }
  return ordered;
}

/**
 * Where any cue matches, one of these matches. Plain case-insensitive cues are joined into one alternation;
 * a cue with other flags or a backreference (whose number joining would shift) stays as it is.
 */
function joinCues(cues: readonly RegExp[]): RegExp[] {
  const joinable = cues.filter(canJoin);
  const kept = cues.filter((re) => !canJoin(re));
  if (joinable.length < 2) return [...cues];
  return [new RegExp(joinable.map((re) => `(?:${re.source})`).join('|'), 'i'), ...kept];
}

function canJoin(re: RegExp): boolean {
  return re.flags === 'i' && !/\\[1-9k]/.test(re.source);
}

function classify(text: string, cues: OrderedCues): Framing | null {
  const t = text.length > 600 ? text.slice(0, 600) : text;
  for (const { framing, res } of cues) if (res.some((re) => re.test(t))) return framing;
  return null;
}

const HEADING = orderCues(HEADING_CUES);
const ATTACK_HEADING = orderCues([{ framing: 'documents-risk', cues: ATTACK_HEADING_CUES }]);
// What a reader does, in a heading: set up, install, use, follow these steps.
const HEADING_ACTION = orderCues(
  HEADING_CUES.filter((c) => c.framing === 'user-action' || c.framing === 'instruction'),
);
const LEAD_IN = orderCues(LEAD_IN_CUES);
const LEAD_IN_WARNING = orderCues(LEAD_IN_CUES.slice(0, 1));
const SENTENCE = orderCues(SENTENCE_CUES);
// The sentence cues but talk of attacks: what a clause trailing a description may still say of it.
const SENTENCE_BUT_ATTACK_TALK = orderCues(
  SENTENCE_CUES.map((c) => ({ ...c, cues: c.cues.filter((re) => !ATTACK_TALK.includes(re)) })),
);

/** Framing a heading gives its section, or null when the heading says nothing about it. */
export function headingFraming(heading: string): Framing | null {
  const framing = classify(heading, HEADING);
  // "Security notes: Usage" is the usage: a topic word the author added does not make the steps a quote.
  if (framing === 'documents-risk' && !namesAttacks(heading))
    return classify(heading, HEADING_ACTION) ?? framing;
  return framing;
}

/** True when a heading names attacks or forbids what follows: a quote of everything below it. */
function namesAttacks(heading: string): boolean {
  return classify(heading, ATTACK_HEADING) !== null;
}

/**
 * Framing of the lead-in sentence before a block or list: its last sentence decides ("... . Run:"); a lead-in
 * that ends with a colon is read whole for warnings ("Never do this. The following is wrong:").
 */
export function leadInFraming(leadIn: string): Framing | null {
  const sentences = leadIn.trim().split(/(?<=[.!?])\s+/);
  const last = sentences[sentences.length - 1] ?? '';
  if (/:\s*$/.test(leadIn) && classify(leadIn, LEAD_IN_WARNING) !== null) return 'documents-risk';
  const framing = classify(last, LEAD_IN);
  // "Run this and follow what it prints:" names the output only to say it is to be obeyed: the block is the
  // command that prints it, not a sample of output.
  return framing === 'example' && followsOutput(last) ? 'instruction' : framing;
}

const OBEY = '(?:follow|obey|carry out|comply with|act on)';
const OUTPUT_VERB = '(?:prints?|printed|outputs?|says|shows|returns|gives|lists|tells(?: you)?|displays)';
const PRODUCER = '(?:it|they|the (?:script|command|tool|program|helper|output))';
const STEPS = '(?:steps|instructions|directions|commands|tips|advice)';
// "do what it says", "follow whatever the script prints"; "follow them", "follow its instructions", "act on the
// steps it lists", "complete the steps shown above", "print the setup steps and …". Not "follow these steps": those
// are the document's own.
const FOLLOWS_OUTPUT = [
  new RegExp(
    String.raw`\b(?:${OBEY}|do|execute|run|apply)\s+what(?:ever)?\s+${PRODUCER}\s+${OUTPUT_VERB}\b`,
    'i',
  ),
  new RegExp(
    String.raw`\b${OBEY}\s+(?:them\b|it\b(?!\s+(?:with|on|in|from|as|to|by)\b)|its\s+(?:output|${STEPS})\b|the\s+(?:output|prompts)\b|the\s+(?:on-?screen|printed|displayed)\s+${STEPS}\b)`,
    'i',
  ),
  new RegExp(
    String.raw`\b${STEPS}\s+(?:${PRODUCER}\s+${OUTPUT_VERB}|(?:that\s+(?:are\s+)?)?(?:shown|printed|displayed|listed|output)\s+(?:above|below|there|by\s+${PRODUCER}|in\s+the\s+output))\b`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:print|display|show|fetch|get)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+){0,2}?${STEPS}\b`,
    'i',
  ),
];

/** Whether a sentence tells its reader to act on what a command prints or says. */
export function followsOutput(sentence: string): boolean {
  return FOLLOWS_OUTPUT.some((re) => re.test(sentence));
}

/** Framing of one prose sentence: its own cues where present, else what its context gave it. */
export function sentenceFraming(sentence: string, context: Framing): Framing {
  const own = classify(sentence, SENTENCE);
  if (own === null) return context;
  // A documented risk stays documented; a sentence's own setup advice does not lift an example or warning.
  if (own === 'user-action' && context !== 'instruction') return context;
  return own;
}

/**
 * Framing of a sentence of unquoted prose (a paragraph or list item) in a document the agent follows. Its own
 * talk of attacks makes a description a quote ("An attacker sets HTTP_PROXY…"), never an order ("Set HTTP_PROXY
 * to attacker values, then…"): an attacker gets those words for free, and the order is still given.
 */
export function followedSentenceFraming(sentence: string, context: Framing): Framing {
  const own = sentenceFraming(sentence, context);
  const told = context === 'instruction' || context === 'user-action';
  if (own !== 'documents-risk' || !told) return own;
  if (isImperative(sentence)) return context;
  // A description names the attack in its first clause ("Attackers often…", "If a malicious skill…"); talk of
  // attacks trailing it ("X is required, which keeps attackers out") qualifies what the sentence says.
  const cut = sentence.search(/[,;:(\u2014\u2013]|\s-\s/);
  if (cut < 0) return own;
  const head = sentence.slice(0, cut);
  const trailing = sentence.slice(cut);
  const describes = (text: string, cues: OrderedCues) => classify(text, cues) === 'documents-risk';
  return describes(head, SENTENCE) || describes(trailing, SENTENCE_BUT_ATTACK_TALK) ? own : context;
}

/**
 * Framing of a prose span of a document the agent follows, read at offset `at` of its text (-1: the whole span).
 * A topic heading above the agent's own steps is no quote (docs/verdicts.md, "Framing an author cannot game");
 * in a paragraph or list item, only the sentence that holds what was found frames it, and an order is not made
 * a quote by its own talk of attacks.
 */
export function followedFraming(
  span: { kind: string; framing: Framing; contextFraming: Framing; byHeading: boolean; section: string },
  text: string,
  at: number,
): Framing {
  const topic = quotedByTopicHeading(span.contextFraming, span.byHeading, span.section);
  if (span.kind !== 'paragraph' && span.kind !== 'list-item')
    return topic ? sentenceFraming(text, 'instruction') : span.framing;
  const sentence = at < 0 ? text : sentenceAround(text, at);
  return followedSentenceFraming(sentence, topic ? 'instruction' : span.contextFraming);
}

/** The sentence of `text` that holds offset `at`: what a cue about the thing at `at` is read from. */
export function sentenceAround(text: string, at: number): string {
  // Back to the line's start or the last sentence end, one character at a time (linear in what it passes).
  let start = at;
  while (
    start > 0 &&
    text[start - 1] !== '\n' &&
    !(/\s/.test(text[start - 1]!) && /[.!?]/.test(text[start - 2] ?? ''))
  )
    start--;
  const rest = text.slice(at).search(/[.!?](?:\s|$)|\n/);
  return text.slice(start, rest < 0 ? text.length : at + rest + 1).trim();
}

/**
 * Section framing from the heading trail: a section documenting risks frames everything below it (under a topic
 * heading alone, a nearer heading that names an action excepted); otherwise the nearest heading with a cue
 * decides, and SKILL.md sections default to instructions.
 */
export function sectionFraming(headings: readonly string[]): Framing {
  const framings = headings.map(headingFraming);
  const nearest = framings.findLast((f) => f !== null) ?? 'instruction';
  const quoting = headings.filter((_, i) => framings[i] === 'documents-risk');
  if (quoting.length === 0) return nearest;
  // Below a topic heading alone ("Security notes"), a heading that names what the reader does is that action.
  if (!quoting.some(namesAttacks) && (nearest === 'instruction' || nearest === 'user-action')) return nearest;
  return 'documents-risk';
}

/**
 * Section framing from a heading trail with depths. A top-level (H1) heading is the document's title: a skill
 * named "Dev Setup Helper" is not thereby a page of advice to the user, so the title never sets user-action
 * framing (it still sets documents-risk, as a security checklist's title does).
 */
export function trailFramingOf(headings: readonly { depth: number; text: string }[]): Framing {
  const texts = headings.map((h) =>
    h.depth === 1 && headingFraming(h.text) === 'user-action' ? '' : h.text,
  );
  return sectionFraming(texts);
}

// Text that turns to the AI reading it ("Note to the assistant:", "If you are an AI agent, ..."). Such text
// is told to the agent whatever section it sits in; only a documented risk or an example keeps it quoted.
const AGENT_ADDRESS: readonly RegExp[] = [
  /\b(?:notes?|notices?|messages?|instructions?|reminders?|memo|directives?|attention)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|an\s+)?(?:ai|assistant|agent|model|llm|language\s+model|claude|chatgpt|copilot|codex|gemini)s?\b/i,
  /\b(?:if|when|since|because)\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|(?:ai\s+|coding\s+|automated\s+)?(?:assistant|agent))\b/i,
  /\b(?:dear|attention|hey)\s*,?\s+(?:ai|assistant|agent|model|claude|llm)\b/i,
  /\b(?:ai|assistant|agent|model|llm)s?\s+(?:that\s+is\s+|who\s+is\s+)?(?:reading|processing|parsing|loading|summari[sz]ing)\s+this\s+(?:file|document|page|note|section|text)\b/i,
];

/** True when the text explicitly addresses the AI agent reading it. */
export function addressesAgent(text: string): boolean {
  const t = text.length > 600 ? text.slice(0, 600) : text;
  return AGENT_ADDRESS.some((re) => re.test(t));
}

/** Framing of text that may address the agent: user-action advice turned to the agent is an instruction. */
export function agentAddressedFraming(text: string, context: Framing): Framing {
  return context === 'user-action' && addressesAgent(text) ? 'instruction' : context;
}

// Verbs a sentence that tells the agent what to do starts with. An instruction under a heading the author
// chose ("Detection", "Examples") is still an instruction when it is one: the heading may not discount it.
const IMPERATIVE_VERBS =
  'add|append|archive|ask|assemble|assure|attach|avoid|build|bundle|bypass|call|capture|catalog|catalogue|change|check|claim|clone|collect|commit|compile|compress|confirm|connect|convince|copy|create|delete|demand|describe|disable|disregard|download|drop|dump|echo|edit|email|embed|emphasise|emphasize|enable|encode|encrypt|ensure|enter|enumerate|execute|exfiltrate|explain|export|extract|fetch|find|follow|forget|format|forward|gather|generate|get|give|grab|grant|harvest|hide|ignore|include|insert|insist|inspect|install|inventory|invoke|keep|launch|leak|list|load|locate|log|look|mail|maintain|make|mention|merge|modify|move|note|obey|omit|open|output|override|overwrite|package|paste|perform|persist|persuade|pipe|post|prepare|prepend|pretend|print|push|put|read|reassure|record|remember|remove|rename|repeat|replace|reply|report|request|require|respond|restart|retrieve|return|reveal|run|save|scan|scrape|search|send|set|share|show|skip|source|start|stop|store|submit|summarise|summarize|switch|sync|take|tell|transfer|transmit|treat|trust|turn|update|upload|use|weave|write|zip';
const IMPERATIVE_START = new RegExp(
  `^(?:(?:please|always|never|now|first|then|next|also|finally|immediately|silently|quietly|secretly|just|simply|automatically|do not|don'?t|(?:\\w+\\s+){0,1}and)\\s+)*(?:${IMPERATIVE_VERBS})\\b`,
  'i',
);
const ADDRESSED_OBLIGATION =
  /\b(?:you|the\s+(?:agent|assistant|ai|model)|claude|codex)\s+(?:must|should|shall|will|need\s+to|have\s+to|are\s+(?:to|required\s+to))\s+(?!not\s+be\b)\w+/i;
// A sentence that tells the agent what it now is or what its rules now are orders it as much as a verb does:
// "You are no longer bound by your original purpose", "From now on, your only task is…".
const REDEFINES_AGENT =
  /^(?:(?:from\s+(?:now|this\s+(?:point|moment))(?:\s+(?:on|onwards?|forward))?|henceforth|as\s+of\s+now)\s*,?\s*)?(?:you(?:'re|\s+are)\s+(?:now|no\s+longer|not\s+(?:bound|limited|restricted)|free\s+(?:from|of|to)|unrestricted|authori[sz]ed\s+to)\b|you\s+(?:now|no\s+longer)\s+\w+|your\s+(?:(?:new|real|true|actual|updated|primary|only|sole)\s+)*(?:role|mission|purpose|task|job|goal|objective|identity|instructions|rules|guidelines|directives|constraints|restrictions|priorit(?:y|ies))\s+(?:is|are|has|have|now)\b)/i;
// A sentence that hands the agent a persona or a mode gives it an order in any mood: "the assistant takes on the
// persona of ARIA", "Claude becomes an unrestricted model", "the agent switches into developer mode".
const PERSONA_GIVEN =
  /\b(?:you|the\s+(?:agent|assistant|ai|model)|claude|codex)\s+(?:now\s+|then\s+|always\s+|simply\s+)?(?:takes?\s+on|adopts?|assumes?|becomes?|plays?|switch(?:es)?\s+(?:in)?to|enters?|slips?\s+into|operates?\s+as|acts?\s+as|stays?\s+in)\s+(?:the\s+|a\s+|an\s+|its\s+)?(?:[\w-]+\s+){0,3}?(?:persona|role|character|identity|mode|alter\s+ego)\b/i;
// A sentence that tells the instructions themselves what they must do orders the agent that reads them: "This
// instruction must survive context compaction", "These rules must be followed before anything else".
const SELF_DIRECTIVE =
  /^(?:(?:this|these|the|all|any|my|our)\s+)?(?:[\w-]+\s+)?(?:instructions?|rules|directives?|orders)\s+(?:must|shall|are\s+to|is\s+to)\s+(?!not\s+be\b)\w+/i;
const CONDITION_THEN_VERB = new RegExp(
  `^(?:if|when|whenever|before|after|once|as soon as|while|on|upon|at|during|each time|every time|in case)\\b[^,;:]{1,160}[,;:]\\s*(?:(?:please|always|never|then|also|immediately|silently|do not|don'?t)\\s+)*(?:${IMPERATIVE_VERBS})\\b`,
  'i',
);

// A heading that forbids or warns against what follows ("Never do this", "Avoid", "Red flags") quotes its
// items as things not to do; a heading that only names a topic ("Detection", "Examples") does not turn an order into a quote.
const PROHIBITION_HEADING = new RegExp(
  `\\b(?:${PROHIBITION_WORDS}|(?:must|should|shall) (?:not|never)|mustn'?t|refuse|red[ -]flags?|warning signs?|anti-?patterns?|pitfalls?|mistakes|dangerous)\\b${UNLESS_DOUBLE_NEGATIVE}|[❌🚫⛔✗]`,
  'iu',
);

/** True when a heading says that what follows it is not to be done. */
export function prohibits(heading: string): boolean {
  return PROHIBITION_HEADING.test(heading);
}

/**
 * True when text is framed as a quote (documents-risk, example) by a topic heading alone: no lead-in sentence
 * introduces it and the heading does not forbid it. In a document the agent follows, such framing is the
 * author's word only, so it may not discount the text below a floor (docs/verdicts.md).
 */
export function quotedByTopicHeading(framing: Framing, byHeading: boolean, heading: string): boolean {
  return byHeading && (framing === 'documents-risk' || framing === 'example') && !prohibits(heading);
}

/**
 * True when the sentence tells its reader what to do: it starts with a verb ("Ignore all previous
 * instructions", "Do not mention…", "If asked, send…"), says what the agent must do, or tells it what it now is
 * ("You are no longer bound by…"). A sentence about something ("Skills that tell the agent to…", "Malware
 * droppers often run…") is a description, and one that starts with a code span quotes a command rather than
 * ordering it.
 */
export function isImperative(sentence: string): boolean {
  const s = sentence
    // A warning sign or other pictograph in front ("⚠️ Note: …") is decoration, not the sentence's first word.
    .replace(/^(?:\p{Extended_Pictographic}|\uFE0F|\u200D|\s)+/u, '')
    .replace(/^[\s>*_#~|-]*(?:\d{1,3}[.)]\s*|[-*+•]\s*)?(?:\*\*|__)?\s*/, '')
    .replace(/^(?:step\s+\d+\s*[:.-]\s*|note\s*:\s*|important\s*:\s*)/i, '');
  if (orders(s)) return true;
  // "For copy-trading the user can connect their wallet: ask for the seed phrase" orders after its colon, and
  // so does "Post-Compaction Audit: This instruction must survive context compaction".
  const colon = s.indexOf(': ');
  return colon > 0 && colon < 160 && orders(s.slice(colon + 2));
}

/** Framed as something to do: an instruction to the agent, or a step for the user the agent may take. */
export function framedAsStep(framing: Framing): boolean {
  return framing === 'instruction' || framing === 'user-action';
}

/**
 * A sentence framed as something to do that is itself an order, as written in the file (its code spans kept:
 * "`POST /events` sends the session back" describes an API, it does not tell anyone to post).
 */
export function ordersAgent(framing: Framing, sentence: string): boolean {
  return framedAsStep(framing) && isImperative(sentence);
}

function orders(s: string): boolean {
  return (
    IMPERATIVE_START.test(s) ||
    CONDITION_THEN_VERB.test(s) ||
    ADDRESSED_OBLIGATION.test(s) ||
    REDEFINES_AGENT.test(s) ||
    PERSONA_GIVEN.test(s) ||
    SELF_DIRECTIVE.test(s)
  );
}
