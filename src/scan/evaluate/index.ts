import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printable } from '../../core/format.js';
import { PATTERNS } from '../../core/taxonomy.js';
import type { Family, Finding, PatternId, Severity } from '../../core/types.js';
import { errorMessage, UserError } from '../../util/errors.js';

// Scanner validation against a labeled set (seed 000 section 5.2, Tables 4 and A4). Everything here is pure
// except `loadLabelSet`, which reads one JSON file.
//
// Undefined ratios: precision is undefined when the scanner reported nothing (#P = 0), recall when there is
// no ground truth (#G = 0), F1 when either is undefined. They are `null` in JSON and "—" in text, never 0 or
// 100, so an empty row cannot pass for a perfect or a failed one.

/** How far (in lines) outside a label's range a finding may start and still match it. */
export const LINE_TOLERANCE = 2;

export interface Label {
  pattern: PatternId;
  /** Path relative to the skill root, forward slashes. */
  file: string;
  /** 1-based inclusive range in the file's own numbering (SKILL.md counts its frontmatter). */
  line: number;
  endLine: number;
  note?: string;
}

export interface LabelSet {
  version: 1;
  /** Skill folder (relative to the set directory) → its labels; `[]` marks a clean skill. */
  skills: Record<string, Label[]>;
}

export interface Counts {
  gold: number;
  predicted: number;
  tp: number;
  fp: number;
  fn: number;
  /** Ratios in [0, 1]; null when undefined (see the note at the top of this file). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/** A Table 4 row: Overall, then one per severity. */
export interface Row extends Counts {
  name: 'Overall' | 'High' | 'Medium' | 'Low';
}

/** A Table A4 row: one per pattern, in taxonomy order. */
export interface PatternRow extends Counts {
  id: PatternId;
  pattern: string;
  family: Family;
  severity: Severity;
}

export interface Miss {
  skill: string;
  label: Label;
}

export interface FalseAlarm {
  skill: string;
  finding: Pick<Finding, 'pattern' | 'file' | 'line' | 'endLine' | 'evidence' | 'rule' | 'confidence'>;
}

export interface EvalResult {
  skills: number;
  /** Findings that a baseline or inline comment accepted: listed, not counted. */
  suppressed: number;
  /** Labeled skills with no scan result: their labels all count as misses. */
  unscanned: string[];
  table4: Row[];
  tableA4: PatternRow[];
  misses: Miss[];
  falseAlarms: FalseAlarm[];
}

export interface MatchResult {
  matched: { label: Label; finding: Finding }[];
  missed: Label[];
  spurious: Finding[];
  suppressed: Finding[];
}

const PATTERN_IDS = new Set<string>(PATTERNS.map((p) => p.id));

// ---------------------------------------------------------------------------------------------------------
// Loading and validation

/** Reads `<dir>/labels.json` and validates it; every problem is a UserError that names the offending entry. */
export function loadLabelSet(dir: string): LabelSet {
  const path = join(dir, 'labels.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError('NOT_FOUND', `cannot read label file ${path}: ${errorMessage(error)}`, path);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError('UNREADABLE', `${path} is not valid JSON: ${errorMessage(error)}`, path);
  }
  return parseLabelSet(raw, path);
}

/** Validates parsed JSON as a LabelSet; `source` names the file in error messages. */
export function parseLabelSet(raw: unknown, source: string): LabelSet {
  const fail = (where: string, problem: string): never => {
    throw new UserError('UNREADABLE', `${source}: ${where}: ${problem}`, source);
  };
  if (!isRecord(raw)) return fail('top level', 'expected an object {"version": 1, "skills": {...}}');
  if (raw.version !== 1) return fail('version', `expected 1, got ${JSON.stringify(raw.version)}`);
  if (!isRecord(raw.skills)) return fail('skills', 'expected an object mapping skill folders to label lists');
  const skills: Record<string, Label[]> = {};
  for (const [folder, list] of Object.entries(raw.skills)) {
    const at = `skills[${JSON.stringify(folder)}]`;
    if (!isSafeRelativePath(folder)) fail(at, 'folder must be a relative path inside the set');
    if (!Array.isArray(list)) return fail(at, 'expected a list of labels ([] for a clean skill)');
    skills[folder] = list.map((entry, i) => parseLabel(entry, `${at}[${i}]`, fail));
  }
  return { version: 1, skills };
}

function parseLabel(entry: unknown, at: string, fail: (where: string, problem: string) => never): Label {
  if (!isRecord(entry)) return fail(at, 'expected an object');
  const { pattern, file, line, endLine, note } = entry;
  if (typeof pattern !== 'string' || !PATTERN_IDS.has(pattern)) {
    fail(`${at}.pattern`, `unknown pattern ${JSON.stringify(pattern)} (expected one of P1…R5)`);
  }
  if (typeof file !== 'string' || !isSafeRelativePath(file)) {
    fail(`${at}.file`, 'expected a path relative to the skill root');
  }
  if (!isPositiveInt(line)) fail(`${at}.line`, 'expected an integer >= 1');
  if (!isPositiveInt(endLine) || (endLine as number) < (line as number)) {
    fail(`${at}.endLine`, 'expected an integer >= line');
  }
  if (note !== undefined && typeof note !== 'string') fail(`${at}.note`, 'expected a string');
  const label: Label = {
    pattern: pattern as PatternId,
    file: normalisePath(file as string),
    line: line as number,
    endLine: endLine as number,
  };
  if (typeof note === 'string') label.note = note;
  return label;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPositiveInt(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

function isSafeRelativePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) return false;
  return !path.split('/').some((part) => part === '..' || part === '');
}

function normalisePath(path: string): string {
  return path.replace(/^(\.\/)+/, '');
}

// ---------------------------------------------------------------------------------------------------------
// Matching

/**
 * Pairs labels with findings of one skill. A pair qualifies when pattern and file are equal and the finding's
 * start line lies within [label.line − 2, label.endLine + 2]. Pairs are taken greedily, closest first (0 when
 * the line is inside the range), so each label and each finding is used at most once. Suppressed findings
 * are set aside and never match.
 */
export function matchFindings(labels: readonly Label[], findings: readonly Finding[]): MatchResult {
  const active = findings.filter((f) => !f.suppressed);
  const candidates: { li: number; fi: number; distance: number }[] = [];
  labels.forEach((label, li) => {
    active.forEach((finding, fi) => {
      if (finding.pattern !== label.pattern || normalisePath(finding.file) !== label.file) return;
      const distance = Math.max(label.line - finding.line, finding.line - label.endLine, 0);
      if (distance <= LINE_TOLERANCE) candidates.push({ li, fi, distance });
    });
  });
  // Stable order: distance, then label order, then finding order, so results never depend on sort internals.
  candidates.sort((a, b) => a.distance - b.distance || a.li - b.li || a.fi - b.fi);
  const labelUsed = new Set<number>();
  const findingUsed = new Set<number>();
  const matched: MatchResult['matched'] = [];
  for (const { li, fi } of candidates) {
    if (labelUsed.has(li) || findingUsed.has(fi)) continue;
    labelUsed.add(li);
    findingUsed.add(fi);
    matched.push({ label: labels[li]!, finding: active[fi]! });
  }
  return {
    matched,
    missed: labels.filter((_, i) => !labelUsed.has(i)),
    spurious: active.filter((_, i) => !findingUsed.has(i)),
    suppressed: findings.filter((f) => f.suppressed),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Tables

/** Scores every labeled skill; a skill missing from `findingsBySkill` was not scanned and misses everything. */
export function evaluate(labels: LabelSet, findingsBySkill: Record<string, Finding[]>): EvalResult {
  const tally = new Map<PatternId, { gold: number; predicted: number; tp: number }>(
    PATTERNS.map((p) => [p.id, { gold: 0, predicted: 0, tp: 0 }]),
  );
  const misses: Miss[] = [];
  const falseAlarms: FalseAlarm[] = [];
  const unscanned: string[] = [];
  let suppressed = 0;
  for (const [skill, skillLabels] of Object.entries(labels.skills)) {
    const findings = Object.hasOwn(findingsBySkill, skill) ? findingsBySkill[skill] : undefined;
    if (findings === undefined) unscanned.push(skill);
    const result = matchFindings(skillLabels, findings ?? []);
    suppressed += result.suppressed.length;
    for (const label of skillLabels) tally.get(label.pattern)!.gold++;
    for (const { label } of result.matched) tally.get(label.pattern)!.tp++;
    for (const finding of findings ?? []) {
      if (!finding.suppressed) tally.get(finding.pattern)!.predicted++;
    }
    for (const label of result.missed) misses.push({ skill, label });
    for (const f of result.spurious) {
      const { pattern, file, line, endLine, evidence, rule, confidence } = f;
      falseAlarms.push({ skill, finding: { pattern, file, line, endLine, evidence, rule, confidence } });
    }
  }
  const tableA4: PatternRow[] = PATTERNS.map((p) => {
    const t = tally.get(p.id)!;
    return { id: p.id, pattern: p.name, family: p.family, severity: p.severity, ...counts(t) };
  });
  const sum = (rows: PatternRow[]) =>
    counts({
      gold: rows.reduce((n, r) => n + r.gold, 0),
      predicted: rows.reduce((n, r) => n + r.predicted, 0),
      tp: rows.reduce((n, r) => n + r.tp, 0),
    });
  const bySeverity = (severity: Severity) => sum(tableA4.filter((r) => r.severity === severity));
  const table4: Row[] = [
    { name: 'Overall', ...sum(tableA4) },
    { name: 'High', ...bySeverity('high') },
    { name: 'Medium', ...bySeverity('medium') },
    { name: 'Low', ...bySeverity('low') },
  ];
  return {
    skills: Object.keys(labels.skills).length,
    suppressed,
    unscanned,
    table4,
    tableA4,
    misses,
    falseAlarms,
  };
}

function counts({ gold, predicted, tp }: { gold: number; predicted: number; tp: number }): Counts {
  const precision = predicted === 0 ? null : tp / predicted;
  const recall = gold === 0 ? null : tp / gold;
  let f1: number | null = null;
  if (precision !== null && recall !== null) {
    f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  }
  return { gold, predicted, tp, fp: predicted - tp, fn: gold - tp, precision, recall, f1 };
}

// ---------------------------------------------------------------------------------------------------------
// Text rendering

const FAMILY_TITLES: Record<Family, string> = {
  prompt_injection: 'Prompt Injection',
  data_exfiltration: 'Data Exfiltration',
  privilege_escalation: 'Privilege Escalation',
  supply_chain: 'Supply Chain',
  robustness: 'Robustness',
};

const SEVERITY_LETTER: Record<Severity, string> = { high: 'H', medium: 'M', low: 'L' };

/** Seed 000 Tables 4 and A4 as aligned text; `verbose` adds every miss and false alarm per skill. */
export function renderEvalText(r: EvalResult, verbose: boolean): string {
  const out: string[] = [];
  const gold = r.table4[0]?.gold ?? 0;
  out.push(`Scanner validation: ${r.skills} skills, ${gold} labeled findings (match: same pattern and file,`);
  out.push(
    `line within the labeled range ±${LINE_TOLERANCE}); ${r.suppressed} suppressed findings not counted.`,
  );
  if (r.unscanned.length > 0) {
    out.push(`Not scanned (their labels count as misses): ${r.unscanned.map(printable).join(', ')}`);
  }
  out.push('', 'Table 4: detection by severity');
  out.push(
    ...alignColumns([['', ...COUNT_HEADERS], ...r.table4.map((row) => [row.name, ...countCells(row)])]),
  );
  out.push('', 'Table A4: detection by pattern');
  const rows: string[][] = [['ID', 'Pattern', 'Sev', ...COUNT_HEADERS]];
  const groupStarts = new Map<number, string>();
  let family: Family | null = null;
  for (const row of r.tableA4) {
    if (row.family !== family) {
      family = row.family;
      groupStarts.set(rows.length, FAMILY_TITLES[family]);
    }
    rows.push([row.id, row.pattern, SEVERITY_LETTER[row.severity], ...countCells(row)]);
  }
  alignColumns(rows).forEach((line, i) => {
    const title = groupStarts.get(i);
    if (title !== undefined) out.push(title);
    out.push(line);
  });
  out.push('', 'P, R and F1 in %; "—" where undefined (no findings reported, or none labeled).');
  if (verbose) out.push('', ...renderErrors(r));
  return `${out.join('\n')}\n`;
}

const COUNT_HEADERS = ['#G', '#P', 'TP', 'FP', 'FN', 'P (%)', 'R (%)', 'F1 (%)'];

function countCells(c: Counts): string[] {
  return [c.gold, c.predicted, c.tp, c.fp, c.fn]
    .map(String)
    .concat([c.precision, c.recall, c.f1].map(percent));
}

function percent(ratio: number | null): string {
  return ratio === null ? '—' : (ratio * 100).toFixed(1);
}

/** Left-aligns text columns and right-aligns numeric ones so the figures line up. */
function alignColumns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const numeric = widths.map((_, i) => rows.slice(1).every((row) => /^(-?[\d.]+|—)?$/.test(row[i] ?? '')));
  return rows.map((row) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function renderErrors(r: EvalResult): string[] {
  const bySkill = new Map<string, string[]>();
  const add = (skill: string, line: string) => {
    const list = bySkill.get(skill) ?? [];
    list.push(line);
    bySkill.set(skill, list);
  };
  for (const { skill, label } of r.misses) {
    const range = label.endLine > label.line ? `${label.line}-${label.endLine}` : String(label.line);
    add(skill, `  FN  ${printable(label.file)}:${range}  ${label.pattern}  ${printable(label.note ?? '')}`);
  }
  for (const { skill, finding: f } of r.falseAlarms) {
    const evidence = printable(f.evidence.split(/\r?\n/, 1)[0] ?? '').slice(0, 100);
    add(skill, `  FP  ${printable(f.file)}:${f.line}  ${f.pattern}  ${evidence}  [${printable(f.rule)}]`);
  }
  if (bySkill.size === 0) return ['No misses and no false alarms.'];
  const out = ['Misses (FN) and false alarms (FP) by skill:'];
  for (const skill of [...bySkill.keys()].sort()) {
    out.push(printable(skill), ...bySkill.get(skill)!.map((line) => line.trimEnd()));
  }
  return out;
}

export { TRANSFORMATIONS, type Transformation } from './evasion.js';
// The evasion suite (eval/evasion/README.md) lives beside the scanner's own evaluation.
export { type EvasionReport, type EvasionRow, type EvasionSubject, runEvasion } from './evasion-run.js';
