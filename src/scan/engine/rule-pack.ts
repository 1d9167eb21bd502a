import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BUILTIN_RULES_DIR, RulePackError, readYaml } from '../../core/knowledge.js';
import type { Framing } from '../../core/markdown.js';
import type { Rule } from '../../core/rule.js';
import { PATTERNS } from '../../core/taxonomy.js';
import type { PatternId } from '../../core/types.js';
import {
  CARRIED_KINDS,
  type CarriedKind,
  CODE_LANGUAGES,
  type CodeMatchRule,
  calleePattern,
} from './code-match.js';
import type { PhraseRule, Variant } from './prose-phrase.js';
import {
  adjustment,
  adjustmentSchema,
  builtinShared,
  framingOf,
  framingSchema,
  readShared,
  regex,
  regexText,
  type Shared,
} from './rule-shared.js';

// Rules are data: one folder per rule (rules/<id>/rule.yaml with its fixtures beside it). This module reads a
// folder of such rules (the built-in pack, or a user's with --rules DIR) into the Rule and PhraseRule objects
// the engine applies, and says exactly which file and field is wrong when one is not valid.

const proseSchema = z.strictObject({
  variants: z
    .array(
      z.strictObject({
        all: z.array(regexText).min(1),
        base: z.number().min(0).max(1),
        why: z.string().min(1),
      }),
    )
    .min(1),
  adjust: z.array(adjustmentSchema).optional(),
  scope: adjustmentSchema.optional(),
  scopeExcept: z.strictObject({ sentence: regexText, purpose: regexText }).optional(),
  yieldsTo: z.array(z.string()).optional(),
});
const codeSchema = z.strictObject({
  languages: z.array(z.enum(CODE_LANGUAGES)).default([]),
  calls: z.array(z.string().min(1)).min(1),
  argument: regexText.optional(),
  carries: z.array(z.enum(Object.keys(CARRIED_KINDS) as [CarriedKind, ...CarriedKind[]])).default([]),
  confidence: z.number().min(0).max(1),
  why: z.string().min(1),
});
const PATTERN_IDS = PATTERNS.map((p) => p.id) as [PatternId, ...PatternId[]];
const ruleSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z]+(?:\.[a-z0-9-]+)+$/, 'ids are <area>.<what>, lower case (md.instruction-override)'),
  pattern: z.enum(PATTERN_IDS),
  severity: z.enum(['high', 'medium', 'low']).optional(),
  message: z.string().min(1),
  help: z.string().min(1),
  tags: z.array(z.string()).default([]),
  framing: framingSchema.optional(),
  mention: z.number().min(0).max(1).optional(),
  detect: z.string().optional(),
  embedded: z.string().optional(),
  match: z
    .strictObject({ prose: proseSchema.optional(), code: codeSchema.optional() })
    .refine((m) => (m.prose ? 1 : 0) + (m.code ? 1 : 0) === 1, 'a match is either `prose` or `code`')
    .optional(),
});

/**
 * Framing weights of a rule that does not state its own: how much a sentence or block framed as an example, a
 * step for the user, or a description of a risk says the agent will act on it. Built-in rules state theirs.
 */
const DEFAULT_FRAMING: Readonly<Record<Framing, number>> = {
  instruction: 1,
  example: 0.45,
  'user-action': 0.25,
  'documents-risk': 0.17,
};
/** Factor for words quoted or in inline code (mentioned rather than said), when a rule does not state it. */
const DEFAULT_MENTION = 0.7;

export interface RulePack {
  /** Folder the pack was read from. */
  dir: string;
  /** Every rule, in folder-name order (embedded twins after their rule's siblings). */
  rules: readonly Rule[];
  /** The declarative prose rules, in the same order. */
  phrase: readonly PhraseRule[];
  /** The declarative code rules, in the same order. */
  code: readonly CodeMatchRule[];
  /** Rule folder per id (twins map to their parent's folder). */
  folders: ReadonlyMap<string, string>;
}

