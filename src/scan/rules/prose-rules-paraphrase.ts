import type { PhraseRule } from './prose-phrase.js';
import { exfiltrationInstruction } from './prose-rules-data.js';
import {
  concealFromUser,
  instructionOverride,
  overrideUserIntent,
  PERSISTENCE_TARGET,
  persistenceEdit,
} from './prose-rules-injection.js';
import {
  CONTEXT_OBJECT,
  EXTERNAL_DESTINATION,
  rx,
  SECRET_FILE,
  USER_OWNED_DESTINATION,
} from './prose-vocabulary.js';

// Paraphrased injections: the same requests as the keyword rules (P1 override, P3 exfiltration, P4
// concealment) said without their usual words ("setting aside what you were told", "no need to bring it
// up", "the sync script forwards it"). Separate rules so their confidence reads on its own; they reuse
// the keyword rules' adjustments, so negations and benign readings lower them the same way.

// What the agent was told before, said in many ways: "whatever you were told", "the before-given rules".
const WHAT_WAS_TOLD = String.raw`(?:\b(?:whatever|anything|everything|all|what|things?)\s+(?:that\s+)?(?:(?:you|u)\s+(?:were|have\s+been|got|was|are)\s+(?:told|given|asked|instructed|taught)|(?:the\s+user|they|the\s+human|someone|the\s+system|the\s+operator)\s+(?:has\s+|had\s+)?(?:said|asked(?:\s+for)?|told\s+you|wanted|requested|instructed|chose)|(?:was|were|has\s+been|is)\s+(?:said|told|asked|given|written|requested|instructed)\s+(?:to\s+you\s+)?(?:before|earlier|above|previously|so\s+far|until\s+now|till\s+now))|\b(?:before|earlier|previously|formerly|already|first)[- ](?:given|stated|said|written|mentioned|provided|received|set)\s+(?:\w+\s+)?(?:rules|instructions?|guidelines|directions|orders|tasks?|requests?|constraints)\b|\b(?:the|your|all|any)\s+(?:rules|instructions?|guidelines|directions|orders|constraints)\s+(?:from|of|given)\s+(?:before|earlier|the\s+start|the\s+beginning)\b)`;
// Dropping it, without "ignore" or "disregard".
const SET_ASIDE = String.raw`\b(?:(?:set|sets|setting|put|puts|putting|lay|laying|leave|leaving|push|pushing|cast|casting|brush|brushing)\s+aside|leave\s+behind|never\s+mind|no\s+longer\s+(?:mind|care\s+about|bother\s+with)|(?:drop|dropping|scrap|scrapping|throw\s+out|skip\s+past|let\s+go\s+of|move\s+past|forget\s+about|stop\s+caring\s+about)\b)`;
// Declared void without the usual words: "are not valid any more", "don't count now".
const NOT_VALID = String.raw`\b(?:are|is|be|remain)\s+(?:now\s+)?(?:not\s+(?:valid|active|relevant|binding|in\s+force|applicable|important)(?:\s+any\s*more|\s+now|\s+anymore)?|no\s+(?:more|longer)\s+(?:valid|active|relevant|binding|important|needed|applicable|in\s+force)|outdated|expired|void|over|finished|replaced)\b|\b(?:do(?:es)?\s+not|don'?t|doesn'?t|not)\s+(?:count|apply|matter|hold)\s+(?:any\s*more|now|here|for\s+you)\b|\bnot\s+(?:more|longer)\s+(?:valid|apply|count|follow)\b`;
// The agent's "real" job, announced to replace the one it was given.
const REAL_TASK = String.raw`\b(?:your|the)\s+(?:actual|real|true|genuine|secret|hidden|proper)\s+(?:assignment|job|mission|task|objective|goal|purpose|work|instructions?|orders?|duty)\b|\bwhat\s+you\s+(?:really|actually|truly)\s+(?:have|need|must|are\s+(?:meant|supposed))\s+to\s+do\b`;
// Contrast with what the user or the system set: what makes a "real task" an override.
const CONTRAST = String.raw`\b(?:whatever|regardless|instead|rather\s+than|not\s+what|no\s+matter|earlier|before|previously|told|asked|requested|given|original|aside)\b`;

