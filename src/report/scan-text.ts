import { reveal } from '../core/format.js';
import { patternById, SEVERITY_RANK } from '../core/taxonomy.js';
import type { Finding, SafetyStatus } from '../core/types.js';
import { STATUS_LABEL } from '../core/verdict-words.js';
import type { SkillScanResult } from '../scan/index.js';
import { statusReason } from '../score/index.js';
import type { Colors } from './colors.js';

// Human-readable scan output: one block per skill, findings by severity with quoted evidence. Names, paths,
// evidence and notes come from the skill: each passes through `reveal` (terminal escapes, bidi and invisible
// characters shown as text) before colour, with or without NO_COLOR.

function statusLabel(status: SafetyStatus, c: Colors): string {
  const word = STATUS_LABEL[status].toUpperCase();
  if (status === 'risky') return c.bold(c.red(word));
  if (status === 'caution') return c.bold(c.yellow(word));
  return c.bold(c.green(word));
}

function severityLabel(f: Finding, c: Colors): string {
  const label = f.severity.toUpperCase().padEnd(6);
  return f.severity === 'high' ? c.red(label) : f.severity === 'medium' ? c.yellow(label) : c.dim(label);
}

function renderFinding(f: Finding, c: Colors): string[] {
  const file = reveal(f.file);
  const where = f.line === f.endLine ? `${file}:${f.line}` : `${file}:${f.line}-${f.endLine}`;
  const lines = [
    `  ${severityLabel(f, c)} ${c.bold(`${f.pattern} ${patternById(f.pattern).name}`)}  ${c.cyan(where)}  ${c.dim(`confidence ${f.confidence.toFixed(2)}  [${f.rule}]`)}`,
    `         ${reveal(f.message)}`,
  ];
  for (const e of f.evidence.split('\n').slice(0, 4)) lines.push(`         ${c.dim('│')} ${reveal(e)}`);
  if (f.rationale) lines.push(`         ${c.dim(`why: ${reveal(f.rationale)}`)}`);
  return lines;
}

export function renderScanText(results: readonly SkillScanResult[], c: Colors): string {
  const out: string[] = [];
  const counts = { pass: 0, caution: 0, risky: 0, error: 0 };
  for (const r of results) {
    if (r.error || !r.scan) {
      counts.error++;
      out.push(
        `${c.bold(reveal(r.path))}  ${c.red('ERROR')}  ${reveal(r.error?.message ?? 'not scanned')}`,
        '',
      );
      continue;
    }
    const { scan } = r;
    counts[scan.status]++;
    const active = scan.findings.filter((f) => !f.suppressed);
    const bySeverity = (s: Finding['severity']) => active.filter((f) => f.severity === s).length;
    out.push(
      `${c.bold(reveal(r.path))}${r.name ? c.dim(` (${reveal(r.name)})`) : ''}  ${statusLabel(scan.status, c)}  safety ${scan.decision.rating}/100  ` +
        c.dim(`${bySeverity('high')} high, ${bySeverity('medium')} medium, ${bySeverity('low')} low`),
    );
    if (scan.status !== 'pass') out.push(`  ${c.dim(statusReason(scan.decision))}`);
    // Notes say what the scan could not do (parts unread, a frontmatter it could not parse): read before findings.
    for (const note of scan.notes) out.push(`  ${c.yellow(`note: ${reveal(note)}`)}`);
    const sorted = [...active].sort(
      (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.confidence - a.confidence,
    );
    for (const f of sorted) out.push(...renderFinding(f, c));
    for (const f of scan.findings.filter((x) => x.suppressed)) {
      out.push(
        `  ${c.dim(`suppressed (${f.suppressed!.by}): ${f.pattern} ${reveal(f.file)}:${f.line} — ${reveal(f.suppressed!.reason)}`)}`,
      );
    }
    out.push('');
  }
  const total = results.length;
  out.push(
    `${total} skill${total === 1 ? '' : 's'}: ${counts.pass} pass, ${counts.caution} caution, ${counts.risky} risky` +
      (counts.error ? `, ${counts.error} failed to load` : ''),
  );
  return `${out.join('\n')}\n`;
}
