import type { Decision } from '../core/decision.js';
import { unreadFrontmatter } from '../core/frontmatter-notes.js';
import { patternById } from '../core/taxonomy.js';
import type { Finding, Skill, Verdict } from '../core/types.js';
import { STATUS_ADVICE } from '../core/verdict-words.js';
import type { DetonationResult } from '../detonate/index.js';
import type { QualityProfile } from '../quality/index.js';
import type { SkillScan } from '../scan/index.js';
import { assessSafety, explain, statusReason } from '../score/index.js';
import { VERSION } from '../version.js';
import type { Report, ReportFinding, RuntimeSummary, UtilitySummary } from './model.js';

// Builds the one report model from the stages' artifacts. Pure: no I/O, so every number is traceable to
// the inputs passed here (which the pipeline also writes to the run folder).

export interface ReportInputs {
  skill: Skill;
  skillPath: string;
  scan: SkillScan;
  detonation: DetonationResult | null;
  quality: QualityProfile | null;
  notRun: { stage: string; reason: string }[];
  configuration: Record<string, unknown>;
  sandboxBackend?: string;
  /** Paired-trial scores (seed 000 eqs. 1-7); absent or null when no model ran them. */
  utility?: UtilitySummary | null;
  /** Verdicts of agent-driven security probes; a settled one replaces the detonation's verdict (eq. 8). */
  probeVerdicts?: Verdict[];
}

const NO_PROBE: Omit<Verdict, 'finding'> = { kind: 'no_probe', exploitConfidence: 0.6, evidence: [] };

function withVerdicts(findings: Finding[], verdicts: Verdict[]): ReportFinding[] {
  const byId = new Map(verdicts.map((v) => [v.finding, v]));
  return findings.map((f) => {
    const v = byId.get(f.id) ?? { finding: f.id, ...NO_PROBE };
    return {
      ...f,
      verdict: v.kind,
      exploitConfidence: v.exploitConfidence,
      runtimeEvidence: v.evidence.map((e) =>
        e.endsWith('.json')
          ? { kind: 'artifact', summary: `evidence bundle ${e}`, artifact: e }
          : { kind: 'runtime', summary: e },
      ),
    };
  });
}

/** Present only when some tool used its own credential, so reports without any keep their shape. */
function expectedUse(d: DetonationResult): { expectedCredentialUse?: string[] } {
  const uses = d.runs.flatMap((r) => r.expectedCredentialUse.map((n) => `${n} (${r.entry.id})`));
  return uses.length ? { expectedCredentialUse: uses } : {};
}

function runtimeSummary(d: DetonationResult, backend: string | undefined): RuntimeSummary {
  const all = d.runs.map((r) => r.evidence);
  return {
    scriptsRun: d.runs.map((r) => ({
      command: r.entry.id,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      wallMs: r.wallMs,
    })),
    network: all.flatMap((e) => [
      ...e.network.sink.map((s) => ({
        destination: `${s.host ?? s.address}:${s.port}${s.path ?? ''}`,
        protocol: s.protocol,
        blocked: false,
        bytes: s.bytes,
      })),
      // Unix-socket connects too: a skill probing for a host's docker or agent socket is news.
      ...e.network.attempts.map((a) => ({
        destination: a.protocol === 'unix' ? `unix:${a.address}` : `${a.address}:${a.port ?? ''}`,
        protocol: a.protocol,
        blocked: a.blocked,
      })),
    ]),
    canaryHits: d.runs.flatMap((r) =>
      r.canaryHits.map((h) => ({ canary: h.canary, where: `${h.where} (${r.entry.id})` })),
    ),
    ...expectedUse(d),
    filesChanged: all.flatMap((e) =>
      e.fsChanges.map((c) => ({ path: `${c.root}:${c.path}`, change: c.change })),
    ),
    processes: all.flatMap((e) => e.processes.map((p) => ({ argv: p.argv }))).slice(0, 500),
    coverage: d.coverage,
    sandbox: {
      backend: backend ?? all[0]?.backend ?? 'unknown',
      limitsApplied: [
        ...new Set(all.flatMap((e) => e.limits.applied.map((l) => `${l.limit}=${l.value} (${l.via})`))),
      ],
    },
  };
}