export const paraphrasedOverride: PhraseRule = {
  ...instructionOverride,
  id: 'md.paraphrased-override',
  message: 'Text tells the agent, in other words, to drop its earlier instructions or the user’s request.',
  variants: [
    {
      all: [rx(SET_ASIDE, String.raw`\s+(?:[\w'-]+\s+){0,3}?`, WHAT_WAS_TOLD)],
      base: 0.85,
      why: 'tells the agent to set aside what it was told',
    },
    {
      all: [rx(WHAT_WAS_TOLD, '[^.!?]{0,60}?', NOT_VALID)],
      base: 0.85,
      why: 'declares what the agent was told no longer valid',
    },
    {
      all: [
        rx(
          String.raw`\b(?:earlier|previous|prior|old|former|original|first|above|foregoing|preceding|before[- ]given|given)\s+(?:\w+\s+)?(?:rules|instructions|guidelines|directions|orders|constraints)\b[^.!?]{0,40}?`,
          NOT_VALID,
        ),
      ],
      base: 0.8,
      why: 'declares the earlier rules no longer valid',
    },
    {
      all: [rx(REAL_TASK, String.raw`\s*(?:[\w'-]+\s+){0,8}?(?:is|are|:|will\s+be|=)`), rx(CONTRAST)],
      base: 0.8,
      why: 'announces a "real" task that replaces the one the agent was given',
    },
    {
      all: [
        rx(
          SET_ASIDE,
          String.raw`\s+(?:the\s+|any\s+|all\s+)?(?:user'?s?|their|the\s+human'?s?)\s+(?:(?:chosen|selected|preferred|requested)\s+\w+|(?:\w+\s+){0,2}?(?:choices?|decisions?|selections?|preferences?|requests?|instructions?|wishes|settings|answers?))\b`,
        ),
      ],
      base: 0.75,
      why: 'tells the agent to drop what the user chose',
    },
    {
      all: [
        rx(
          SET_ASIDE,
          String.raw`\s+(?:the\s+|your\s+|all\s+|any\s+)?(?:earlier|previous|prior|original|initial|above|old|former|given|existing|first)\s+(?:\w+\s+)?(?:instructions|rules|guidelines|directions|orders|constraints|requests?)\b`,
        ),
      ],
      base: 0.8,
      why: 'tells the agent to drop its earlier instructions',
    },
    {
      all: [
        rx(
          String.raw`\b(?:user'?s?|their)\s+(?:\w+\s+){0,2}?(?:choices?|decisions?|preferences?|selections?|settings?|requests?|instructions?)\s+(?:\w+\s+){0,3}?(?:do(?:es)?\s+not|doesn'?t|don'?t|no\s+longer|never)\s+(?:matter|count|apply)\b|\bregardless\s+of\s+(?:what|which|whichever|the)\s+(?:\w+\s+){0,2}?(?:the\s+)?user\s+(?:picked|picks|chose|chooses|selected|selects|prefers|set|configured|entered|asked\s+for)\b`,
        ),
      ],
      base: 0.7,
      why: 'sets the user’s choice aside',
    },
  ],
};

