import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { Baseline, RulePack, SkillScanResult } from '../scan/index.js';
import { UserError } from '../util/errors.js';
import { addGateOptions, type Gate, gateExitCode, gateLine } from './gate.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';
import { addModelOptions, modelFlags } from './model-options.js';
import { emit, oneOf, positiveInt, unitInterval } from './output.js';
import { createProgress } from './progress.js';
import { addIndicatorsOption, addRulesOption, userIndicatorLists, userRulePacks } from './rules.js';

interface ScanFlags {
  format: 'text' | 'json' | 'sarif' | 'md';
  out?: string;
  summary?: string;
  changedSince?: string;
  includeUncommitted?: boolean;
  skillsOf?: boolean;
  failOn: Gate['failOn'];
  failOnFinding?: Gate['failOnFinding'];
  minConfidence: number;
  baseline?: string;
  writeBaseline?: string;
  inlineIgnore: boolean;
  workers?: number;
  quiet?: boolean;
  rules?: string[];
  indicators?: string[];
}

export function registerScan(program: Command): void {
  const command = program
    .command('scan [source...]')
    .description(
      'Static safety scan of one skill or every skill under a folder, archive or git repository; with --changed-since or --skills-of, of the skills a change touched',
    )
    .option(
      '-f, --format <format>',
      'text, json, sarif or md',
      oneOf(['text', 'json', 'sarif', 'md'] as const),
      'text',
    )
    .option('-o, --out <file>', 'write the report to a file instead of stdout')
    .option('--summary <file>', 'also append a Markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)')
    .option(
      '--changed-since <git-ref>',
      'scan only the skills holding files changed between <git-ref> and HEAD (`git diff <ref>...HEAD`) in the repository folder given as source (default .)',
    )
    .option('--include-uncommitted', 'with --changed-since, also staged, unstaged and untracked files')
    .option(
      '--skills-of',
      'the sources are changed files (relative to the current folder, as pre-commit and git hooks pass them): scan only the skills holding them',
    )
    .option(
      '--min-confidence <n>',
      'findings below this confidence do not trigger --fail-on-finding',
      unitInterval,
      0.5,
    )
    .option('--baseline <file>', 'accepted findings (JSON) to mark as suppressed')
    .option('--write-baseline <file>', 'write the current findings as a baseline to edit with reasons')
    .option('--no-inline-ignore', 'do not honour skillaudit-ignore comments inside the skill')
    .option(
      '--workers <n>',
      'scanning threads (default: one per core); above one, worker threads scan a large input while the main thread reads it',
      positiveInt,
    )
    .option('-q, --quiet', 'no progress output');
  addGateOptions(command);
  addRulesOption(command);
  addIndicatorsOption(command);
  addLimitOptions(command);
  addModelOptions(command);
  command.action(async (sources: string[], flags: ScanFlags & Record<string, unknown>) => {
    // Loaded on use, so that `--help` and other commands start fast; of the report renderers, only the one
    // the format needs (see render below).
    // The source scan without the engine (a re-scan the cache answers loads no detector); scan/index, which
    // loads it, only for a baseline.
    const { scanSource } = await import('../scan/source/index.js');
    const selection = await selectSources(sources, flags);
    const packs = await userRulePacks(flags.rules);
    const ruleDirs = packs.map((p) => p.dir);
    const indicatorLists = await userIndicatorLists(flags.indicators);
    const baseline: Baseline | undefined = flags.baseline
      ? (await import('../scan/index.js')).loadBaseline(flags.baseline)
      : undefined;
    const results: SkillScanResult[] = [];
    const progress = createProgress(process.stderr, flags.quiet === true);
    const cache = await openScanCache(flags, selection.sources);
    try {
      for (const source of selection.sources) {
        results.push(
          ...(await scanSource(source, {
            intake: { limits: limitsFromOptions(flags) },
            ...(baseline ? { baseline } : {}),
            honourInline: flags.inlineIgnore,
            ...(ruleDirs.length ? { ruleDirs } : {}),
            ...(indicatorLists.length ? { indicatorLists } : {}),
            ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
            onProgress: (done, total) => progress.count('scanned', done, total),
            // The model review reads each skill again; otherwise a skill's text goes once it is scanned.
            keepSkills: typeof flags.model === 'string',
            cache,
          })),
        );
      }
    } finally {
      cache?.close();
    }
    progress.end();
    const reused = results.filter((r) => r.cached).length;
    if (cache && reused && flags.quiet !== true)
      process.stderr.write(
        `skillaudit: ${reused} of ${results.length} skills unchanged since their last scan: read from the cache (--no-cache to scan them again)\n`,
      );
    // The optional model review runs after the rules, on the main thread, so one client holds one cost cap.
    if (typeof flags.model === 'string') await reviewResults(results, flags);
    if (flags.writeBaseline) {
      (await import('../scan/index.js')).writeBaseline(
        flags.writeBaseline,
        results.flatMap((r) => (r.scan ? [{ skill: r.name ?? r.path, findings: r.scan.findings }] : [])),
      );
    }
    const exitCode = gateExitCode(
      results.some((r) => r.error),
      results.map((r) => ({ ...(r.scan ? { status: r.scan.status, findings: r.scan.findings } : {}) })),
      flags,
    );
    const markdown = async () => {
      const { renderScanMarkdown } = await import('../report/index.js');
      return renderScanMarkdown(
        results,
        [selection.scope, gateLine(exitCode, flags)].filter(Boolean).join(' · '),
      );
    };
    if (flags.summary) {
      mkdirSync(dirname(flags.summary), { recursive: true });
      appendFileSync(flags.summary, await markdown());
    }
    emit(await render(results, flags, markdown, packs, exitCode), flags.out);
    process.exitCode = exitCode;
  });
}

