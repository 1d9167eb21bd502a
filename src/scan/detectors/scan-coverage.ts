import type { Skill } from '../../core/types.js';
import { builtinRule } from '../engine/rule-pack.js';
import type { Detector, FileContext, Hit } from '../rule.js';
import { agentReadDocs, reachableScripts } from '../skill-context.js';

// SC3 for a skill the scan could not read whole: intake stopped at a limit (file count, depth, total size) or
// a script or a document the agent follows was cut at the per-file read limit. Padding past a scanner's limits
// is a way to hide a payload, so the gap is a finding (the decision makes it at least caution), not a note.
// Data files and unnamed documents cut short are only noted: their tail is not code the agent runs.

export const INCOMPLETE_RULE = builtinRule('scan.incomplete-analysis');

/** What of the skill went unread, one phrase each (empty when it was read whole). */
export function unreadParts(skill: Skill): string[] {
  const parts = skill.diagnostics.filter((d) => d.code.startsWith('limit-')).map((d) => d.message);
  const scripts = reachableScripts(skill);
  const docs = agentReadDocs(skill);
  for (const f of skill.files) {
    if (!f.truncated || f.text === null) continue;
    if (f.kind === 'script' || scripts.has(f.path) || docs.has(f.path))
      parts.push(`${f.path}: only the first ${f.text.length} characters were read`);
  }
  return parts;
}

function detectCoverage(ctx: FileContext): Hit[] {
  const parts = unreadParts(ctx.skill);
  if (!parts.length) return [];
  // Reported on SKILL.md's first line of text: the gap belongs to the whole skill.
  const line = ctx.text.split('\n').findIndex((l) => l.trim() !== '') + 1 || 1;
  return [
    {
      rule: INCOMPLETE_RULE.id,
      line,
      endLine: line,
      evidence: parts.slice(0, 3).join('; ') + (parts.length > 3 ? `; and ${parts.length - 3} more` : ''),
      confidence: 0.6,
      rationale: 'the scan did not read the whole skill',
    },
  ];
}

export const scanCoverageDetector: Detector = {
  name: 'scan-coverage',
  rules: [INCOMPLETE_RULE],
  appliesTo: (file) => file.path === 'SKILL.md',
  detect: detectCoverage,
};
