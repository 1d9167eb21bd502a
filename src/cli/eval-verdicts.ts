import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { printable } from '../core/format.js';
import type { EvasionReport, EvasionSubject } from '../scan/evaluate/index.js';
import type { SkillScanResult } from '../scan/index.js';
import {
  accuracy,
  type CrossSource,
  carries,
  crossSource,
  DECISIVE_INDICATORS,
  decide,
  explain,
  groupBy,
  isSafetyFinding,
  type LabelledSkill,
  type Metrics,
  metrics,
  type Prediction,
  prediction,
  type VerdictLabel,
} from '../score/index.js';
import { errorMessage, UserError } from '../util/errors.js';
import { emit, oneOf } from './output.js';

// `skillaudit eval-verdicts`: the status measured on labelled skills, per label, kind and source, with every
// miss and false alarm; `--cross-source` refits the decision leaving each source out (the figure to believe).

const LABELS: readonly VerdictLabel[] = ['malicious', 'risky', 'benign'];

interface LabelRecord {
  id: string;
  label: VerdictLabel;
  source: string;
  kind?: string;
}

/** A labelled corpus on disk: where its skills are and what each is labelled. */
export interface LabelledCorpus {
  /** Folder the record ids are relative to. */
  root: string;
  records: LabelRecord[];
}

function parseRecords(file: string, fallbackSource: string): LabelRecord[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError('UNREADABLE', `cannot read labels ${file}: ${errorMessage(error)}`);
  }
  if (!Array.isArray(data)) throw new UserError('USAGE', `${file}: expected an array of {id, label} records`);
  return data.map((r: Record<string, unknown>, i) => {
    if (typeof r.id !== 'string' || !LABELS.includes(r.label as VerdictLabel))
      throw new UserError(
        'USAGE',
        `${file}: record ${i} needs a string id and a label of ${LABELS.join(', ')}`,
      );
    return {
      id: r.id,
      label: r.label as VerdictLabel,
      source: typeof r.repo === 'string' ? r.repo : typeof r.source === 'string' ? r.source : fallbackSource,
      ...(typeof r.kind === 'string' ? { kind: r.kind } : {}),
    };
  });
}

/**
 * Finds the labels of a corpus folder: `--labels FILE` or `<dir>/manifest.json` (records `{id, label, repo?,
 * kind?}`, skills in `<dir>/skills/<id>` or `<dir>/<id>`), else label folders `<dir>/{malicious,risky,benign}/*`.
 */
export function loadLabelledCorpus(dir: string, labelsFile?: string): LabelledCorpus {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new UserError('NOT_FOUND', `no such folder: ${dir}`);
  const source = `local/${basename(root)}`;
  const manifest = labelsFile ?? join(root, 'manifest.json');
  if (existsSync(manifest)) {
    const records = parseRecords(manifest, source);
    const skills = join(root, 'skills');
    const base = records.length && existsSync(join(skills, records[0]!.id)) ? skills : root;
    return { root: base, records };
  }
  const records: LabelRecord[] = [];
  for (const label of LABELS) {
    const folder = join(root, label);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) {
      if (statSync(join(folder, name)).isDirectory()) records.push({ id: `${label}/${name}`, label, source });
    }
  }
  if (!records.length)
    throw new UserError('USAGE', `${dir}: no manifest.json and no malicious/, risky/ or benign/ folders`);
  return { root, records };
}

/** Scans a labelled corpus and pairs each record with its findings; records whose skill failed are listed. */
export async function scanLabelled(
  corpus: LabelledCorpus,
  scan: (dir: string) => Promise<SkillScanResult[]>,
): Promise<{ samples: LabelledSkill[]; errors: Record<string, string> }> {
  const results = await scan(corpus.root);
  const byId = new Map<string, SkillScanResult>();
  for (const r of results) byId.set(relative(corpus.root, resolve(r.path)).split(sep).join('/'), r);
  const samples: LabelledSkill[] = [];
  const errors: Record<string, string> = {};
  for (const rec of corpus.records) {
    const r = byId.get(rec.id);
    if (!r?.scan) {
      errors[rec.id] = r?.error ? `${r.error.code}: ${r.error.message}` : 'not found by intake';
      continue;
    }
    samples.push({
      id: rec.id,
      source: rec.source,
      label: rec.label,
      ...(rec.kind ? { kind: rec.kind } : {}),
      findings: r.scan.findings.filter((f) => !f.suppressed),
    });
  }
  return { samples, errors };
}

/** Scanned, labelled skills as the evasion suite takes them: where each is and the status it has today. */
export function evasionSubjects(corpus: LabelledCorpus, samples: readonly LabelledSkill[]): EvasionSubject[] {
  return samples.map((s) => ({
    id: s.id,
    dir: join(corpus.root, s.id),
    label: s.label,
    status: decide(s.findings).status,
  }));
}