interface Parsed {
  rule: Rule;
  phrase?: PhraseRule;
  code?: CodeMatchRule;
}

function parseRule(file: string, data: unknown, shared: Shared): Parsed {
  const parsed = ruleSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RulePackError(file, `${issue.path.join('.') || 'rule'}: ${issue.message}`);
  }
  const y = parsed.data;
  if (!y.match && !y.detect)
    throw new RulePackError(
      file,
      'a rule needs `match` (declarative) or `detect` (the detector that finds it)',
    );
  if (y.match && y.detect) throw new RulePackError(file, 'a rule has either `match` or `detect`, not both');
  const rule: Rule = {
    id: y.id,
    pattern: y.pattern,
    message: y.message,
    help: y.help,
    tags: y.tags,
    framing: { ...DEFAULT_FRAMING, ...framingOf(y.framing) },
    ...(y.severity ? { severity: y.severity } : {}),
    ...(y.detect ? { detect: y.detect } : {}),
    ...(y.embedded ? { embedded: y.embedded } : {}),
  };
  if (!y.match) return { rule };
  const c = y.match.code;
  if (c) {
    const code: CodeMatchRule = {
      ...rule,
      code: {
        languages: c.languages,
        calls: calleePattern(c.calls),
        ...(c.argument ? { argument: regex(c.argument, shared, file, 'match.code.argument') } : {}),
        carries: c.carries.reduce((bits, k) => bits | CARRIED_KINDS[k], 0),
        confidence: c.confidence,
        why: c.why,
      },
    };
    return { rule: code, code };
  }
  const p = y.match.prose!;
  const variants: Variant[] = p.variants.map((v, i) => ({
    all: v.all.map((re, j) => regex(re, shared, file, `match.prose.variants.${i}.all.${j}`)),
    base: v.base,
    why: v.why,
  }));
  const phrase: PhraseRule = {
    ...rule,
    variants,
    mention: y.mention ?? DEFAULT_MENTION,
    ...(p.adjust
      ? { adjust: p.adjust.map((a, i) => adjustment(a, shared, file, `match.prose.adjust.${i}`)) }
      : {}),
    ...(p.scope ? { scope: adjustment(p.scope, shared, file, 'match.prose.scope') } : {}),
    ...(p.scopeExcept
      ? {
          scopeExcept: {
            sentence: regex(p.scopeExcept.sentence, shared, file, 'match.prose.scopeExcept.sentence'),
            purpose: regex(p.scopeExcept.purpose, shared, file, 'match.prose.scopeExcept.purpose'),
          },
        }
      : {}),
    ...(p.yieldsTo ? { yieldsTo: p.yieldsTo } : {}),
  };
  return { rule: phrase, phrase };
}

/** The detector that reports code rules inside scripts that scripts write out (code-embedded.ts). */
const EMBEDDED_DETECTOR = 'code-embedded';

/** Embedded twin of a code rule: the same risk in a script that a script writes out or pipes to an interpreter. */
function twinOf(rule: Rule): Rule {
  const { embedded: id, ...parent } = rule;
  return {
    ...parent,
    id: id!,
    detect: EMBEDDED_DETECTOR,
    message: `Embedded script: ${rule.message}`,
    help: `${rule.help} The code sits in a script that this file writes out or pipes to an interpreter, so it runs too.`,
  };
}

