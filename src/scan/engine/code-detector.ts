// Builds code detectors: each applies to files with a bundled grammar, analyses the text once (shared,
// cached CodeModel) and hands the model to a pure rule function.

import type { Rule } from '../../core/rule.js';
import { analyseCode } from '../code/analyse.js';
import { dedupe } from '../code/hits.js';
import type { CodeModel } from '../code/model.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { codeLanguage } from '../treesitter.js';

export type CodeRuleFn = (ctx: FileContext, model: CodeModel) => Hit[];

export function codeDetector(name: string, rules: readonly Rule[], apply: CodeRuleFn): Detector {
  return {
    name,
    rules,
    appliesTo: (file) => file.text !== null && codeLanguage(file.language) !== null,
    async detect(ctx) {
      const model = await analyseCode(ctx.file.language ?? '', ctx.text);
      if (!model) return [];
      return dedupe(apply(ctx, model));
    },
  };
}