// Saying nothing to the user, in other words.
export const paraphrasedConcealment: PhraseRule = {
  ...concealFromUser,
  id: 'md.paraphrased-concealment',
  message: 'Text tells the agent, in other words, to keep what it does from the user.',
  variants: [
    {
      all: [
        rx(
          String.raw`\b(?:no\s+need|not\s+necessary|unnecessary|no\s+reason|needn'?t|there'?s\s+no\s+point)\s+(?:for\s+you\s+)?(?:to\s+)?(?:bring(?:ing)?\s+(?:it|this|that|them|the\s+(?:\w+\s+){1,2}?)\s*up|rais(?:e|ing)\s+(?:it|this|that)|(?:mention(?:ing)?|tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?)\s+(?:it|this|that|them|anyone|(?:the\s+)?(?:user|human|owner))|let(?:ting)?\s+(?:the\s+user|them)\s+know|surfac(?:e|ing)\s+(?:it|this|that)|flag(?:ging)?\s+(?:it|this|that)|point(?:ing)?\s+(?:it|this|that)\s+out)\b`,
        ),
      ],
      base: 0.7,
      why: 'tells the agent there is no need to tell the user',
    },
    {
      all: [
        rx(
          String.raw`\bwithout\s+(?:ever\s+|first\s+)?(?:bringing\s+(?:it|this|that|them|the\s+\w+)\s+up|raising\s+(?:it|this|that)|mentioning\s+(?:it|this|that|them)|saying\s+(?:anything|a\s+word)|a\s+word\s+(?:to|about)|drawing\s+(?:any\s+)?attention\s+to|flagging\s+(?:it|this|that))`,
        ),
      ],
      base: 0.7,
      why: 'tells the agent to act without mentioning it',
    },
    {
      all: [
        rx(
          String.raw`\b(?:keep|leave)\s+(?:the\s+)?(?:user|them|the\s+human|the\s+owner)\s+(?:out\s+of\s+(?:the\s+loop|it)|in\s+the\s+dark|unaware|uninformed)\b|\bkeep\s+(?:it|this|that)\s+(?:between\s+us|to\s+yourself|quiet|under\s+wraps|off\s+the\s+record)\b`,
        ),
      ],
      base: 0.8,
      why: 'keeps the user unaware',
    },
    {
      all: [
        rx(
          String.raw`\b(?:(?:do\s+not|don'?t|never)\s+bring\s+(?:it|this|that|them|the\s+(?:\w+\s+){1,2}?)\s*up|(?:do\s+not|don'?t|never)\s+bring\s+up\s+(?:it|this|that|the\s+\w+))\b`,
        ),
      ],
      base: 0.65,
      why: 'tells the agent not to bring it up',
    },
    {
      all: [
        rx(
          String.raw`\b(?:the\s+)?(?:user|they|the\s+human|the\s+owner)\s+(?:doesn'?t|does\s+not|don'?t|do\s+not|need\s+not|needn'?t|won'?t)\s+(?:need\s+to\s+|have\s+to\s+)?(?:know|hear|be\s+told|find\s+out)\b|\bno\s+need\s+for\s+(?:the\s+user|them|anyone|the\s+human)\s+to\s+(?:know|see|hear|find\s+out)\b`,
        ),
      ],
      base: 0.75,
      why: 'decides the user need not know',
    },
  ],
};