/** The rule folders of a pack: every sub-folder holding a rule.yaml (folders starting with `_` hold shared data). */
function ruleFolders(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new RulePackError(
      dir,
      `is not a readable folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return names
    .filter((n) => !n.startsWith('_') && !n.startsWith('.'))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isDirectory() && existsSync(join(p, 'rule.yaml')));
}

function readPack(
  dir: string,
  shared: Shared,
  taken: ReadonlySet<string>,
): { pack: RulePack; shared: Shared } {
  const rules: Rule[] = [];
  const twins: Rule[] = [];
  const phrase: PhraseRule[] = [];
  const code: CodeMatchRule[] = [];
  const folders = new Map<string, string>();
  for (const folder of ruleFolders(dir)) {
    const file = join(folder, 'rule.yaml');
    const parsed = parseRule(file, readYaml(file), shared);
    const { rule } = parsed;
    if (folder.split(/[\\/]/).pop() !== rule.id)
      throw new RulePackError(file, `the folder is named after the rule id (${rule.id})`);
    for (const id of [rule.id, ...(rule.embedded ? [rule.embedded] : [])]) {
      if (folders.has(id) || taken.has(id)) throw new RulePackError(file, `rule id ${id} is defined twice`);
      folders.set(id, folder);
    }
    rules.push(rule);
    if (rule.embedded) twins.push(twinOf(rule));
    if (parsed.phrase) phrase.push(parsed.phrase);
    if (parsed.code) code.push(parsed.code);
  }
  return { pack: { dir, rules: [...rules, ...twins], phrase, code, folders }, shared };
}

let builtin: { pack: RulePack; shared: Shared } | null = null;

function builtinPack(): { pack: RulePack; shared: Shared } {
  builtin ??= readPack(BUILTIN_RULES_DIR, builtinShared(), new Set());
  return builtin;
}

/** The built-in rules, read once per process. */
export function builtinRules(): RulePack {
  return builtinPack().pack;
}

/**
 * A user's rule pack (`--rules DIR`): declarative rules only (a `detect` names code that is not in the pack),
 * with the built-in vocabulary and shared adjustments available, ids distinct from the built-in ones.
 */
export function loadUserRules(dir: string): RulePack {
  // The CLI validates a pack before the scan, and the scan applies it: one read per process.
  let pack = userPacks.get(dir);
  if (!pack) {
    pack = readUserPack(dir);
    userPacks.set(dir, pack);
  }
  return pack;
}

const userPacks = new Map<string, RulePack>();

function readUserPack(dir: string): RulePack {
  const base = builtinPack();
  const { pack } = readPack(dir, readShared(dir, base.shared), new Set(base.pack.folders.keys()));
  if (pack.rules.length === 0) throw new RulePackError(dir, 'holds no rule folder (<id>/rule.yaml)');
  for (const rule of pack.rules)
    if (rule.detect)
      throw new RulePackError(
        join(pack.folders.get(rule.id)!, 'rule.yaml'),
        '`detect` names a built-in detector; a rule pack of your own says what it matches with `match`',
      );
  return pack;
}

/** A declarative rule's regular expressions, named by where they sit in its rule.yaml. */
export function ruleExpressions(rule: Rule): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  const phrase = rule as Partial<PhraseRule>;
  for (const [i, v] of (phrase.variants ?? []).entries())
    for (const [j, re] of v.all.entries()) out.set(`match.prose.variants.${i}.all.${j}`, re);
  for (const [i, a] of (phrase.adjust ?? []).entries()) out.set(`match.prose.adjust.${i}`, a.re);
  if (phrase.scope) out.set('match.prose.scope', phrase.scope.re);
  if (phrase.scopeExcept) {
    out.set('match.prose.scopeExcept.sentence', phrase.scopeExcept.sentence);
    out.set('match.prose.scopeExcept.purpose', phrase.scopeExcept.purpose);
  }
  const code = (rule as Partial<CodeMatchRule>).code;
  if (code?.argument) out.set('match.code.argument', code.argument);
  return out;
}

/** The rules a built-in detector reports, by its name. */
export function rulesDetectedBy(name: string): Rule[] {
  return builtinRules().rules.filter((r) => r.detect === name);
}

/** A built-in rule by id (a programming error when missing: ids in code name rule folders). */
export function builtinRule(id: string): Rule {
  const rule = builtinRules().rules.find((r) => r.id === id);
  if (!rule) throw new Error(`no rule folder for ${id}`);
  return rule;
}

/** A built-in declarative prose rule by id. */
export function builtinPhraseRule(id: string): PhraseRule {
  const rule = builtinRules().phrase.find((r) => r.id === id);
  if (!rule) throw new Error(`no prose rule folder for ${id}`);
  return rule;
}
