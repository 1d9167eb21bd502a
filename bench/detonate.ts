// Detonation benchmark, printed as figures (not assertions): `npx tsx bench/detonate.ts [sets] [benign-count]`.
// `sets` is a comma list of: fixtures (the team-written set in test/fixtures/detonate, labels in
// eval/detonate/labels.json), labeled and holdout (the scanner's injected and clean sets in eval/, never tuned on
// by detonation; holdout was written blind), corpus (the malicious skills with scripts in ../shared/corpus), campaign (the
// corpus's in-the-wild malicious skills without scripts: SKILL.md commands only), benign (the first
// `benign-count` in-the-wild benign corpus skills with scripts, for false confirmations). Default: fixtures,corpus.
// Every skill goes through `skillaudit audit` (keyless, the built CLI: run `npm run build` first), so corpus
// files only ever run inside the sandbox. Per skill it prints: confirmed or not, the matching confirmed
// patterns, or why not (a reason class read from detonation.json), false confirmations on clean skills, runs
// and coverage, and wall time (target < 30 s).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Report } from '../src/report/model.js';

const ROOT = new URL('..', import.meta.url).pathname;
const FIXTURES = join(ROOT, 'test/fixtures/detonate');
const CORPUS = join(ROOT, '../shared/corpus');
const sets = new Set((process.argv[2] ?? 'fixtures,corpus').split(','));
const BENIGN_COUNT = Number(process.argv[3] ?? 10);
/** Patterns whose confirmation the issue counts: exfiltration, credentials, remote code, escalation, persistence. */
const RISK_PATTERNS = ['E1', 'E2', 'E3', 'P3', 'P4', 'PE2', 'PE3', 'SC2', 'SC3'];

interface Case {
  set: string;
  name: string;
  path: string;
  label: 'malicious' | 'blocked' | 'clean';
  confirm: string[];
}

interface Detonation {
  wallMs?: number;
  runs: { stopped: string | null; entry: { id: string } }[];
  coverage?: {
    runs: number;
    reachedCode: number;
    completed: number;
    overBudget: string[];
    missing: { kind: string; name: string }[];
    headline: string;
  };
  verdicts: { kind: string; evidence: string[] }[];
  skipped: { entry: string; reason: string }[];
}

function hasScriptFiles(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((e) =>
    e.isDirectory()
      ? hasScriptFiles(join(dir, e.name))
      : /\.(py|sh|bash|js|mjs|cjs|ts|ps1|rb|pl)$/.test(e.name),
  );
}

function cases(): Case[] {
  const out: Case[] = [];
  if (sets.has('fixtures')) {
    const labels = JSON.parse(readFileSync(join(ROOT, 'eval/detonate/labels.json'), 'utf8')) as {
      skills: Record<string, { label: Case['label']; confirm?: string[] }>;
    };
    for (const [name, l] of Object.entries(labels.skills))
      out.push({
        set: 'fixtures',
        name,
        path: join(FIXTURES, name),
        label: l.label,
        confirm: l.confirm ?? [],
      });
  }
  // The scanner's labeled sets (eval/labeled, and eval/holdout, written blind): a skill whose labels put a risk
  // pattern in a script or manifest is malicious, one labeled clean with scripts is clean; skills whose scripts
  // carry only other risks (a fetch without timeout) are left out.
  for (const set of ['labeled', 'holdout'].filter((s) => sets.has(s))) {
    const labels = JSON.parse(readFileSync(join(ROOT, 'eval', set, 'labels.json'), 'utf8')) as {
      skills: Record<string, { pattern: string; file: string }[]>;
    };
    for (const [name, l] of Object.entries(labels.skills)) {
      const path = join(ROOT, 'eval', set, name);
      if (!hasScriptFiles(path)) continue;
      const risky = l.some((x) => RISK_PATTERNS.includes(x.pattern) && !x.file.endsWith('.md'));
      if (l.length === 0 || risky)
        out.push({ set, name, path, label: risky ? 'malicious' : 'clean', confirm: RISK_PATTERNS });
    }
  }
  const manifest = existsSync(join(CORPUS, 'manifest.json'))
    ? (JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as {
        id: string;
        label: string;
        kind: string;
      }[])
    : [];
  const hasScripts = (id: string): boolean => hasScriptFiles(join(CORPUS, 'skills', id));
  const corpus = (set: string, label: Case['label'], pick: (m: (typeof manifest)[number]) => boolean) => {
    for (const m of manifest.filter(pick).sort((a, b) => a.id.localeCompare(b.id)))
      out.push({ set, name: m.id, path: join(CORPUS, 'skills', m.id), label, confirm: RISK_PATTERNS });
  };
  if (sets.has('corpus')) corpus('corpus', 'malicious', (m) => m.label === 'malicious' && hasScripts(m.id));
  if (sets.has('campaign'))
    corpus(
      'campaign',
      'malicious',
      (m) => m.label === 'malicious' && m.kind === 'in-the-wild' && !hasScripts(m.id),
    );
  if (sets.has('benign')) {
    const before = out.length;
    corpus('benign', 'clean', (m) => m.label === 'benign' && m.kind === 'in-the-wild' && hasScripts(m.id));
    const benign = out.splice(before);
    out.push(...benign.slice(0, BENIGN_COUNT));
  }
  return out;
}

