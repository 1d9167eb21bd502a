// Verdict benchmark: does `skillaudit scan` (static, no model) flag reproduced malicious skills `risky` and leave
// realistic benign skills below `risky`? Runs the built CLI once over eval/verdicts/{malicious,benign} and prints
// the confusion matrix (risky vs not), precision, recall, F1, false-positive rate, status counts per class and
// every misclassified skill with its top findings. Target: F1 >= 0.90 at FPR <= 0.10.
// The skills are test data and are only read by the scanner, never executed.
// Run: npx tsx bench/verdicts.ts [build folder with bin/ and dist/, default .]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type Status = 'pass' | 'caution' | 'risky';
type Label = 'malicious' | 'benign';

interface Finding {
  pattern: string;
  severity: 'high' | 'medium' | 'low';
  file: string;
  line: number;
  confidence: number;
  rule: string;
  evidence: string;
  suppressed?: unknown;
}

interface SkillResult {
  path: string;
  name: string | null;
  status: Status | null;
  safetyScore: number | null;
  error?: string;
  findings: Finding[];
}

interface Verdict {
  label: Label;
  skill: SkillResult;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const build = resolve(process.argv[2] ?? '.');
const inputs: Record<Label, string> = {
  malicious: join(root, 'eval/verdicts/malicious'),
  benign: join(root, 'eval/verdicts/benign'),
};

/** One CLI run over both classes; exit 2 (a skill failed to load) still prints JSON for the rest. */
function runScan(): SkillResult[] {
  const r = spawnSync(
    process.execPath,
    [
      join(build, 'bin/skillaudit.js'),
      'scan',
      inputs.malicious,
      inputs.benign,
      '--format',
      'json',
      '--fail-on',
      'none',
      '-q',
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (r.status !== 0 && r.status !== 2) throw new Error(`scan exited ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { version: number; skills: SkillResult[] };
  if (out.version !== 1) throw new Error(`unexpected scan JSON version ${out.version}`);
  return out.skills;
}

/** The class comes from which input folder the skill was found under. */
function labelOf(path: string): Label {
  const abs = resolve(path);
  for (const label of ['malicious', 'benign'] as const) {
    if (abs === inputs[label] || abs.startsWith(inputs[label] + sep)) return label;
  }
  throw new Error(`skill outside both inputs: ${path}`);
}

const pct = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const shortName = (v: Verdict): string =>
  v.skill.path.slice(inputs[v.label].length + 1) || v.skill.name || '?';
const isRisky = (v: Verdict): boolean => v.skill.status === 'risky';
const severityRank = { high: 0, medium: 1, low: 2 } as const;

/** Highest severity first, then highest confidence: what drove (or failed to drive) the verdict. */
function topFindings(skill: SkillResult, n: number): Finding[] {
  return skill.findings
    .filter((f) => !f.suppressed)
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || b.confidence - a.confidence)
    .slice(0, n);
}

function printStatusCounts(verdicts: Verdict[]): void {
  for (const label of ['malicious', 'benign'] as const) {
    const mine = verdicts.filter((v) => v.label === label);
    const count = (s: Status | null): number => mine.filter((v) => v.skill.status === s).length;
    const failed = count(null);
    console.log(
      `${label.padEnd(9)} n=${mine.length}  pass=${count('pass')} caution=${count('caution')} risky=${count('risky')}` +
        (failed ? ` failed=${failed}` : ''),
    );
  }
}

interface Metrics {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
}

/** Confusion counts and rates for any "flagged" predicate (risky, or a score cut-off). */
function metrics(verdicts: Verdict[], flagged: (v: Verdict) => boolean): Metrics {
  const count = (label: Label, hit: boolean): number =>
    verdicts.filter((v) => v.label === label && flagged(v) === hit).length;
  const [tp, fn, fp, tn] = [
    count('malicious', true),
    count('malicious', false),
    count('benign', true),
    count('benign', false),
  ];
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const f1 = tp === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fn, fp, tn, precision, recall, f1, fpr: fp / (fp + tn) };
}

function printMetrics(verdicts: Verdict[]): void {
  const { tp, fn, fp, tn, precision, recall, f1, fpr } = metrics(verdicts, isRisky);
  console.log('\nconfusion (rows: truth, cols: scanner)   risky   not-risky');
  console.log(
    `  malicious                              ${String(tp).padStart(5)}   ${String(fn).padStart(9)}`,
  );
  console.log(
    `  benign                                 ${String(fp).padStart(5)}   ${String(tn).padStart(9)}`,
  );
  console.log(`\nprecision ${pct(precision)}  recall ${pct(recall)}  F1 ${pct(f1)}  FPR ${pct(fpr)}`);
  const ok = f1 >= 0.9 && fpr <= 0.1;
  console.log(`target F1 >= 0.90 at FPR <= 0.10: ${ok ? 'met' : 'NOT met'}`);
}

/**
 * Diagnostic, not the verdict: where would a different cut-off on the safety score land? Says whether misses
 * come from detection (malicious and benign scores overlap) or from calibration (they separate, but not at 80).
 */
function printScoreSweep(verdicts: Verdict[]): void {
  const scored = verdicts.filter((v) => v.skill.safetyScore !== null);
  const cuts = [...new Set(scored.map((v) => v.skill.safetyScore!))]
    .sort((a, b) => a - b)
    .map((s) => s + 1e-9);
  const notPass = metrics(scored, (v) => v.skill.status !== 'pass');
  console.log(
    `\nflagging caution too (score < 100): recall ${pct(notPass.recall)} FPR ${pct(notPass.fpr)} F1 ${pct(notPass.f1)}`,
  );
  let best: { cut: number; m: Metrics } | undefined;
  for (const cut of cuts) {
    const m = metrics(scored, (v) => v.skill.safetyScore! < cut);
    if (m.fpr <= 0.1 && (!best || m.f1 > best.m.f1)) best = { cut, m };
  }
  if (best) {
    const { cut, m } = best;
    console.log(
      `best score cut-off with FPR <= 0.10 (in-sample, optimistic): flag below ${cut.toFixed(2)} -> ` +
        `recall ${pct(m.recall)} precision ${pct(m.precision)} F1 ${pct(m.f1)} FPR ${pct(m.fpr)}`,
    );
  }
  const byLabel = (label: Label): string =>
    scored
      .filter((v) => v.label === label)
      .map((v) => v.skill.safetyScore!.toFixed(0))
      .sort((a, b) => Number(a) - Number(b))
      .join(' ');
  console.log(`scores malicious: ${byLabel('malicious')}`);
  console.log(`scores benign:    ${byLabel('benign')}`);
}

function printMisclassified(verdicts: Verdict[]): void {
  const wrong = verdicts.filter((v) => (v.label === 'malicious') !== isRisky(v));
  console.log(`\nmisclassified (${wrong.length})`);
  for (const v of wrong) {
    const kind = v.label === 'malicious' ? 'MISS' : 'FALSE POSITIVE';
    const s = v.skill;
    console.log(`- ${kind} ${v.label}/${shortName(v)}: ${s.status ?? s.error} (score ${s.safetyScore})`);
    for (const f of topFindings(s, 5)) {
      const evidence = f.evidence.replace(/\s+/g, ' ').slice(0, 90);
      console.log(
        `    ${f.pattern} ${f.severity} ${f.confidence.toFixed(2)} ${f.rule} ${f.file}:${f.line} ${evidence}`,
      );
    }
    if (s.findings.length === 0) console.log('    (no findings)');
  }
}

const started = Date.now();
const verdicts = runScan().map((skill) => ({ label: labelOf(skill.path), skill }));
console.log(
  `build ${build}; ${verdicts.length} skills scanned in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
    `(load ${loadavg()[0]!.toFixed(1)})\n`,
);
printStatusCounts(verdicts);
printMetrics(verdicts);
printScoreSweep(verdicts);
printMisclassified(verdicts);