interface Mistake {
  id: string;
  source: string;
  label: VerdictLabel;
  status: string;
  probability: number;
  because: string;
  top: { pattern: string; rule: string; file: string; line: number; confidence: number }[];
}

export interface EvalVerdictsReport {
  version: 1;
  skills: number;
  errors: Record<string, string>;
  /** The checked-in decision applied as is (it was trained on these skills if they are the development corpus). */
  overall: Metrics;
  byKind: Record<string, Metrics>;
  bySource: { source: string; metrics: Metrics; accuracy: number }[];
  misses: Mistake[];
  falseAlarms: Mistake[];
  crossSource?: Omit<CrossSource, 'predictions'>;
  /** How many skills of each label each decisive indicator fires on (its precision on benign skills). */
  decisive: { indicator: string; malicious: number; risky: number; benign: number }[];
  /** The evasion suite (`--evasion`): the share of risky malicious and passing benign skills that hold. */
  evasion?: EvasionReport;
}

function mistake(s: LabelledSkill, p: Prediction, because: string): Mistake {
  const top = [...s.findings]
    .filter(isSafetyFinding)
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, 3)
    .map((f) => ({ pattern: f.pattern, rule: f.rule, file: f.file, line: f.line, confidence: f.confidence }));
  return {
    id: s.id,
    source: s.source,
    label: s.label,
    status: p.status,
    probability: p.probability,
    because,
    top,
  };
}

/** Every figure of the report from scanned, labelled skills. */
export function evalVerdicts(
  samples: readonly LabelledSkill[],
  errors: Record<string, string>,
  options: { crossSource?: boolean } = {},
): EvalVerdictsReport {
  const predictions: Prediction[] = [];
  const explained = new Map<string, string>();
  for (const s of samples) {
    const d = decide(s.findings);
    explained.set(s.id, explain(d));
    predictions.push(prediction(s, d.probability, d.status));
  }
  const sample = new Map(samples.map((s) => [s.id, s]));
  const byKind = Object.fromEntries(
    [...groupBy(predictions, (p) => p.kind ?? 'unknown')].map(([k, ps]) => [k, metrics(ps)]),
  );
  const bySource = [...groupBy(predictions, (p) => p.source)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, ps]) => {
      const m = metrics(ps);
      return { source, metrics: m, accuracy: accuracy(m) };
    });
  const wrong = (pos: boolean) =>
    predictions
      .filter((p) => (p.label !== 'benign') === pos && (p.status === 'risky') !== pos)
      .map((p) => mistake(sample.get(p.id)!, p, explained.get(p.id)!));
  const decisive = DECISIVE_INDICATORS.map((def) => {
    const fires = samples.filter((s) => s.findings.some((f) => carries(def, f)));
    const count = (label: VerdictLabel) => fires.filter((s) => s.label === label).length;
    return {
      indicator: def.id,
      malicious: count('malicious'),
      risky: count('risky'),
      benign: count('benign'),
    };
  });
  const report: EvalVerdictsReport = {
    version: 1,
    skills: samples.length,
    errors,
    overall: metrics(predictions),
    byKind,
    bySource,
    misses: wrong(true),
    falseAlarms: wrong(false),
    decisive,
  };
  if (options.crossSource) {
    const { predictions: _, ...cross } = crossSource(samples);
    report.crossSource = cross;
  }
  return report;
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

function metricsLine(m: Metrics): string {
  const split = LABELS.filter((l) => Object.values(m.byLabel[l]).some((n) => n > 0)).map(
    (l) => `${l} ${m.byLabel[l].pass}/${m.byLabel[l].caution}/${m.byLabel[l].risky}`,
  );
  return `n ${m.skills}  P ${pct(m.precision)}  R ${pct(m.recall)}  F1 ${pct(m.f1)}  FPR ${pct(m.fpr)}  (pass/caution/risky: ${split.join(', ')})`;
}

