import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BUILTIN_RULES_DIR, RulePackError, readYaml } from '../../core/knowledge.js';
import type { Framing } from '../../core/markdown.js';
import { UNLESS_DOUBLE_NEGATIVE } from '../../core/negation.js';
import { type Adjustment, negated } from './prose-phrase.js';

// What the rules of a pack share (rules/_shared): the vocabulary of named expression fragments and the named
// adjustments, with the schemas and expansion they are written in. Apart from rule-pack.ts, which reads the
// rules themselves, so that code naming a fragment (host classes in the detectors and the verdict features)
// loads neither the rules nor the code matchers.

/** Fragments and adjustments shared by rules, beside them in the pack. */
const SHARED = '_shared';
/** Fragments code and rules share, defined in code: a pack's vocabulary may use them, not redefine them. */
const CODE_VOCABULARY: readonly [string, string][] = [['UNLESS_DOUBLE_NEGATIVE', UNLESS_DOUBLE_NEGATIVE]];

const FRAMINGS = [
  'instruction',
  'example',
  'user-action',
  'documents-risk',
] as const satisfies readonly Framing[];
const factor = z.number().min(0).max(10);
export const framingSchema = z.strictObject({
  instruction: factor.optional(),
  example: factor.optional(),
  'user-action': factor.optional(),
  'documents-risk': factor.optional(),
});
export const regexText = z.string().min(3);
export const adjustmentSchema = z.union([
  z.strictObject({ use: z.string() }),
  z.strictObject({
    negated: z.string().min(1),
    factor: factor.optional(),
    why: z.string().optional(),
    framing: framingSchema.optional(),
  }),
  z.strictObject({ re: regexText, factor, why: z.string().min(1), framing: framingSchema.optional() }),
]);

export interface Shared {
  vocabulary: ReadonlyMap<string, string>;
  adjustments: ReadonlyMap<string, Adjustment>;
}

/** `{{NAME}}` fragments expanded (recursively; a cycle or an unknown name is an error). */
function expand(
  text: string,
  vocabulary: ReadonlyMap<string, string>,
  file: string,
  seen: string[] = [],
): string {
  return text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (_, name: string) => {
    const fragment = vocabulary.get(name);
    if (fragment === undefined) throw new RulePackError(file, `unknown vocabulary fragment {{${name}}}`);
    if (seen.includes(name))
      throw new RulePackError(file, `vocabulary fragment {{${name}}} refers to itself`);
    // A fragment is one unit wherever it is written: `{{A}}\s+is` must not bind `\s+is` to A's last alternative.
    return `(?:${expand(fragment, vocabulary, file, [...seen, name])})`;
  });
}

/** A regular expression written as `/source/flags`, with vocabulary fragments. */
export function regex(text: string, shared: Shared, file: string, field: string): RegExp {
  const m = /^\/([\s\S]+)\/([a-z]*)$/.exec(text);
  if (!m) throw new RulePackError(file, `${field}: a regular expression is written /source/flags`);
  const flags = m[2]!;
  if (/[gy]/.test(flags))
    throw new RulePackError(file, `${field}: flags g and y are not allowed (rules test sentences)`);
  try {
    return new RegExp(expand(m[1]!, shared.vocabulary, file), flags);
  } catch (error) {
    if (error instanceof RulePackError) throw error;
    throw new RulePackError(file, `${field}: ${(error as Error).message}`);
  }
}

export function framingOf(
  f: z.infer<typeof framingSchema> | undefined,
): Partial<Record<Framing, number>> | undefined {
  if (!f) return undefined;
  const out: Partial<Record<Framing, number>> = {};
  for (const k of FRAMINGS) if (f[k] !== undefined) out[k] = f[k];
  return out;
}

export function adjustment(
  a: z.infer<typeof adjustmentSchema>,
  shared: Shared,
  file: string,
  field: string,
): Adjustment {
  if ('use' in a) {
    const found = shared.adjustments.get(a.use);
    if (!found) throw new RulePackError(file, `${field}: unknown shared adjustment "${a.use}"`);
    return found;
  }
  const framing = framingOf(a.framing);
  if ('negated' in a) {
    const base = negated(expand(a.negated, shared.vocabulary, file));
    return {
      ...base,
      ...(a.factor !== undefined ? { factor: a.factor } : {}),
      ...(a.why !== undefined ? { why: a.why } : {}),
      ...(framing ? { framing } : {}),
    };
  }
  return {
    re: regex(a.re, shared, file, `${field}.re`),
    factor: a.factor,
    why: a.why,
    ...(framing ? { framing } : {}),
  };
}

export function readShared(dir: string, base: Shared | null): Shared {
  const vocabulary = new Map(base?.vocabulary ?? CODE_VOCABULARY);
  const adjustments = new Map(base?.adjustments ?? []);
  const vocabFile = join(dir, SHARED, 'vocabulary.yaml');
  if (existsSync(vocabFile)) {
    const data = readYaml(vocabFile);
    const parsed = z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.string()).safeParse(data ?? {});
    if (!parsed.success)
      throw new RulePackError(vocabFile, 'maps NAME (upper case) to regular-expression source');
    for (const [name, source] of Object.entries(parsed.data)) {
      if (vocabulary.has(name))
        throw new RulePackError(vocabFile, `${name} is already defined by the built-in rules`);
      vocabulary.set(name, source);
    }
  }
  const shared: Shared = { vocabulary, adjustments };
  const adjustFile = join(dir, SHARED, 'adjustments.yaml');
  if (existsSync(adjustFile)) {
    const data = readYaml(adjustFile);
    const parsed = z.record(z.string(), adjustmentSchema).safeParse(data ?? {});
    if (!parsed.success)
      throw new RulePackError(adjustFile, `${parsed.error.issues[0]!.path.join('.')}: not an adjustment`);
    for (const [name, a] of Object.entries(parsed.data)) {
      if (adjustments.has(name))
        throw new RulePackError(adjustFile, `${name} is already defined by the built-in rules`);
      adjustments.set(name, adjustment(a, shared, adjustFile, name));
    }
  }
  return shared;
}

let builtinVocabulary: Shared | null = null;

/** The built-in vocabulary and adjustments: what code outside the rules needs, without reading every rule. */
export function builtinShared(): Shared {
  builtinVocabulary ??= readShared(BUILTIN_RULES_DIR, null);
  return builtinVocabulary;
}

/** A named fragment of the built-in vocabulary (shared with code that is not a rule file, e.g. host lists). */
export function vocabulary(name: string): string {
  const shared = builtinShared();
  if (!shared.vocabulary.has(name)) throw new Error(`unknown vocabulary fragment ${name}`);
  return expand(`{{${name}}}`, shared.vocabulary, BUILTIN_RULES_DIR);
}
