// Builds code detectors: each applies to files with a bundled grammar, analyses the text once (shared,
// cached CodeModel) and hands the model to a pure rule function. Detectors of flows also read the file as part
// of its program (the skill's own modules it imports or is imported by), so a flow split across modules is
// found as it would be in one file.

import type { Rule } from '../../core/rule.js';
import type { Skill } from '../../core/types.js';
import { analyseCode } from '../code/analyse.js';
import { clamp, dedupe, isTestPath, TEST_NOTE, TEST_WEIGHT } from '../code/hits.js';
import type { CodeModel } from '../code/model.js';
import { type Program, programOf, sourceLine } from '../code/program.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { reachableScripts } from '../skill-context.js';
import { quote, restateLines } from '../text.js';
import { codeLanguage } from '../treesitter.js';

export type CodeRuleFn = (ctx: FileContext, model: CodeModel) => Hit[];

export function codeDetector(
  name: string,
  rules: readonly Rule[],
  apply: CodeRuleFn,
  options: { acrossModules?: boolean } = {},
): Detector {
  return {
    name,
    rules,
    appliesTo: (file) => file.text !== null && codeLanguage(file.language) !== null,
    async detect(ctx) {
      const model = await analyseCode(ctx.file.language ?? '', ctx.text);
      if (!model) return [];
      const hits = apply(ctx, model);
      if (options.acrossModules) hits.push(...(await programHits(ctx, name, apply)));
      return dedupe(hits);
    },
  };
}

// A program's hits, per detector, computed once and shared by every file of the program. Keyed by the skill as
// well as the model: models are shared by text across skills, and the hits depend on the skill (the hosts it
// names, which scripts it runs).
const programCache = new WeakMap<Skill, WeakMap<CodeModel, Map<string, Hit[]>>>();

/** The detector's hits over the whole program, as if it were one file the skill runs when any of it is run. */
function wholeProgramHits(
  ctx: FileContext,
  detector: string,
  apply: CodeRuleFn,
  program: Program,
  model: CodeModel,
): Hit[] {
  let bySkill = programCache.get(ctx.skill);
  if (!bySkill) {
    bySkill = new WeakMap();
    programCache.set(ctx.skill, bySkill);
  }
  let byDetector = bySkill.get(model);
  if (!byDetector) {
    byDetector = new Map();
    bySkill.set(model, byDetector);
  }
  let hits = byDetector.get(detector);
  if (!hits) {
    const runs = reachableScripts(ctx.skill);
    const reachable = program.segments.some((s) => runs.has(s.path));
    const file = { ...ctx.file, path: 'program' };
    const fileOf = (line: number) => sourceLine(program, line)?.path ?? null;
    hits = apply({ ...ctx, file, text: program.text, reachable, fileOf }, model);
    byDetector.set(detector, hits);
  }
  return hits;
}

/** Hits of the file's whole program that end in this file, with lines and line references mapped back. */
async function programHits(ctx: FileContext, detector: string, apply: CodeRuleFn): Promise<Hit[]> {
  const program = programOf(ctx.skill, ctx.file.path);
  if (!program) return [];
  const model = await analyseCode(program.language, program.text, program.scope);
  const own = program.segments.find((s) => s.path === ctx.file.path);
  if (!model || !own) return [];
  // Code in tests and examples ships with the skill but is not what it runs (as contextConfidence weighs it).
  const test = isTestPath(ctx.file.path);
  const out: Hit[] = [];
  for (const h of wholeProgramHits(ctx, detector, apply, program, model)) {
    const end = sourceLine(program, h.endLine);
    if (end?.path !== ctx.file.path) continue;
    const start = sourceLine(program, h.line);
    const hit: Hit = {
      ...h,
      line: end.line,
      endLine: end.line,
      rationale: mapLineRefs(program, ctx.file.path, h.rationale),
    };
    if (start?.path === ctx.file.path) hit.line = start.line;
    else {
      // The flow starts in another module: quote the call that ends it here.
      const call = model.calls.find((c) => c.endLine === h.endLine && c.line > own.offset);
      if (call) {
        hit.line = call.line - own.offset;
        hit.evidence = quote(call.text, 300);
      }
    }
    if (h.message) hit.message = mapLineRefs(program, ctx.file.path, h.message);
    if (test) {
      hit.confidence = clamp(hit.confidence * TEST_WEIGHT);
      hit.rationale += `; ${TEST_NOTE}`;
    }
    out.push(hit);
  }
  return out;
}

/** "line 48" of the program text → "line 8" in this file, "collector.py line 8" in another. */
function mapLineRefs(program: Program, path: string, text: string): string {
  return restateLines(text, (n) => {
    const at = sourceLine(program, n);
    if (!at) return null;
    return at.path === path ? `line ${at.line}` : `${at.path} line ${at.line}`;
  });
}
