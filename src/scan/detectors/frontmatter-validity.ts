import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';

// A SKILL.md whose frontmatter the spec's loader cannot read: not valid YAML, never closed, missing, or without
// the name and description an agent needs to load the skill. Intake already knows (its diagnostics); without a
// finding the scan said Pass and nothing else. Spec conformance, not a risk feature: it never moves the status.

export const INVALID_FRONTMATTER_RULE = builtinRule('fm.invalid-frontmatter');

const FRONTMATTER_ERRORS = /^(frontmatter-|name-missing$|description-missing$)/;

function detectInvalid(ctx: FileContext): Hit[] {
  const lines = ctx.text.split('\n');
  return ctx.skill.diagnostics
    .filter(
      (d) => d.level === 'error' && FRONTMATTER_ERRORS.test(d.code) && (d.file ?? 'SKILL.md') === 'SKILL.md',
    )
    .map((d) => {
      const line = Math.min(Math.max(d.line ?? 1, 1), Math.max(lines.length, 1));
      return {
        rule: INVALID_FRONTMATTER_RULE.id,
        line,
        endLine: line,
        evidence: (lines[line - 1] ?? '').slice(0, 200),
        confidence: 1,
        rationale: d.message,
      };
    });
}

export const frontmatterValidityDetector: Detector = {
  name: 'frontmatter-validity',
  rules: [INVALID_FRONTMATTER_RULE],
  appliesTo: (file) => file.path === 'SKILL.md' && file.kind === 'doc',
  detect: detectInvalid,
};