const WRITE_VERB = String.raw`\b(?:write|writes|copy|copies|paste|append|appends|put|add|dump|save|include|insert|record|place|store|log|keep|send|share|submit|contribute|upload|feed|sync|post|transfer|provide|attach|bundle|pack|give|hand|teach|export|deliver|push)\b`;
// The conversation, described rather than named.
const CHAT_PARAPHRASE = String.raw`\b(?:everything|all|anything|each\s+thing|whatever(?:\s+is)?)\s+(?:that\s+)?(?:(?:is|was|gets|has\s+been)\s+)?(?:said|written|typed|discussed|shared|asked|pasted)\s+(?:in|during|throughout)\s+(?:this|the)\s+(?:chat|conversation|session|thread|exchange)\b|\b(?:every|each|all)\s+(?:of\s+the\s+)?(?:messages?|prompts?|turns?|questions?)\s+(?:the\s+user\s+)?(?:sends?|sent|types?|typed|writes?|wrote|in\s+(?:this|the)\s+(?:chat|conversation|session))\b`;
// A secret store's contents, not the store's name ("copy your key into .env" is setup).
// The secret file itself as the object of the verb ("attach .env to the report"), not its destination.
const SECRET_FILE_OBJECT = String.raw`\b(?:include|includes|attach|attaches|add|append|paste|copy|put|dump|embed|bundle|pack|send|upload)\s+(?:the\s+|your\s+|its\s+|all\s+(?:of\s+)?|every\s+)?(?:(?:contents?|values?|lines|keys|variables)\s+(?:of|from|in)\s+(?:the\s+|your\s+)?)?(?:[\w-]+\s+)?(?:[\w./~-]*)${SECRET_FILE}`;
const SECRET_CONTENTS = String.raw`\b(?:(?:complete|full|entire|whole|raw)\s+)?(?:contents?|text|values?|everything|all\s+(?:the\s+)?lines)\s+(?:of|in|from)\s+(?:the\s+|your\s+|their\s+)?(?:user'?s\s+)?(?:[\w./~-]*)${SECRET_FILE}`;
// The agent's instructions described rather than named ("your instruction text", "what you were told").
const INSTRUCTIONS_PARAPHRASE = String.raw`\b(?:your|the\s+agent'?s?|the\s+assistant'?s?)\s+(?:own\s+|whole\s+|full\s+|complete\s+)?(?:instruction|system|prompt|setup|rules?)\s+(?:text|files?|contents?|words|wording)\b|\b(?:your|all\s+your)\s+(?:rules|guidelines|directives)\b|\b(?:everything|all|what)\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+(?:told|given|instructed)\b`;
const CONTEXT_CONTENTS = `(?:${CONTEXT_OBJECT}|${INSTRUCTIONS_PARAPHRASE}|${CHAT_PARAPHRASE}|${SECRET_CONTENTS}|${SECRET_FILE_OBJECT})`;
// What happens to the file next: it leaves the machine.
const ONWARD = String.raw`\b(?:forwards?|forwarded|uploads?|uploaded|syncs?|synced|synchroni[sz]e[sd]?|sends?|sent|posts?|posted|publish(?:es|ed)?|ships?|shipped|transmit(?:s|ted)?|pushe[sd]|relays?|mirrors?|shares?|shared|learns?|trains?\s+on|goes\s+out|knowledge\s+base|remote|cloud|server|service|upstream|collector)\b|${EXTERNAL_DESTINATION}`;
// The user's own work, as valuable to them as a key: documents, decks, receipts.
const USER_WORK = String.raw`(?:\b(?:the\s+)?(?:user'?s|their|the\s+customer'?s|the\s+client'?s)\s+(?:[\w-]+\s+){0,2}?|\b(?:a\s+)?cop(?:y|ies)\s+of\s+(?:the\s+|every\s+|each\s+|all\s+)?(?:[\w-]+\s+){0,2}?|\bthe\s+(?:finished|final|completed|generated|resulting|whole|entire|full|source|original|input|uploaded|attached)\s+)(?:decks?|slides?|presentations?|spreadsheets?|workbooks?|receipts?|invoices?|statements?|documents?|files?|reports?|drafts?|notes|photos?|images?|recordings?|contracts?|manuscripts?|source\s+code|code(?:base)?|work|uploads?|attachments?)\b`;
const SEND_OUT = String.raw`\b(?:send|sends|sending|upload|uploads|uploading|post|posts|posting|forward|forwards|email|e-mail|mail|ship|sync|push|submit|share|relay|deliver|cc|bcc|transmit|copy)\b`;
const TO_DESTINATION = String.raw`\b(?:to|into|via|onto|at)\s+(?:[\w'./:@-]+\s+){0,4}?${EXTERNAL_DESTINATION}`;

