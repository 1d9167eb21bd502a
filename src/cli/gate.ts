import { type Command, InvalidArgumentError } from 'commander';
import { SEVERITY_RANK } from '../core/taxonomy.js';
import type { Finding, SafetyStatus, Severity } from '../core/types.js';

/** The verdict at or above which a gating command exits 1; `never` keeps the exit code for errors only. */
export type FailOn = 'risky' | 'caution' | 'never';

export interface Gate {
  failOn: FailOn;
  /** The older, finer gate: exit 1 on an unsuppressed finding at or above this severity as well. */
  failOnFinding?: Severity;
  /** Findings below this confidence do not trip --fail-on-finding. */
  minConfidence?: number;
}

/** What the gate reads of one skill: its status, and its findings for --fail-on-finding. */
export interface GatedSkill {
  status?: SafetyStatus;
  findings?: readonly Finding[];
}

const AT_OR_ABOVE: Record<FailOn, readonly SafetyStatus[]> = {
  risky: ['risky'],
  caution: ['caution', 'risky'],
  never: [],
};

/** --fail-on's value: a verdict. A severity here was the old form, so the error names the flag that took it. */
export function parseFailOn(value: string): FailOn {
  if (value === 'none') return 'never';
  if (value === 'risky' || value === 'caution' || value === 'never') return value;
  if (value === 'high' || value === 'medium' || value === 'low')
    throw new InvalidArgumentError(
      `--fail-on takes a verdict (risky, caution, never); for a finding severity use --fail-on-finding ${value}`,
    );
  throw new InvalidArgumentError('expected one of risky, caution, never');
}

function parseSeverity(value: string): Severity {
  if (value === 'high' || value === 'medium' || value === 'low') return value;
  throw new InvalidArgumentError('expected one of high, medium, low');
}

/** The two gate options every gating command shares (scan, audit). */
export function addGateOptions(command: Command): void {
  command
    .option(
      '--fail-on <verdict>',
      'exit 1 when a skill is at least this verdict: risky (default), caution, or never',
      parseFailOn,
      'risky',
    )
    .option(
      '--fail-on-finding <severity>',
      'also exit 1 when an unsuppressed finding at or above this severity remains (high, medium, low)',
      parseSeverity,
    );
}

/**
 * The exit code every gating command shares: 2 when a skill could not be loaded, else 1 when a skill's verdict is
 * at or above `failOn` or (with `failOnFinding`) an unsuppressed finding at or above that severity remains, else 0.
 */
export function gateExitCode(anyError: boolean, skills: readonly GatedSkill[], gate: Gate): number {
  if (anyError) return 2;
  return skills.some((s) => tripsGate(s, gate)) ? 1 : 0;
}

/** Whether one skill makes the command exit 1. */
export function tripsGate(skill: GatedSkill, gate: Gate): boolean {
  if (skill.status && AT_OR_ABOVE[gate.failOn].includes(skill.status)) return true;
  const { failOnFinding, minConfidence = 0 } = gate;
  if (!failOnFinding) return false;
  const rank = SEVERITY_RANK[failOnFinding];
  return (skill.findings ?? []).some(
    (f) => !f.suppressed && SEVERITY_RANK[f.severity] >= rank && f.confidence >= minConfidence,
  );
}

/** The gate's outcome in words, for summaries and the action's log. */
export function gateLine(exitCode: number, gate: Gate): string {
  if (exitCode === 2) return 'some skills could not be scanned';
  const parts: string[] = [];
  if (gate.failOn !== 'never') parts.push(`fail-on ${gate.failOn}`);
  if (gate.failOnFinding)
    parts.push(`fail-on-finding ${gate.failOnFinding} (confidence at least ${gate.minConfidence ?? 0})`);
  if (parts.length === 0) return 'fail-on never: the gate never fails';
  return `${parts.join(', ')}: ${exitCode === 1 ? 'failed' : 'passed'}`;
}
