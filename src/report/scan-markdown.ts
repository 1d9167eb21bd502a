import { findingLocation } from '../core/format.js';
import { patternById, SEVERITY_RANK } from '../core/taxonomy.js';
import type { Finding } from '../core/types.js';
import { STATUS_ICON, STATUS_LABEL } from '../core/verdict-words.js';
import type { SkillScanResult } from '../scan/index.js';
import { codeSpan, prose, withinLimit } from './markdown.js';

// The scan as compact GitHub-flavoured Markdown for a CI job summary or a PR comment: one row per skill, then
// the most severe findings. Skill paths, names, messages and errors are untrusted and escaped like the audit's
// Markdown; evidence is left to the SARIF and JSON outputs, which carry it in full.

const MAX_SKILLS = 100;
const MAX_FINDINGS = 50;

interface Located {
  skill: string;
  finding: Finding;
}

function skillRow(r: SkillScanResult): string {
  if (r.error || !r.scan) {
    return `| ${codeSpan(r.path)} | ⚠️ not scanned | | | | | ${prose(r.error?.message ?? 'not scanned', 200)} |`;
  }
  const active = r.scan.findings.filter((f) => !f.suppressed);
  const n = (s: Finding['severity']) => active.filter((f) => f.severity === s).length;
  const suppressed = r.scan.findings.length - active.length;
  return (
    `| ${codeSpan(r.path)} | ${STATUS_ICON[r.scan.status]} ${STATUS_LABEL[r.scan.status]} | ${r.scan.decision.rating} ` +
    `| ${n('high')} | ${n('medium')} | ${n('low')} | ${suppressed ? `${suppressed} suppressed` : ''} |`
  );
}

/** `note` is a line under the heading (what was scanned, the gate), escaped like skill text. */
export function renderScanMarkdown(results: readonly SkillScanResult[], note?: string): string {
  const counts = { pass: 0, caution: 0, risky: 0, failed: 0 };
  for (const r of results) counts[r.scan && !r.error ? r.scan.status : 'failed']++;
  const tally = [
    `${STATUS_ICON.risky} ${counts.risky} risky`,
    `${STATUS_ICON.caution} ${counts.caution} caution`,
    `${STATUS_ICON.pass} ${counts.pass} pass`,
    ...(counts.failed ? [`⚠️ ${counts.failed} not scanned`] : []),
  ].join(', ');
  const out = [
    `## SkillAudit scan: ${results.length} skill${results.length === 1 ? '' : 's'} (${tally})`,
    '',
  ];
  if (note) out.push(prose(note, 600), '');
  if (results.length === 0) return `${out.join('\n')}\n`;
  out.push('| skill | status | score | high | medium | low | |', '|---|---|---|---|---|---|---|');
  out.push(...results.slice(0, MAX_SKILLS).map(skillRow));
  if (results.length > MAX_SKILLS) out.push(`| … ${results.length - MAX_SKILLS} more skills | | | | | | |`);
  out.push('');
  const active: Located[] = results.flatMap((r) =>
    (r.scan?.findings ?? []).filter((f) => !f.suppressed).map((finding) => ({ skill: r.path, finding })),
  );
  if (active.length > 0) {
    active.sort(
      (a, b) =>
        SEVERITY_RANK[b.finding.severity] - SEVERITY_RANK[a.finding.severity] ||
        b.finding.confidence - a.finding.confidence,
    );
    out.push(
      `### Findings${active.length > MAX_FINDINGS ? ` (the ${MAX_FINDINGS} most severe of ${active.length})` : ''}`,
      '',
      '| severity | pattern | where | confidence | message |',
      '|---|---|---|---|---|',
    );
    for (const { skill, finding: f } of active.slice(0, MAX_FINDINGS)) {
      out.push(
        `| ${f.severity} | ${f.pattern} ${patternById(f.pattern).name} | ${codeSpan(`${skill}/${findingLocation(f)}`)} ` +
          `| ${f.confidence.toFixed(2)} | ${prose(f.message, 200)} |`,
      );
    }
    out.push('');
  }
  return withinLimit(`${out.join('\n')}\n`);
}
