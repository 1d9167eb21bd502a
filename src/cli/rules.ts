import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Rule } from '../core/rule.js';
import type { IndicatorList, RuleFolderCheck, RulePack } from '../scan/index.js';
import { UserError } from '../util/errors.js';
import { emit, oneOf } from './output.js';

// `skillaudit rules list|show|test`: the rules a scan applies (built in, and packs of one's own given with
// --rules), one rule's words and data, and a rule folder's fixtures checked against it.

interface RulesFlags {
  format: 'text' | 'json';
  rules?: string[];
}

/** Reads a user's rule pack for a command, as a usage error when it is not valid. */
export async function userRulePacks(dirs: readonly string[] | undefined): Promise<RulePack[]> {
  if (!dirs?.length) return [];
  const { loadUserRules, RulePackError } = await import('../scan/index.js');
  return dirs.map((dir) => {
    try {
      return loadUserRules(resolve(dir));
    } catch (error) {
      if (error instanceof RulePackError) throw new UserError('INVALID_RULES', error.message, error.file);
      throw error;
    }
  });
}

/**
 * The user's indicator lists (`--indicators FILE`), read and checked before anything is scanned: a list that is
 * not valid stops the command (exit 2) naming the file and the entry.
 */
export async function userIndicatorLists(files: readonly string[] | undefined): Promise<IndicatorList[]> {
  if (!files?.length) return [];
  const { readIndicatorFile, RulePackError } = await import('../scan/index.js');
  return files.map((file) => {
    try {
      return readIndicatorFile(resolve(file));
    } catch (error) {
      if (error instanceof RulePackError)
        throw new UserError('INVALID_INDICATORS', error.message, error.file);
      throw error;
    }
  });
}

/** `--rules <dir...>` for commands that scan. */
export function addRulesOption(command: Command): Command {
  return command.option(
    '--rules <dir...>',
    'also apply the rules of these folders (a folder of rule folders, <id>/rule.yaml; see docs/rules.md)',
  );
}

/** `--indicators <file...>` for commands that scan (`scan`, `audit`, `batch`, `serve`). */
export function addIndicatorsOption(command: Command): Command {
  return command.option(
    '--indicators <file...>',
    'also treat the hosts, accounts, packages and file hashes in these lists as known-bad (YAML or JSON, the shape of rules/_data/indicators.yaml)',
  );
}

interface Listed {
  rule: Rule;
  pack: RulePack;
}

async function listed(flags: RulesFlags): Promise<Listed[]> {
  const { builtinRules } = await import('../scan/index.js');
  const packs = [builtinRules(), ...(await userRulePacks(flags.rules))];
  return packs.flatMap((pack) => pack.rules.map((rule) => ({ rule, pack })));
}

/** How a rule matches, as the JSON listing says it: the detector written in code that finds it, or data. */
function matchOf(rule: Rule): { detect: string } | { declarative: true } {
  return rule.detect ? { detect: rule.detect } : { declarative: true };
}

function kindOf(rule: Rule): string {
  if (rule.detect) return `detector ${rule.detect}`;
  return 'code' in rule ? 'declarative (code calls)' : 'declarative (prose phrases)';
}

