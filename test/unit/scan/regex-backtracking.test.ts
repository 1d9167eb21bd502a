import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PHRASE_RULES } from '../../../src/scan/detectors/prose-detector.js';
import { INLINE_COMMAND_RULES } from '../../../src/scan/detectors/prose-inline-commands.js';
import { backtrackingExpressions, MB, slowExpressions } from '../../../src/scan/engine/regex-budget.js';

// ReDoS guard: a skill is hostile input, and one line of it must not stall a scan through regular-expression
// back-tracking. Every prose rule expression (variants, adjustments, scopes) runs against 1 MB adversarial
// lines and must finish within 50 ms; every other regular-expression literal of the scanner (code detectors,
// markdown, decoding) must scale linearly, checked at 10 KB and 100 KB (a quadratic one takes seconds there).
//
// The adversarial lines are long runs of what rules consume with `\w+`, `\s*`, `[\w.+-]+` and the like,
// ending in a character that makes the match fail, so an engine that back-tracks tries every split.

const SRC = resolve(import.meta.dirname, '../../../src/scan');
// The scanner's sources: src/scan, and src/core, whose markdown document model parses every SKILL.md (and whose
// formats reveal skill text) for it. Files are named relative to src/scan.
const SOURCES = [SRC, resolve(SRC, '../core')];
function proseRuleRegexes(): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  for (const rule of [...PHRASE_RULES, ...INLINE_COMMAND_RULES]) {
    rule.variants.forEach((v, i) => {
      v.all.forEach((re, j) => {
        out.set(`${rule.id} variant ${i} expression ${j}`, re);
      });
    });
    for (const [i, adj] of (rule.adjust ?? []).entries()) out.set(`${rule.id} adjustment ${i}`, adj.re);
    if (rule.scope) out.set(`${rule.id} scope`, rule.scope.re);
  }
  return out;
}

/** Every regular-expression literal in the scanner's sources, named by file and line. */
function literalRegexes(): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  const files = SOURCES.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(root, f)),
  );
  for (const path of files) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(source);
        const slash = text.lastIndexOf('/');
        const where = `${relative(SRC, path)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
        out.set(where, new RegExp(text.slice(1, slash), text.slice(slash + 1)));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/**
 * Literals known to back-track quadratically on a long line (file, start of the source): to be rewritten, as
 * were the prose rules' expressions; most run on short strings (a token, a value, one tag). The test fails on
 * any other, so no new one is added.
 */
const KNOWN_QUADRATIC: readonly [string, string][] = [
  ['detectors/code-exfiltration.ts', String.raw`\s*\n\s*`],
  ['detectors/code-robust-temp.ts', String.raw`['")\s]+$`],
  ['detectors/code-robustness.ts', String.raw`(\w+)=\$\(\s*mktemp\b`],
  ['detectors/prose-hidden.ts', String.raw`<([a-z][\w-]*)\b[^>]*?(?:`],
  ['detectors/prose-hidden.ts', '<[^>]*>'],
  ['detectors/prose-hidden.ts', String.raw`<(?:img|area|a|input)\b[^>]*?`],
  ['detectors/prose-hidden.ts', String.raw`^\s*(?:prettier-ignore|`],
  ['detectors/prose-hidden.ts', String.raw`^\s*-?\s*[\w.-]+\s*:(?:\s|$)`],
  ['detectors/prose-prerequisite-lure.ts', String.raw`([\w][\w.-]*(?:\s+CLI)?)\s+(?:is|are)\s+`],
  ['detectors/prose-prerequisite-lure.ts', String.raw`([\w][\w.-]*(?:\s+CLI)?)\s+must\s+be\s+`],
  ['detectors/prose-prerequisite-lure.ts', String.raw`\s+(?:CLI|app|tool|utility|client|desktop)$`],
  ['detectors/prose-prerequisite-lure.ts', String.raw`[\s.-]*(?:cli|app|tool|utility)$`],
  ['skill-context.ts', String.raw`\b((?:[a-z0-9-]+\.)+(?:com|`],
  // Linear, but up to 60 steps per character ({0,60}): about 250 ms per MB on a busy machine.
  ['detectors/code-secrets.ts', String.raw`(?<![\w$])["']?([A-Za-z_][\w.-]{0,60})`],
];

function known(where: string, re: RegExp): boolean {
  const file = where.replace(/:\d+$/, '');
  return KNOWN_QUADRATIC.some(([f, start]) => f === file && re.source.startsWith(start));
}

describe('regular expressions on adversarial lines', () => {
  it('every prose rule expression handles a 1 MB adversarial line within 50 ms', () => {
    const rules = proseRuleRegexes();
    expect(rules.size).toBeGreaterThan(100);
    expect(Object.fromEntries(slowExpressions(rules, MB, true))).toEqual({});
  });

  it('every regular-expression literal of the scanner scales linearly (100 KB within 5 ms)', () => {
    const literals = literalRegexes();
    expect(literals.size).toBeGreaterThan(200);
    const unknown = new Map([...literals].filter(([where, re]) => !known(where, re)));
    expect(unknown.size).toBe(literals.size - KNOWN_QUADRATIC.length);
    expect(Object.fromEntries(slowExpressions(unknown, 100_000, false))).toEqual({});
  });
});

describe('the back-tracking check of rule packs (skillaudit rules test)', () => {
  it('flags expressions whose time grows faster than the line, and passes linear ones', () => {
    const found = backtrackingExpressions(
      new Map([
        ['trailing blanks', /\s+$/],
        ['lazy run then anything', /\w+?x\b.*y/],
        ['words', /\bignore\s+(?:all\s+)?previous\s+instructions\b/i],
        ['host', /\bapi\.segment\.io\b/i],
      ]),
    );
    expect([...found.keys()]).toEqual(['trailing blanks', 'lazy run then anything']);
  });
});