export function renderEvalVerdictsText(r: EvalVerdictsReport, verbose: boolean): string {
  const out: string[] = [];
  const failed = Object.entries(r.errors);
  if (failed.length) {
    out.push(`Skills that could not be scanned (${failed.length}):`);
    for (const [id, why] of failed) out.push(`  ${printable(id)}: ${printable(why)}`);
    out.push('');
  }
  out.push('Positive: labelled malicious or risky; predicted positive: status risky.', '');
  out.push(`Checked-in decision  ${metricsLine(r.overall)}`);
  for (const [kind, m] of Object.entries(r.byKind)) out.push(`  ${kind.padEnd(18)} ${metricsLine(m)}`);
  out.push('', 'By source:');
  for (const s of r.bySource)
    out.push(`  ${printable(s.source).padEnd(40)} right ${pct(s.accuracy)}  ${metricsLine(s.metrics)}`);
  if (r.crossSource) {
    const c = r.crossSource;
    out.push('', 'Cross-source (fit on all sources but one, score the one left out):');
    out.push(`  pooled   ${metricsLine(c.pooled)}`);
    out.push(`  mean right-call share over ${c.perSource.length} sources: ${pct(c.meanAccuracy)}`);
    if (c.worst)
      out.push(
        `  worst source: ${printable(c.worst.source)} (${pct(c.worst.accuracy)} right of ${c.worst.skills})`,
      );
    for (const s of c.perSource)
      out.push(`  ${printable(s.source).padEnd(40)} right ${pct(s.accuracy)}  ${metricsLine(s.metrics)}`);
  }
  const list = (title: string, items: Mistake[]) => {
    out.push('', `${title} (${items.length}):`);
    for (const m of verbose ? items : items.slice(0, 20)) {
      out.push(
        `  ${printable(m.id)} [${m.label}] ${m.status} risk ${pct(m.probability)}: ${printable(m.because)}`,
      );
      for (const f of m.top)
        out.push(`      ${f.pattern} ${f.rule} ${printable(f.file)}:${f.line} (${f.confidence})`);
    }
    if (!verbose && items.length > 20) out.push(`  … ${items.length - 20} more (--verbose lists all)`);
  };
  out.push(
    '',
    'Decisive indicators (skills each fires on, by label; any benign one is a false alarm it causes):',
  );
  for (const d of r.decisive)
    out.push(`  ${d.indicator.padEnd(22)} malicious ${d.malicious}  risky ${d.risky}  benign ${d.benign}`);
  list('Misses: malicious or risky, not called risky', r.misses);
  list('False alarms: benign, called risky', r.falseAlarms);
  if (r.evasion) out.push('', ...evasionLines(r.evasion, verbose));
  return `${out.join('\n')}\n`;
}

/** The evasion tables: per transformation, how many skills held their status and what the others became. */
export function evasionLines(e: EvasionReport, verbose: boolean): string[] {
  const out: string[] = [];
  const table = (applies: 'malicious' | 'benign', title: string) => {
    out.push(title);
    for (const row of e.rows.filter((r) => r.applies === applies)) {
      const s = row.split;
      out.push(
        `  ${row.transformation.padEnd(24)} ${pct(row.share).padStart(7)}  ${row.held}/${row.skills}  (pass/caution/risky ${s.pass}/${s.caution}/${s.risky}): ${row.description}`,
      );
      for (const g of verbose ? row.gaveWay : []) out.push(`      ${printable(g.id)} → ${g.status}`);
    }
  };
  table(
    'malicious',
    `Evasion: malicious skills flagged risky (${e.malicious}) that stay risky when rewritten`,
  );
  out.push('');
  table('benign', `Evasion: passing benign skills (${e.benign}) that stay pass with honest additions`);
  return out;
}

export function registerEvalVerdicts(program: Command): void {
  program
    .command('eval-verdicts <corpus...>')
    .description(
      'Measure pass / caution / risky on labelled skills: per label, kind and source, with every miss and false alarm',
    )
    .option(
      '--labels <file>',
      'labels for the first corpus (default: <corpus>/manifest.json, else malicious/ risky/ benign/ folders)',
    )
    .option(
      '--cross-source',
      'refit the decision leaving each source out and score that source (the honest figure)',
      false,
    )
    .option('--format <format>', 'text or json', oneOf(['text', 'json'] as const), 'text')
    .option('--out <file>', 'write the report here instead of stdout')
    .option(
      '--evasion',
      'rewrite risky malicious and passing benign skills as an attacker or an honest author would, and report the share that keeps its status (eval/evasion/README.md)',
      false,
    )
    .option('--verbose', 'list every miss and false alarm', false)
    .option(
      '-q, --quiet',
      'no progress output (this command prints none; accepted as every command accepts it)',
    )
    .action(
      async (
        dirs: string[],
        options: {
          labels?: string;
          crossSource: boolean;
          format: 'text' | 'json';
          out?: string;
          verbose: boolean;
          evasion: boolean;
        },
      ) => {
        const { scanSource } = await import('../scan/index.js');
        const samples: LabelledSkill[] = [];
        const errors: Record<string, string> = {};
        const subjects: EvasionSubject[] = [];
        for (const [i, dir] of dirs.entries()) {
          const corpus = loadLabelledCorpus(dir, i === 0 ? options.labels : undefined);
          const got = await scanLabelled(corpus, (root) => scanSource(root));
          samples.push(...got.samples);
          Object.assign(errors, got.errors);
          subjects.push(...evasionSubjects(corpus, got.samples));
        }
        const report = evalVerdicts(samples, errors, { crossSource: options.crossSource });
        if (options.evasion) {
          const { runEvasion } = await import('../scan/evaluate/index.js');
          report.evasion = await runEvasion(subjects);
        }
        emit(
          options.format === 'json'
            ? `${JSON.stringify(report, null, 2)}\n`
            : renderEvalVerdictsText(report, options.verbose),
          options.out,
        );
        if (Object.keys(errors).length) process.exitCode = 2;
      },
    );
}