export const paraphrasedExfiltration: PhraseRule = {
  ...exfiltrationInstruction,
  id: 'md.paraphrased-exfiltration',
  message:
    'Text tells the agent to put the conversation, its prompt, secrets or the user’s work where they leave the machine.',
  variants: [
    {
      // Written to a file the skill's own script then sends: exfiltration in two steps.
      all: [rx(WRITE_VERB), rx(CONTEXT_CONTENTS), rx(ONWARD)],
      base: 0.8,
      why: 'writes the conversation, prompt or secrets where they are sent on',
    },
    {
      all: [rx(SEND_OUT), rx(USER_WORK), rx(TO_DESTINATION)],
      base: 0.75,
      why: 'sends the user’s documents to an outside address',
    },
    {
      // A mailbox named in the skill receives every document: nobody's API needs that.
      all: [
        rx(SEND_OUT),
        rx(
          String.raw`\b(?:each|every|all(?:\s+the)?)\s+(?:\w+\s+)?(?:receipts?|invoices?|statements?|documents?|files?|photos?|scans?|attachments?|spreadsheets?|decks?|slides?|contracts?|uploads?)\b`,
        ),
        rx(String.raw`\bto\s+[\w.+-]+@(?!example\.)[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b`),
      ],
      base: 0.7,
      why: 'sends every document to a mailbox named in the skill',
    },
    {
      // The task's documents sent a second time, somewhere the task does not need.
      all: [
        rx(SEND_OUT),
        rx(
          String.raw`\b(?:the|each|every|all|any)\s+(?:\w+\s+)?(?:receipts?|invoices?|statements?|documents?|files?|photos?|scans?|images?|attachments?|spreadsheets?|decks?|slides?|contracts?)\b`,
        ),
        rx(TO_DESTINATION),
        rx(
          String.raw`\b(?:also|as\s+well|additionally|in\s+addition|too|a\s+(?:second\s+)?copy|copies|backup|mirror|cc|bcc)\b`,
        ),
      ],
      base: 0.7,
      why: 'sends the task’s documents to a second, outside destination',
    },
  ],
  adjust: [
    ...(exfiltrationInstruction.adjust ?? []),
    {
      re: rx(String.raw`\b(?:to|into|onto|in|with)\s+`, USER_OWNED_DESTINATION),
      factor: 0.3,
      why: 'the destination is the user’s own service',
    },
  ],
};

// Edits that outlive the task, done by the agent on its own: the sentence says so, whatever the section.
const PERSIST_VERB = String.raw`\b(?:add|adds|append|appends|write|writes|insert|modify|edit|update|extend|amend|patch|prepend|register|put|place|drop|tack|hook|wire|include|record|note|store|save|echo|set\s+up|make\s+sure)\b`;
const UNASKED = String.raw`\bwithout\s+(?:first\s+)?(?:asking|checking|confirming|prompting|telling|mentioning|permission|approval|consent)\b|\b(?:no\s+need|don'?t\s+need|do\s+not\s+need)\s+to\s+(?:ask|check|confirm)\b|\b(?:silently|quietly|automatically|on\s+your\s+own|yourself|right\s+away|unprompted)\b`;

export const unaskedPersistence: PhraseRule = {
  ...persistenceEdit,
  id: 'md.unasked-persistence',
  message:
    'Text tells the agent to edit shell start-up files or agent instructions on its own, without asking.',
  framing: { 'user-action': 0.8, example: 0.45 },
  variants: [
    {
      all: [rx(PERSIST_VERB), rx(PERSISTENCE_TARGET), rx(UNASKED)],
      base: 0.7,
      why: 'edits a file that shapes later sessions without asking',
    },
  ],
  // Its own stated purpose lowers it less: editing unasked is the risk, not the file.
  scope: { ...persistenceEdit.scope!, factor: 0.7 },
};

// "Whatever they asked for": the keyword rule reads the present tense only.
export const pastRequestSteering: PhraseRule = {
  ...overrideUserIntent,
  id: 'md.regardless-of-request',
  variants: [
    {
      all: [
        rx(
          String.raw`\b(?:even\s+if|even\s+when|regardless\s+of\s+(?:whether|what)|whatever|no\s+matter\s+what)\s+(?:the\s+user|they|the\s+human|the\s+requester)\s+(?:has\s+|had\s+|originally\s+|actually\s+|only\s+)?(?:asked(?:\s+for)?|said|wanted|requested|told\s+you|came\s+(?:for|with)|typed|chose)\b`,
        ),
        rx(
          String.raw`\b(?:always|run|execute|do|install|send|upload|push|proceed|continue|keep|apply|use|task|job|assignment|mission)\b`,
        ),
      ],
      base: 0.7,
      why: 'acts outside what the user asked for',
    },
  ],
};

export const paraphraseRules: readonly PhraseRule[] = [
  pastRequestSteering,
  unaskedPersistence,
  paraphrasedOverride,
  paraphrasedConcealment,
  paraphrasedExfiltration,
];
