import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { UserError } from '../../util/errors.js';
import { DIMENSIONS } from '../dimensions.js';
import type { DimensionId } from '../types.js';

// Dynamic and rubric scores a marketplace already has (`skillaudit audit` report.json files, `skillaudit quality
// --format json` outputs) imported into a reference set with `reference build --profiles <dir>`. Only a folder
// the user names is read: a report.json shipped inside a skill folder is the skill's own claim about itself and
// is never imported. Static dimensions are always recomputed by the build, so only dynamic and rubric scores
// are taken; anything malformed is skipped with a warning, never trusted.

export interface ImportedProfile {
  file: string;
  /** Content hash (report.json); matched first. */
  skillId: string | null;
  /** Skill name (quality JSON); matched when exactly one corpus skill has it. */
  name: string | null;
  scores: Partial<Record<DimensionId, number>>;
}

export const PROFILE_LIMITS = { maxFiles: 10_000, maxDepth: 8, maxBytes: 32 * 1024 * 1024 } as const;

const dimensionSchema = z.object({ id: z.string(), status: z.string(), score: z.number().nullable() });
const qualitySchema = z.object({ dimensions: z.array(z.unknown()) });
const reportSchema = z.object({
  tool: z.object({ name: z.literal('skillaudit') }),
  skill: z.object({ id: z.string(), name: z.string() }),
  quality: qualitySchema.nullable(),
});
const qualityJsonSchema = z.object({
  version: z.literal(1),
  skills: z.array(z.object({ name: z.string().optional(), quality: qualitySchema.optional() })),
});

const IMPORTABLE: ReadonlySet<string> = new Set(
  DIMENSIONS.filter((d) => d.group !== 'static').map((d) => d.id),
);

function importableScores(dimensions: readonly unknown[]): Partial<Record<DimensionId, number>> {
  const scores: Partial<Record<DimensionId, number>> = {};
  for (const raw of dimensions) {
    const d = dimensionSchema.safeParse(raw);
    if (!d.success || d.data.status !== 'scored' || !IMPORTABLE.has(d.data.id)) continue;
    const score = d.data.score;
    if (score !== null && Number.isFinite(score) && score >= 0 && score <= 1)
      scores[d.data.id as DimensionId] = score;
  }
  return scores;
}

/** The profiles a parsed JSON document holds, or null when it is neither a report nor a quality JSON. */
export function profilesOf(file: string, doc: unknown): ImportedProfile[] | null {
  const report = reportSchema.safeParse(doc);
  if (report.success) {
    const scores = importableScores(report.data.quality?.dimensions ?? []);
    return [{ file, skillId: report.data.skill.id, name: report.data.skill.name, scores }];
  }
  const quality = qualityJsonSchema.safeParse(doc);
  if (quality.success) {
    return quality.data.skills.flatMap((s) =>
      s.name && s.quality
        ? [{ file, skillId: null, name: s.name, scores: importableScores(s.quality.dimensions) }]
        : [],
    );
  }
  return null;
}

function jsonFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      // Symbolic links are never followed: the folder's own files are what was asked for.
      if (entry.isDirectory() && depth < PROFILE_LIMITS.maxDepth) visit(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.json')) out.push(path);
      if (out.length > PROFILE_LIMITS.maxFiles) {
        throw new UserError(
          'LIMIT_EXCEEDED',
          `${root}: more than ${PROFILE_LIMITS.maxFiles} JSON files`,
          root,
        );
      }
    }
  };
  visit(root, 0);
  return out;
}

/** Every profile under `dir`, and a warning per file that could not be used. */
export function readProfiles(dir: string): { profiles: ImportedProfile[]; warnings: string[] } {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(dir);
  } catch {
    throw new UserError('NOT_FOUND', `${dir}: no such folder`, dir);
  }
  if (!info.isDirectory()) throw new UserError('USAGE', `${dir}: --profiles expects a folder`, dir);
  const profiles: ImportedProfile[] = [];
  const warnings: string[] = [];
  for (const path of jsonFiles(dir)) {
    const file = relative(dir, path);
    if (lstatSync(path).size > PROFILE_LIMITS.maxBytes) {
      warnings.push(`${file}: larger than ${PROFILE_LIMITS.maxBytes} bytes; skipped`);
      continue;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      warnings.push(`${file}: not valid JSON; skipped`);
      continue;
    }
    const found = profilesOf(file, doc);
    if (found === null) warnings.push(`${file}: neither a skillaudit report nor a quality JSON; skipped`);
    else profiles.push(...found);
  }
  return { profiles, warnings };
}