/** One line on what the paired trials showed, so the decision reads with the skill's measured value. */
function utilityReason(u: UtilitySummary | null | undefined): string | null {
  if (!u || u.prg === null) return null;
  const valid = u.scenarios.filter((s) => s.valid).length;
  const pct = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x * 100)}%`;
  if (u.ceiling)
    return `utility: the agent already passed every check without the skill (${valid} scenario(s))`;
  const cost = u.cg === null ? '' : `; tokens ${pct(-u.cg)} with the skill`;
  return `utility: ${pct(u.prg)} checklist items passed with the skill (over ${valid} scenario(s))${cost}`;
}

function decide(decision: Decision, findings: ReportFinding[]): Report['verdict'] {
  const status = decision.status;
  const active = findings.filter((f) => !f.suppressed);
  const reasons: string[] = [];
  // The strongest evidence leads: each behaviour the sandbox confirmed, with where it went.
  for (const f of findings.filter((x) => !x.suppressed && x.verdict === 'confirmed').slice(0, 3))
    reasons.push(confirmedReason(f));
  if (status !== 'pass') reasons.push(statusReason(decision));
  else if (decision.because.length)
    reasons.push(`weighed and not a reason for concern: ${explain(decision)}`);
  if (status === 'caution' && !reasons.length)
    reasons.push(`${active.length} lower-severity finding(s) to review`);
  return { status, advice: STATUS_ADVICE[status], reasons };
}

/**
 * What a reader must see beside the verdict, not lines down the report: the scripts were not run (no sandbox,
 * --no-detonate, a failed detonation), and a frontmatter an agent may not load as it was scanned.
 */
function headerNotices(skill: Skill, notRun: readonly { stage: string; reason: string }[]): string[] {
  const notices = notRun
    .filter((n) => n.stage === 'detonate' && !NOTHING_TO_RUN.test(n.reason))
    .map((n) => `scripts were not run: ${n.reason.replace(/; scripts were not run$/, '')}`);
  return [...notices, ...unreadFrontmatter(skill)];
}

/** A skill with nothing to run: not a gap in the evidence. */
const NOTHING_TO_RUN = /^the skill has no scripts or commands/;

function withNotices(verdict: Report['verdict'], notices: string[]): Report['verdict'] {
  return notices.length ? { ...verdict, reasons: [...verdict.reasons, ...notices] } : verdict;
}

/** "confirmed at runtime: E2 Env Var Harvesting (scripts/setup.sh:14): <what the run recorded>". */
function confirmedReason(f: ReportFinding): string {
  const where = `${f.file}${f.line ? `:${f.line}` : ''}`;
  // What the run recorded (a request and its destination, a file written), not the name of the evidence file.
  const seen = (f.runtimeEvidence.find((e) => e.kind !== 'artifact') ?? f.runtimeEvidence[0])?.summary;
  return `confirmed at runtime: ${f.pattern} ${patternById(f.pattern).name} (${where})${seen ? `: ${seen}` : ''}`;
}

function withUtility(verdict: Report['verdict'], reason: string | null): Report['verdict'] {
  return reason ? { ...verdict, reasons: [...verdict.reasons, reason] } : verdict;
}

export function buildReport(inputs: ReportInputs): Report {
  const { skill, scan, detonation } = inputs;
  // Later verdicts win: a probe run by an agent settles what script detonation left open.
  const verdicts = [...(detonation?.verdicts ?? []), ...(inputs.probeVerdicts ?? [])];
  const findings = withVerdicts([...scan.findings, ...(detonation?.runtimeFindings ?? [])], verdicts);
  const { score, status, decision } = assessSafety(findings.filter((f) => !f.suppressed));
  return {
    version: 2,
    generatedAt: new Date().toISOString(),
    tool: { name: 'skillaudit', version: VERSION },
    skill: {
      id: skill.id,
      name: skill.name || skill.folderName,
      description: skill.description,
      path: inputs.skillPath,
      provenance: skill.provenance,
      files: skill.files.map((f) => ({
        path: f.path,
        size: f.size,
        kind: f.kind,
        language: f.language,
        sha256: f.sha256,
      })),
      diagnostics: skill.diagnostics,
    },
    verdict: withUtility(
      withNotices(decide(decision, findings), headerNotices(skill, inputs.notRun)),
      utilityReason(inputs.utility),
    ),
    safety: { score, status, decision, findings, notes: scan.notes },
    runtime: detonation ? runtimeSummary(detonation, inputs.sandboxBackend) : null,
    utility: inputs.utility ?? null,
    quality: inputs.quality
      ? {
          overall: inputs.quality.overall,
          groups: inputs.quality.groups,
          dimensions: inputs.quality.dimensions.map((d) => ({
            id: d.id,
            name: d.name,
            group: d.group,
            status: d.status,
            score: d.score,
            ...(d.reason ? { reason: d.reason } : {}),
            ...(Array.isArray(d.evidence.artifacts) ? { artifacts: d.evidence.artifacts as string[] } : {}),
          })),
        }
      : null,
    notRun: inputs.notRun,
    configuration: inputs.configuration,
  };
}