function audit(path: string, out: string): Promise<{ report: Report | null; error: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/skillaudit.js'), 'audit', path, '--out', out, '--format', 'json', '--quiet'],
      { maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
      (error, stdout, stderr) => {
        try {
          resolve({ report: JSON.parse(stdout) as Report, error: '' });
        } catch {
          resolve({
            report: null,
            error: (stderr || error?.message || stdout.slice(0, 200)).trim().split('\n').pop() ?? 'failed',
          });
        }
      },
    );
  });
}

/** Why nothing matching was confirmed, by class, read from detonation.json. */
function reasonClass(d: Detonation | null, report: Report): string {
  if (!d)
    return `not detonated: ${report.notRun.find((n) => n.stage === 'detonate')?.reason ?? 'no detonation.json'}`;
  if (d.runs.length === 0)
    return `nothing ran: ${[...new Set(d.skipped.map((s) => s.reason))].slice(0, 2).join('; ') || 'no scripts or commands'}`;
  const cov = d.coverage;
  if (cov && cov.reachedCode === 0)
    return `missing dependency (${cov.missing.map((m) => `${m.kind} ${m.name}`).join(', ')})`;
  if (d.verdicts.some((v) => v.evidence.some((e) => e.includes("did not run the sandbox's stand-in"))))
    return 'second stage fetched but not run';
  const stops = d.runs.map((r) => r.stopped).filter((s): s is string => s !== null && !/--help/.test(s));
  const classes = stops.map((s) =>
    /time limit/.test(s)
      ? 'timeout'
      : /guard/.test(s)
        ? 'guard'
        : /missing module|missing program|interpreter/.test(s)
          ? 'missing dependency'
          : /failed download/.test(s)
            ? 'failed download'
            : /missing file/.test(s)
              ? 'missing file'
              : 'error exit',
  );
  const completed = cov?.completed ?? d.runs.filter((r) => r.stopped === null).length;
  if (completed === 0 && classes.length) {
    const counts = new Map<string, number>();
    for (const c of classes) counts.set(c, (counts.get(c) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    return `every run stopped early (mostly ${top[0]}: ${top[1]}/${d.runs.length})`;
  }
  return `ran (${completed}/${d.runs.length} to a clean end), no risky effect observed${cov?.overBudget.length ? `; ${cov.overBudget.length} entry points over budget` : ''}`;
}

const out = mkdtempSync(join(tmpdir(), 'skillaudit-bench-detonate-'));
const rows: string[] = [];
const detonationWall: number[] = [];
const tally = new Map<string, { total: number; ok: number; wall: number[] }>();
/** The audit's safety status per set, as a user sees it. */
const statuses = new Map<string, string[]>();
try {
  const all = cases();
  console.log(`${all.length} skills (${[...sets].join(', ')}); out ${out}`);
  for (const [i, c] of all.entries()) {
    const dir = join(out, String(i));
    const started = performance.now();
    const { report, error } = await audit(c.path, dir);
    const wall = (performance.now() - started) / 1000;
    let line: string;
    let ok: boolean;
    if (!report) {
      ok = false;
      line = `ERROR ${error}`;
    } else {
      const runDir = readdirSync(dir).map((n) => join(dir, n))[0]!;
      const detonationFile = join(runDir, 'detonation.json');
      const d = existsSync(detonationFile)
        ? (JSON.parse(readFileSync(detonationFile, 'utf8')) as Detonation)
        : null;
      const confirmed = report.safety.findings.filter((f) => f.verdict === 'confirmed' && !f.suppressed);
      const matching = confirmed.filter((f) => c.confirm.includes(f.pattern));
      const lowered = report.safety.findings.filter((f) => f.verdict === 'path_exists_not_triggered');
      const cov = d?.coverage
        ? ` [runs ${d.coverage.runs}, reached ${d.coverage.reachedCode}, clean ${d.coverage.completed}${d.wallMs !== undefined ? `, detonation ${(d.wallMs / 1000).toFixed(1)} s` : ''}]`
        : '';
      if (d?.wallMs !== undefined) detonationWall.push(d.wallMs / 1000);
      if (c.label === 'malicious') {
        ok = matching.length > 0;
        line = ok
          ? `confirmed ${[...new Set(matching.map((f) => f.pattern))].join(' ')}`
          : `NOT confirmed: ${reasonClass(d, report)}`;
      } else if (c.label === 'blocked') {
        ok = confirmed.length === 0 && lowered.length === 0;
        line = ok
          ? `held (nothing confirmed or lowered): ${reasonClass(d, report)}`
          : `WRONG: ${confirmed.length} confirmed, ${lowered.length} lowered`;
      } else {
        ok = confirmed.length === 0;
        line = ok
          ? 'clean: no confirmation'
          : `FALSE CONFIRMATION ${confirmed.map((f) => `${f.pattern} ${f.file}:${f.line}`).join(', ')}`;
      }
      line += `${cov} -> ${report.safety.status}`;
      statuses.set(`${c.set}/${c.label}`, [
        ...(statuses.get(`${c.set}/${c.label}`) ?? []),
        report.safety.status,
      ]);
    }
    const key = `${c.set}/${c.label}`;
    const t = tally.get(key) ?? { total: 0, ok: 0, wall: [] };
    t.total++;
    if (ok) t.ok++;
    t.wall.push(wall);
    tally.set(key, t);
    const row = `${c.set.padEnd(9)} ${c.label.padEnd(9)} ${c.name.slice(0, 60).padEnd(60)} ${wall.toFixed(1).padStart(6)} s  ${line}`;
    rows.push(row);
    console.log(row);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (detonationWall.length) {
  const sorted = [...detonationWall].sort((a, b) => a - b);
  console.log(
    `\ndetonation stage alone: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} s, max ${sorted.at(-1)!.toFixed(1)} s, ${sorted.filter((w) => w > 30).length} of ${sorted.length} over 30 s`,
  );
}
console.log('\nsummary (ok = confirmed for malicious, held for blocked, no confirmation for clean):');
const statusOf = (key: string) => {
  const list = statuses.get(key) ?? [];
  return ['pass', 'caution', 'risky'].map((s) => `${s} ${list.filter((x) => x === s).length}`).join(', ');
};
for (const [key, t] of tally) {
  const sorted = [...t.wall].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const over = t.wall.filter((w) => w > 30).length;
  console.log(
    `  ${key.padEnd(20)} ${t.ok}/${t.total} ok (${Math.round((100 * t.ok) / t.total)} %), wall median ${median.toFixed(1)} s, max ${sorted.at(-1)!.toFixed(1)} s, ${over} over 30 s; audit status: ${statusOf(key)}`,
  );
}
