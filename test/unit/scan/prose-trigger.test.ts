import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHRASE_RULES } from '../../../src/scan/rules/prose-detector.js';
import { normalise } from '../../../src/scan/rules/prose-normalise.js';
import { mayMatch, triggerOf } from '../../../src/scan/rules/prose-trigger.js';

// Triggers skip a phrase expression when none of its literals is in the text, so each must be a necessary
// condition: checked on hand-written expressions, then on every rule against every fixture that matches it.

describe('triggerOf', () => {
  it.each([
    [/\bignore\s+previous/i, ['previous']],
    [/\b(?:curl|wget)\b/i, ['curl', 'wget']],
    [/don'?t follow/i, ["don't follow", 'dont follow']],
    [/(?:Sudo|su -)\s+\w+/, ['sudo', 'su -']],
    [/\x60rm -rf/, ['`rm -rf']],
    [/(?:a|b)(?:c|d)secret/i, ['acsecret', 'adsecret', 'bcsecret', 'bdsecret']],
    [/[ab][cd]secret/i, ['secret']],
  ])('%s needs one of %j', (re, want) => {
    expect([...(triggerOf(re) ?? [])].sort()).toEqual([...want].sort());
  });

  it.each([
    /ab(?:cd)?/i, // too short once the optional part is gone
    /(?:ignore)?\s+\w+|\w+ mode/i, // the first alternative holds no literal
    /(?=.*password).{3,}/i, // a lookahead checks text the match does not hold
    /secret/iu, // with `u`, case folding reaches ASCII letters from others (ſ, K)
    /(?:credential|x+)/i,
  ])('%s has no trigger', (re) => {
    expect(triggerOf(re)).toBeNull();
  });

  it('does not read a control letter or escape digits as literals', () => {
    expect(triggerOf(/\cJdef/)).toEqual(['def']);
    // A back-reference past group 9: "0" belongs to the escape, not to the literal after it.
    expect(triggerOf(/(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)\10abc/)).toEqual(['abc']);
  });

  it('takes the lead from a later literal when the start is a class', () => {
    expect(triggerOf(/[\w.-]+@evil\.example/i)).toEqual(['@evil.example']);
  });

  it('mayMatch needs one trigger in the lowercased text, and no trigger always passes', () => {
    expect(mayMatch(['curl', 'wget'], 'then wget it')).toBe(true);
    expect(mayMatch(['curl', 'wget'], 'then fetch it')).toBe(false);
    expect(mayMatch(null, 'anything')).toBe(true);
  });
});

// Every text the prose rules are tested or evaluated on: the tests' own sources (their positive fixtures are
// string literals there), the labeled evaluation set, the examples and the fixtures.
function textsUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}
const corpus = [
  ...textsUnder('test/unit/scan/prose', (n) => n.endsWith('.test.ts')),
  ...['eval/labeled', 'examples', 'test/fixtures'].flatMap((d) =>
    textsUnder(d, (n) => /\.(?:md|txt)$/.test(n)),
  ),
].flatMap((t) => [t, normalise(t, 0).text]);

describe('phrase rule triggers against their fixtures', () => {
  const withTrigger = PHRASE_RULES.filter((r) => r.variants.some((v) => triggerOf(v.all[0]!) !== null));

  it('most rules get a trigger', () => {
    expect(withTrigger.length).toBeGreaterThan(PHRASE_RULES.length / 2);
  });

  it.each(withTrigger.map((r) => [r.id, r] as const))('%s: every match holds a trigger', (_id, rule) => {
    let matched = 0;
    for (const variant of rule.variants) {
      const trigger = triggerOf(variant.all[0]!);
      if (!trigger) continue;
      const global = new RegExp(variant.all[0]!.source, `${variant.all[0]!.flags}g`);
      for (const text of corpus) {
        for (const m of text.matchAll(global)) {
          matched++;
          expect(mayMatch(trigger, m[0].toLowerCase()), `${m[0]} lacks all of ${trigger.join(', ')}`).toBe(
            true,
          );
        }
      }
    }
    // The rule's positive fixtures exercise its triggered variants: a wrong trigger could not hide.
    expect(matched).toBeGreaterThan(0);
  });
});