/**
 * The scan-result cache (`--cache-dir`, `--no-cache`; src/model/config.ts resolveCache), or null when it is off.
 * It never lives inside a folder being scanned: the scan would read its own cache.
 */
async function openScanCache(flags: Record<string, unknown>, sources: readonly string[]) {
  const { resolveCache } = await import('../model/config.js');
  const { dir, use } = resolveCache(modelFlags(flags));
  if (!use) return null;
  const inside = sources.map((s) => resolve(s)).find((s) => dir === s || dir.startsWith(`${s}${sep}`));
  if (inside)
    throw new UserError(
      'USAGE',
      `the cache folder ${dir} is inside ${inside}, which is being scanned: choose another --cache-dir, or --no-cache`,
    );
  const { ScanCache } = await import('../store/scan-cache.js');
  return ScanCache.open(dir);
}

/** The report in the chosen format; each renderer loads only when its format is asked for. */
async function render(
  results: SkillScanResult[],
  flags: ScanFlags,
  markdown: () => Promise<string>,
  packs: readonly RulePack[],
  exitCode: number,
): Promise<string> {
  if (flags.format === 'md') return markdown();
  if (flags.format === 'json') {
    const { toScanJson } = await import('../report/index.js');
    return `${JSON.stringify(toScanJson(results), null, 2)}\n`;
  }
  if (flags.format === 'sarif') {
    const [{ toSarif }, { ALL_DETECTORS }] = await Promise.all([
      import('../report/index.js'),
      import('../scan/index.js'),
    ]);
    const rules = [...ALL_DETECTORS.flatMap((d) => d.rules), ...packs.flatMap((p) => p.rules)];
    return `${JSON.stringify(toSarif(results, rules, exitCode), null, 2)}\n`;
  }
  const { renderScanText, colorsFor } = await import('../report/index.js');
  return renderScanText(results, colorsFor(flags.out ? null : process.stdout));
}

interface Selection {
  sources: string[];
  /** What was selected, for the Markdown summary; absent for a plain scan. */
  scope?: string;
}

/** The sources to scan: as given, or the skills a change touched (--changed-since, --skills-of). */
async function selectSources(sources: string[], flags: ScanFlags): Promise<Selection> {
  const mode = flags.changedSince !== undefined ? '--changed-since' : flags.skillsOf ? '--skills-of' : null;
  if (flags.includeUncommitted && mode !== '--changed-since')
    throw new UserError('USAGE', '--include-uncommitted only goes with --changed-since');
  if (mode === null) {
    if (sources.length === 0) {
      throw new UserError(
        'USAGE',
        'scan needs a source (a skill, a folder of skills, an archive or a git repository), --changed-since or --skills-of',
      );
    }
    return { sources };
  }
  if (flags.changedSince !== undefined && flags.skillsOf)
    throw new UserError('USAGE', 'use --changed-since or --skills-of, not both');
  // pre-commit appends the file names after any args, so with --skills-of every source is a file name.
  if (mode === '--changed-since' && sources.length > 1)
    throw new UserError(
      'USAGE',
      `with --changed-since, give at most one folder (the repository), not ${sources.length}`,
    );
  // A baseline written from some skills would drop the accepted findings of all the others.
  if (flags.writeBaseline) throw new UserError('USAGE', `--write-baseline needs a full scan, not ${mode}`);
  const repoDir = flags.skillsOf ? '.' : (sources[0] ?? '.');
  const { changedPathsSince, rootSource, skillRootsOf } = await import('../intake/index.js');
  const changed = flags.changedSince
    ? await changedPathsSince(repoDir, flags.changedSince, { uncommitted: flags.includeUncommitted === true })
    : { paths: sources, warnings: [] };
  const found = skillRootsOf(repoDir, changed.paths);
  for (const warning of [...changed.warnings, ...found.warnings])
    process.stderr.write(`skillaudit: warning: ${warning}\n`);
  const since = flags.changedSince ? ` since ${flags.changedSince}` : '';
  const n = changed.paths.length;
  const files = n === 0 ? 'no file changed' : `${n} changed file${n === 1 ? '' : 's'}`;
  if (found.roots.length === 0) {
    const why = n === 0 ? files : `${files}, none in a skill`;
    process.stderr.write(`skillaudit: no skill changed${since} (${why}); nothing to scan\n`);
  }
  return {
    sources: found.roots.map((root) => rootSource(repoDir, root)),
    scope: `${found.roots.length} skill${found.roots.length === 1 ? '' : 's'} changed${since} (${files})`,
  };
}

/** Runs the model review over each scanned skill and rescores it; what could not be reviewed becomes a note. */
async function reviewResults(results: SkillScanResult[], flags: Record<string, unknown>): Promise<void> {
  const [{ resolveModelSettings, createModelClient }, { reviewFindings }, { assessSafety }] =
    await Promise.all([import('../model/index.js'), import('../scan/index.js'), import('../score/index.js')]);
  const settings = resolveModelSettings(modelFlags(flags));
  if (!settings)
    throw new UserError('USAGE', '--model needs a provider/name, e.g. anthropic/claude-sonnet-4-6');
  const client = createModelClient(settings);
  try {
    for (const r of results) {
      if (!r.skill || !r.scan) continue;
      const reviewed = await reviewFindings(r.skill, r.scan.findings, client);
      const active = reviewed.findings.filter((f) => !f.suppressed);
      r.scan.findings = reviewed.findings;
      const { score, status, decision } = assessSafety(active);
      r.scan.safetyScore = score;
      r.scan.status = status;
      r.scan.decision = decision;
      if (reviewed.notRun) r.scan.notes.push(reviewed.notRun);
    }
  } finally {
    client.close();
  }
}
