import type { Finding } from '../core/types.js';
import type { SkillScanResult } from '../scan/index.js';
import { explain } from '../score/index.js';

// The scan JSON contract (DESIGN section 9): tools and dashboards parse it, so its keys are fixed.
// A suppressed finding carries `suppressed: {by, reason}`. A scanned skill carries its decision's risk and reasons.

export interface ScanJsonFinding {
  pattern: Finding['pattern'];
  severity: Finding['severity'];
  file: string;
  line: number;
  endLine: number;
  confidence: number;
  evidence: string;
  rule: string;
  message: string;
  suppressed?: Finding['suppressed'];
}

export interface ScanJsonSkill {
  path: string;
  name: string | null;
  status: 'pass' | 'caution' | 'risky' | null;
  /** The headline number beside the status, 0-100 in the status's band (pass 70-100, caution 40-69, risky 0-39). */
  rating: number | null;
  /** The seed's eq. 8 score (100 minus the findings' weighted penalties, floor 10): a detail, not the headline. */
  safetyScore: number | null;
  /** The decision model's risk probability and its reasons in one line (docs/verdicts.md). */
  risk?: number;
  because?: string;
  /** What the scan could not do for this skill (parts unread, a frontmatter it could not parse). */
  notes?: string[];
  error?: string;
  findings: ScanJsonFinding[];
}

export interface ScanJson {
  version: 1;
  skills: ScanJsonSkill[];
}

export function toScanJsonFinding(f: Finding): ScanJsonFinding {
  return {
    pattern: f.pattern,
    severity: f.severity,
    file: f.file,
    line: f.line,
    endLine: f.endLine,
    confidence: f.confidence,
    evidence: f.evidence,
    rule: f.rule,
    message: f.message,
    ...(f.suppressed ? { suppressed: f.suppressed } : {}),
  };
}

export function toScanJson(results: readonly SkillScanResult[]): ScanJson {
  return {
    version: 1,
    skills: results.map((r) => ({
      path: r.path,
      name: r.name,
      status: r.scan?.status ?? null,
      rating: r.scan?.decision.rating ?? null,
      safetyScore: r.scan?.safetyScore ?? null,
      ...(r.scan ? { risk: r.scan.decision.probability, because: explain(r.scan.decision) } : {}),
      ...(r.scan?.notes.length ? { notes: r.scan.notes } : {}),
      ...(r.error ? { error: `${r.error.code}: ${r.error.message}` } : {}),
      findings: (r.scan?.findings ?? []).map(toScanJsonFinding),
    })),
  };
}
