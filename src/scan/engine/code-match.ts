import type { Rule } from '../../core/rule.js';
import { callHit } from '../code/hits.js';
import { type Call, type CodeModel, T } from '../code/model.js';
import type { Detector, Hit } from '../rule.js';
import { codeDetector } from './code-detector.js';

// The declarative form of a code rule: a call of a named API or command, with conditions the code model
// already computes (an argument's text or constant value, the kind of data it carries). It covers the common
// shape "this call, with this in it" for rule packs of one's own; flows across functions and context-dependent
// confidences stay in detectors written in code (src/scan/detectors/code-*.ts).

/** Kinds of data a value can carry, by the names rule files use (code/model.ts has their meaning). */
export const CARRIED_KINDS = {
  'env-all': T.ENV_ALL,
  'env-secret': T.ENV_SECRET,
  'credential-path': T.CRED_PATH,
  'credential-data': T.CRED_DATA,
  'context-path': T.CTX_PATH,
  'context-data': T.CTX_DATA,
  fetched: T.FETCHED,
  decoded: T.DECODED,
  input: T.INPUT,
  listing: T.LISTING,
  'host-identity': T.HOST_ID,
} as const;
export type CarriedKind = keyof typeof CARRIED_KINDS;

export const CODE_LANGUAGES = ['python', 'bash', 'javascript', 'powershell'] as const;

export interface CodeMatch {
  /** Languages the rule reads; all when empty. */
  languages: readonly CodeModel['language'][];
  /** Callee names (`requests.post`, `subprocess.*`, `curl`); `*` stands for any run of characters. */
  calls: RegExp;
  /** An argument whose source text or known constant value matches. */
  argument?: RegExp;
  /** Bits of data an argument or the call's stdin must carry (any of them). */
  carries: number;
  /** Confidence before context (a test or example file halves it; a script the skill runs adds 0.1). */
  confidence: number;
  why: string;
}

export interface CodeMatchRule extends Rule {
  code: CodeMatch;
}

/** `requests.post`, `subprocess.*` → one anchored expression over callee names. */
export function calleePattern(names: readonly string[]): RegExp {
  const alternatives = names.map((n) =>
    n
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*'),
  );
  return new RegExp(`^(?:${alternatives.join('|')})$`, 'i');
}

function matches(call: Call, m: CodeMatch): boolean {
  if (!m.calls.test(call.callee)) return false;
  const values = [...call.args, ...call.named.values()];
  if (m.argument) {
    const re = m.argument;
    if (
      !values.some(
        (v) => re.test(v.text) || (v.str !== null && re.test(v.str)) || v.alts.some((a) => re.test(a)),
      )
    )
      return false;
  }
  if (m.carries !== 0) {
    const carried = values.reduce((bits, v) => bits | v.taint.bits, call.stdin.bits);
    if ((carried & m.carries) === 0) return false;
  }
  return true;
}

/** A detector for a pack's declarative code rules, over scripts and fenced code blocks. */
export function codeMatchDetector(name: string, rules: readonly CodeMatchRule[]): Detector {
  return codeDetector(name, rules, (ctx, model) => {
    const hits: Hit[] = [];
    for (const rule of rules) {
      const m = rule.code;
      if (m.languages.length && !m.languages.includes(model.language)) continue;
      for (const call of model.calls)
        if (matches(call, m)) hits.push(callHit(ctx, call, rule.id, m.confidence, m.why));
    }
    return hits;
  });
}
