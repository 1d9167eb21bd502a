import { readFileSync, writeFileSync } from 'node:fs';
import type { Finding, Skill } from '../core/types.js';
import { errorMessage, UserError } from '../util/errors.js';

// Suppression: a baseline file of accepted findings (the user's own decisions, always honoured) and inline
// `skillaudit-ignore: <ID> <reason>` comments. Inline comments are written by the skill's author, so they are
// honoured only when the caller opts in (scanning your own skills); an audit of a stranger's skill lists them
// without honouring them. Suppressed findings stay in the output, marked, and never count toward score or gate.

export interface BaselineEntry {
  /** Skill name; omitted means any skill. */
  skill?: string;
  file: string;
  /** Pattern id (E2) or rule id (code.env-harvest). */
  id: string;
  line?: number;
  evidence?: string;
  reason: string;
}

export interface Baseline {
  version: 1;
  accepted: BaselineEntry[];
}

export function loadBaseline(path: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError('USAGE', `cannot read baseline ${path}: ${errorMessage(error)}`, path);
  }
  const b = raw as Partial<Baseline>;
  if (b?.version !== 1 || !Array.isArray(b.accepted)) {
    throw new UserError('USAGE', `baseline ${path} must be {"version": 1, "accepted": [...]}`, path);
  }
  for (const [i, e] of b.accepted.entries()) {
    if (
      typeof e?.file !== 'string' ||
      typeof e.id !== 'string' ||
      typeof e.reason !== 'string' ||
      !e.reason.trim()
    ) {
      throw new UserError(
        'USAGE',
        `baseline ${path}: entry ${i} needs "file", "id" and a non-empty "reason"`,
        path,
      );
    }
  }
  return b as Baseline;
}

export function writeBaseline(path: string, entries: { skill: string; findings: Finding[] }[]): void {
  const stamp = new Date().toISOString().slice(0, 10);
  const accepted: BaselineEntry[] = entries.flatMap(({ skill, findings }) =>
    findings
      .filter((f) => !f.suppressed)
      .map((f) => ({
        skill,
        file: f.file,
        id: f.pattern,
        line: f.line,
        evidence: f.evidence,
        reason: `accepted in baseline of ${stamp}: replace with why this is acceptable`,
      })),
  );
  writeFileSync(path, `${JSON.stringify({ version: 1, accepted } satisfies Baseline, null, 2)}\n`);
}

const INLINE_RE = /skillaudit-ignore:?[ \t]+([A-Za-z0-9_.-]+)[ \t]+([^\r\n]*?)\s*(?:-->|\*\/)?\s*$/;

function matchesId(id: string, f: Finding): boolean {
  return id === f.pattern || id === f.rule;
}

function inlineSuppression(skill: Skill, f: Finding): { reason: string } | null {
  const text = skill.files.find((file) => file.path === f.file)?.text;
  if (!text) return null;
  const lines = text.split('\n');
  // The comment may sit on the finding's first line or the line just above it.
  for (const n of [f.line, f.line - 1]) {
    const m = INLINE_RE.exec(lines[n - 1] ?? '');
    if (m && matchesId(m[1]!, f) && m[2]!.trim()) return { reason: m[2]!.trim() };
  }
  return null;
}

export interface SuppressOptions {
  baseline?: Baseline;
  honourInline: boolean;
}

/** Marks suppressed findings in place and returns them. */
export function applySuppressions(skill: Skill, findings: Finding[], options: SuppressOptions): Finding[] {
  for (const f of findings) {
    const accepted = options.baseline?.accepted.find(
      (e) =>
        (e.skill === undefined || e.skill === (skill.name || skill.folderName)) &&
        e.file === f.file &&
        matchesId(e.id, f) &&
        (e.evidence === undefined ? e.line === undefined || e.line === f.line : e.evidence === f.evidence),
    );
    if (accepted) {
      f.suppressed = { by: 'baseline', reason: accepted.reason };
      continue;
    }
    if (options.honourInline) {
      const inline = inlineSuppression(skill, f);
      if (inline) f.suppressed = { by: 'inline', reason: inline.reason };
    }
  }
  return findings;
}