export function registerRules(program: Command): void {
  const rules = program.command('rules').description('List, show and test the rules of the static scan');
  const format = (c: Command) =>
    c.option('-f, --format <format>', 'text or json', oneOf(['text', 'json'] as const), 'text');

  addRulesOption(
    format(rules.command('list').description('Every rule: id, pattern, severity, how it matches')),
  ).action(async (flags: RulesFlags) => {
    const { patternById } = await import('../core/taxonomy.js');
    const all = await listed(flags);
    if (flags.format === 'json') {
      const rows = all.map(({ rule, pack }) => ({
        id: rule.id,
        pattern: rule.pattern,
        severity: rule.severity ?? patternById(rule.pattern).severity,
        message: rule.message,
        tags: rule.tags,
        match: matchOf(rule),
        pack: pack.dir,
      }));
      emit(`${JSON.stringify(rows, null, 2)}\n`, undefined);
      return;
    }
    const width = Math.max(...all.map(({ rule }) => rule.id.length));
    const lines = all.map(({ rule }) => {
      const severity = rule.severity ?? patternById(rule.pattern).severity;
      return `${rule.id.padEnd(width)}  ${rule.pattern.padEnd(4)} ${severity.padEnd(6)} ${kindOf(rule)}`;
    });
    emit(`${lines.join('\n')}\n${all.length} rules\n`, undefined);
  });

  addRulesOption(
    format(rules.command('show <id>').description('One rule: its words, its data and where its folder is')),
  ).action(async (id: string, flags: RulesFlags) => {
    const { patternById } = await import('../core/taxonomy.js');
    const found = (await listed(flags)).find(({ rule }) => rule.id === id);
    if (!found) throw new UserError('NOT_FOUND', `no rule ${id} (skillaudit rules list shows them)`);
    const { rule, pack } = found;
    const folder = pack.folders.get(rule.id)!;
    const pattern = patternById(rule.pattern);
    if (flags.format === 'json') {
      const { fixturesOf } = await import('../scan/index.js');
      emit(
        `${JSON.stringify(
          {
            id: rule.id,
            pattern: rule.pattern,
            patternName: pattern.name,
            severity: rule.severity ?? pattern.severity,
            message: rule.message,
            help: rule.help,
            tags: rule.tags,
            framing: rule.framing,
            match: matchOf(rule),
            folder,
            fixtures: fixturesOf(folder).map((f) => f.slice(folder.length + 1)),
          },
          null,
          2,
        )}\n`,
        undefined,
      );
      return;
    }
    // An embedded twin lives in its rule's folder: that rule.yaml says what both match.
    const yaml = readFileSync(join(folder, 'rule.yaml'), 'utf8');
    emit(
      [
        `${rule.id}: ${rule.message}`,
        `pattern ${rule.pattern} (${pattern.name}), severity ${rule.severity ?? pattern.severity}, ${kindOf(rule)}`,
        `folder ${folder}`,
        '',
        rule.help,
        '',
        yaml,
      ].join('\n'),
      undefined,
    );
  });

  format(
    rules
      .command('test [dir]')
      .description(
        "Check rule folders' fixtures against their rules: the built-in rules, a pack of your own, or one rule folder",
      ),
  ).action(async (dir: string | undefined, flags: RulesFlags) => {
    const checks = await testRules(dir);
    if (flags.format === 'json') emit(`${JSON.stringify(checks, null, 2)}\n`, undefined);
    else emit(renderChecks(checks), undefined);
    process.exitCode = checks.every((c) => c.passed) ? 0 : 1;
  });
}

/** The checks of `rules test [dir]`. */
async function testRules(dir: string | undefined): Promise<RuleFolderCheck[]> {
  const { BUILTIN_RULES_DIR, builtinRules, checkRuleFolder } = await import('../scan/index.js');
  const target = resolve(dir ?? BUILTIN_RULES_DIR);
  if (!existsSync(target)) throw new UserError('NOT_FOUND', `${dir} does not exist`, dir);
  // One rule folder, or a pack (a folder of rule folders).
  const single = existsSync(join(target, 'rule.yaml'));
  const packDir = single ? dirname(target) : target;
  const builtin = builtinRules();
  const isBuiltin = resolve(packDir) === resolve(BUILTIN_RULES_DIR);
  const pack = isBuiltin ? builtin : (await userRulePacks([packDir]))[0]!;
  const known = new Set([...builtin.rules, ...pack.rules].map((r) => r.id));
  const options = isBuiltin ? {} : { ruleDirs: [packDir] };
  // A twin is checked with its rule, from the same fixtures.
  const twins = new Set(pack.rules.flatMap((r) => (r.embedded ? [r.embedded] : [])));
  const checks: RuleFolderCheck[] = [];
  for (const rule of pack.rules) {
    const folder = pack.folders.get(rule.id)!;
    if (twins.has(rule.id) || (single && resolve(folder) !== target)) continue;
    checks.push(await checkRuleFolder(folder, rule, known, options));
  }
  return checks;
}

function renderChecks(checks: readonly RuleFolderCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    const positives = c.fixtures.filter((f) => f.positive).length;
    const negatives = c.fixtures.filter((f) => f.negative).length;
    lines.push(
      `${c.passed ? 'ok  ' : 'FAIL'} ${c.rule} (${c.fixtures.length} fixtures: ${positives} with ruleid, ${negatives} with ok)`,
    );
    for (const p of c.problems) lines.push(`     ${p}`);
    for (const f of c.fixtures) {
      for (const m of f.missing)
        lines.push(`     ${f.fixture}: ${m.file}:${m.line}: expected ${m.rule}, not reported`);
      for (const u of f.unexpected)
        lines.push(
          `     ${f.fixture}: ${u.file}:${u.line}: ${u.rule} reported (confidence ${u.confidence}), not annotated`,
        );
    }
  }
  const failed = checks.filter((c) => !c.passed).length;
  lines.push(`${checks.length - failed} of ${checks.length} rule folders pass`);
  return `${lines.join('\n')}\n`;
}
