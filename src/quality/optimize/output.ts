import { constants, existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Skill } from '../../core/types.js';
import { isInside } from '../../intake/index.js';
import { UserError } from '../../util/errors.js';
import { unifiedDiff } from '../../util/line-diff.js';
import type { OptimizeResult, Version } from './optimize.js';

// The output folder: <out>/<skill folder>/ (the optimised skill: SKILL.md rewritten, every other file copied
// byte for byte), <out>/optimize.diff and <out>/optimize.json. The input is never written: the output may not
// overlap it, and files are created exclusively.

export const DIFF_FILE = 'optimize.diff';
export const REPORT_FILE = 'optimize.json';

/** The path with every existing ancestor resolved through symlinks, so `out/../x` and links compare right. */
function realish(path: string): string {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realish(parent), basename(abs));
}

/**
 * Refuses an --out that equals, lies inside or contains the input (the source as given and the skill folder
 * intake read), that is not a folder, or that is a non-empty folder without `force`.
 */
export function checkOutDir(out: string, inputs: readonly string[], force: boolean): string {
  const target = realish(out);
  for (const input of inputs.filter((p) => existsSync(p)).map(realish)) {
    if (isInside(input, target) || isInside(target, input))
      throw new UserError('USAGE', `--out ${out} overlaps the input ${input}; choose a folder outside it`);
  }
  if (existsSync(target)) {
    if (!statSync(target).isDirectory())
      throw new UserError('USAGE', `--out ${out} exists and is not a folder`);
    if (readdirSync(target).length > 0 && !force)
      throw new UserError('USAGE', `--out ${out} is not empty; pass --force to write into it`);
  }
  return target;
}

/** Copies every regular file intake listed; links and special files are left out (intake never follows them). */
async function copySkill(skill: Skill, dest: string, skillMd: string | null): Promise<string[]> {
  const skipped = skill.links.map((l) => `${l.path} (symbolic link, not copied)`);
  await mkdir(dest, { recursive: true });
  for (const file of skill.files) {
    const to = join(dest, file.path);
    if (!isInside(dest, to)) throw new Error(`refusing to write outside the output: ${file.path}`);
    await mkdir(dirname(to), { recursive: true });
    if (file.path === 'SKILL.md' && skillMd !== null) {
      await writeFile(to, skillMd, { flag: 'wx' });
      continue;
    }
    const from = join(skill.root, file.path);
    const info = lstatSync(from, { throwIfNoEntry: false });
    if (!info?.isFile()) {
      skipped.push(`${file.path} (no longer a regular file)`);
      continue;
    }
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
  return skipped;
}

function summary(v: Version) {
  return {
    scores: v.scores,
    safety: { status: v.scan.status, score: v.scan.safetyScore, findings: v.scan.findings.length },
  };
}

/** The optimize.json document (the skill text stays in the folder and the diff, not here). */
function reportDocument(result: OptimizeResult, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    version: 1,
    skill: { name: result.original.skill.name, folder: result.original.skill.folderName },
    ...extra,
    dimensionsUsed: result.dimensionsUsed,
    dimensionsNotRun: result.dimensionsNotRun,
    before: summary(result.original),
    after: summary(result.best),
    improved: result.bestRound > 0,
    bestRound: result.bestRound,
    targets: result.targets,
    rounds: result.candidates,
    stopped: result.stopped,
    usage: result.usage,
  };
}

/** Writes the folder, the diff and optimize.json; returns the folder and the report written. */
export async function writeOutput(
  out: string,
  result: OptimizeResult,
  force: boolean,
  extra: Record<string, unknown>,
): Promise<{ skillDir: string; report: Record<string, unknown> }> {
  const folder = result.original.skill.folderName;
  const skillDir = join(out, folder);
  if (force) {
    // Only what a previous run wrote is replaced; anything else in the folder is left alone.
    for (const name of [folder, DIFF_FILE, REPORT_FILE])
      await rm(join(out, name), { recursive: true, force: true });
  }
  // A kept original is copied byte for byte like every other file (BOM, line endings and all).
  const rewritten = result.bestRound > 0 ? result.best.text : null;
  const skipped = await copySkill(result.original.skill, skillDir, rewritten);
  const diff = unifiedDiff(
    result.original.text,
    result.best.text,
    `a/${folder}/SKILL.md`,
    `b/${folder}/SKILL.md`,
  );
  await writeFile(join(out, DIFF_FILE), diff);
  const report = { ...reportDocument(result, extra), notCopied: skipped };
  await writeFile(join(out, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
  return { skillDir, report };
}
